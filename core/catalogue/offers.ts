/**
 * The subscriptions the store can sell right now (decision 057), as the home page, the FAQ, the
 * footer and the legal pages state them: a page may claim automatic likes or daily followers only
 * while a published service of that kind has a tier to buy, and only on that service's terms.
 * Plain values, no database: the pages' data carries them to the browser.
 */
import { DEFAULT_POSTS_PER_PERIOD, type SubscriptionKind, isSubscriptionKind } from '../subscriptions/terms.ts';
import type { ServiceView } from './types.ts';

export interface SubscriptionOffer {
  kind: SubscriptionKind;
  slug: string;
  name: string;
  periodDays: number;
  /** Automatic likes: the most new posts a period serves, and the minutes after each before the likes start. */
  posts: number | null;
  delayMinutes: number | null;
  /** The tiers' quantities across the plans (likes on each post, or followers a day), smallest first. */
  quantities: number[];
}

/** One offer per published subscription service with at least one tier, in the catalogue's order. */
export function subscriptionOffersOf(services: readonly ServiceView[]): SubscriptionOffer[] {
  const offers: SubscriptionOffer[] = [];
  for (const service of services) {
    if (!isSubscriptionKind(service.kind) || !service.terms) continue;
    const quantities = [...new Set(service.plans.flatMap((plan) => plan.list.map((tier) => tier.qty)))].sort(
      (a, b) => a - b,
    );
    if (quantities.length === 0) continue;
    const likes = service.kind === 'automatic_likes';
    offers.push({
      kind: service.kind,
      slug: service.slug,
      name: service.name,
      periodDays: service.terms.periodDays,
      posts: likes ? (service.terms.posts ?? DEFAULT_POSTS_PER_PERIOD) : null,
      delayMinutes: likes ? (service.terms.delayMinutes ?? 0) : null,
      quantities,
    });
  }
  return offers;
}
