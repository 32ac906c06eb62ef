/**
 * A subscription service's words on the order page before payment (decision 057): the tier
 * picker's quantity words ("100 likes per post", "50 followers a day"), what one period covers and
 * how it is renewed. Made on the server, so the order page's bundle carries no terms code.
 */
import type { ServiceView } from '../catalogue/types.ts';
import { coverageText, isSubscriptionKind, subscriptionPlanOf } from '../subscriptions/terms.ts';
import type { FormSubscriptionSchema } from './contracts.ts';
import type { z } from 'zod';

/** Days before a period ends that the renewal link is e-mailed. */
export const RENEWAL_REMINDER_DAYS = 3;

export const RENEWAL_NOTE = `No automatic charge: ${RENEWAL_REMINDER_DAYS} days before the end we e-mail you a link to renew.`;

const count = new Intl.NumberFormat('en-US');

/** The picker's words for a tier of this service, or null for a one-off package (its own labels). */
export function tierWordsOf(service: Pick<ServiceView, 'kind'>): ((qty: number) => string) | null {
  if (service.kind === 'automatic_likes') return (qty) => `${count.format(qty)} likes per post`;
  if (service.kind === 'daily_followers') return (qty) => `${count.format(qty)} followers a day`;
  return null;
}

/** What one period of this tier covers and how it renews; undefined for a one-off package. */
export function formSubscriptionOf(
  service: Pick<ServiceView, 'kind' | 'terms'>,
  qty: number,
): z.infer<typeof FormSubscriptionSchema> | undefined {
  if (!isSubscriptionKind(service.kind) || !service.terms) return undefined;
  return {
    coverage: coverageText(subscriptionPlanOf(service.kind, service.terms, qty), null),
    renewal: RENEWAL_NOTE,
  };
}
