/**
 * What a subscription is (decision 057): the kinds of service beside one-off packages, the terms
 * a service sells them on, what one bought tier amounts to at the supplier, and the words the
 * order page, the confirmation page and /client say about it. Plain values and functions, no
 * database and no zod: the order page's bundle imports this (its first-load budget).
 */
import {
  SERVICE_KINDS,
  SUBSCRIPTION_END_REASONS,
  type ServiceKind,
  type SubscriptionEndReason,
} from '../../db/column-values.ts';

export { SERVICE_KINDS, SUBSCRIPTION_END_REASONS, type ServiceKind, type SubscriptionEndReason };

export type SubscriptionKind = Exclude<ServiceKind, 'package'>;
export const SUBSCRIPTION_KINDS: readonly SubscriptionKind[] = ['automatic_likes', 'daily_followers'];

export function isSubscriptionKind(kind: string | null | undefined): kind is SubscriptionKind {
  return kind === 'automatic_likes' || kind === 'daily_followers';
}

/** How the owner's console names each kind. */
export const SERVICE_KIND_LABELS: Readonly<Record<ServiceKind, string>> = {
  package: 'One-off package',
  automatic_likes: 'Automatic likes (on each new post)',
  daily_followers: 'Daily followers (delivered every day)',
};

/** The period stores of this kind sell: a month, billed once per period. */
export const DEFAULT_PERIOD_DAYS = 30;
export const PERIOD_DAYS_MIN = 1;
export const PERIOD_DAYS_MAX = 365;
/** Automatic likes: posts one period covers by default, and the bounds the editor accepts. */
export const DEFAULT_POSTS_PER_PERIOD = 30;
export const POSTS_PER_PERIOD_MAX = 1000;
/**
 * The delays panels accept after a new post, in minutes (0, 5, 10, 15, 30, 60, 90 everywhere;
 * up to 600 on some panels).
 */
export const POST_DELAY_MINUTES = [0, 5, 10, 15, 30, 60, 90, 120, 150, 180, 240, 300, 360, 420, 480, 540, 600] as const;
/** Daily followers: one drip-feed run a day. */
export const DAILY_INTERVAL_MINUTES = 1440;
export const DAY_MS = 86_400_000;

/** A subscription service's terms, as the catalogue serves them (absent for packages). */
export interface ServiceTerms {
  periodDays: number;
  /** Automatic likes only. */
  posts?: number;
  /** Automatic likes only: minutes after a post before the likes start. */
  delayMinutes?: number;
}

/** One bought tier of a subscription service, as the supplier will be asked for it. */
export interface SubscriptionPlan {
  kind: SubscriptionKind;
  /** Likes per post, or followers per day. */
  perUnit: number;
  periodDays: number;
  /** Automatic likes: the most new posts served; and the delay after each. */
  posts: number | null;
  delayMinutes: number | null;
  /** Daily followers: one run a day for the period. */
  runs: number | null;
  intervalMinutes: number | null;
}

export function subscriptionPlanOf(kind: SubscriptionKind, terms: ServiceTerms, tierQty: number): SubscriptionPlan {
  const periodDays = terms.periodDays;
  if (kind === 'automatic_likes') {
    return {
      kind,
      perUnit: tierQty,
      periodDays,
      posts: terms.posts ?? DEFAULT_POSTS_PER_PERIOD,
      delayMinutes: terms.delayMinutes ?? 0,
      runs: null,
      intervalMinutes: null,
    };
  }
  return {
    kind,
    perUnit: tierQty,
    periodDays,
    posts: null,
    delayMinutes: null,
    runs: periodDays,
    intervalMinutes: DAILY_INTERVAL_MINUTES,
  };
}

/**
 * The units the supplier is asked for in all: a drip-feed's remains count against this (its
 * `status` reports the whole order); automatic likes have no fixed total (the panel serves the
 * posts that appear), so the tier's quantity stands.
 */
export function deliveryQuantityOf(plan: Pick<SubscriptionPlan, 'kind' | 'perUnit' | 'runs'>): number {
  return plan.kind === 'daily_followers' ? plan.perUnit * (plan.runs ?? 1) : plan.perUnit;
}

const numberFormat = new Intl.NumberFormat('en-US');
const dateFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});

/** "27 Dec 2026": the day a period ends, as every page and e-mail writes it. */
export function formatPeriodDate(at: Date | string): string {
  return dateFormat.format(typeof at === 'string' ? new Date(at) : at);
}

/** When a period that starts at `startsAt` ends: the panel's `expiry`. */
export function periodEnd(startsAt: Date, periodDays: number): Date {
  return new Date(startsAt.getTime() + periodDays * DAY_MS);
}

/**
 * What one period covers, for the order page and the order: "up to 30 posts, 100 likes each,
 * until 27 Dec 2026" or "50 followers a day for 30 days (1,500 in all), until 27 Dec 2026".
 * Without an end date (not started yet): "… for 30 days".
 */
export function coverageText(plan: SubscriptionPlan, endsAt: Date | string | null): string {
  const until = endsAt === null ? `for ${plan.periodDays} days` : `until ${formatPeriodDate(endsAt)}`;
  if (plan.kind === 'automatic_likes') {
    const posts = plan.posts ?? DEFAULT_POSTS_PER_PERIOD;
    return `up to ${numberFormat.format(posts)} new ${posts === 1 ? 'post' : 'posts'}, ${numberFormat.format(plan.perUnit)} likes each, ${until}`;
  }
  const total = numberFormat.format(deliveryQuantityOf(plan));
  const days = `${plan.periodDays} ${plan.periodDays === 1 ? 'day' : 'days'}`;
  return endsAt === null
    ? `${numberFormat.format(plan.perUnit)} followers a day for ${days} (${total} in all)`
    : `${numberFormat.format(plan.perUnit)} followers a day for ${days} (${total} in all), ${until}`;
}

/** Why a subscription ended, as the customer and the owner read it. */
export const END_REASON_TEXT: Readonly<Record<SubscriptionEndReason, string>> = {
  expired: 'Its period ended',
  panel: 'Our supplier ended it: no new posts appeared for about 30 days',
  customer: 'Cancelled by the customer',
  owner: 'Cancelled by the store',
};

/** What the pages know of a subscription while it runs (a subscriptions row, in our words). */
export interface SubscriptionProgress extends SubscriptionPlan {
  startsAt: string | null;
  endsAt: string | null;
  postsServed: number | null;
  runsDone: number | null;
  endedAt: string | null;
  endReason: SubscriptionEndReason | null;
}

/** Whole days from `now` to `endsAt`, rounded up (a period ending in 3 hours has "1 day left"). */
export function daysLeft(endsAt: string, now: Date): number {
  return Math.max(0, Math.ceil((new Date(endsAt).getTime() - now.getTime()) / DAY_MS));
}

/**
 * Where a subscription stands, in one line: "12 of 30 posts, 18 days left", "Day 12 of 30: 600 of
 * 1,500 followers, 18 days left", "Starts when it reaches our supplier", "Ended 12 Dec 2026: …".
 */
export function progressText(progress: SubscriptionProgress, now: Date): string {
  if (progress.endedAt !== null) {
    const reason = progress.endReason ? `: ${END_REASON_TEXT[progress.endReason].toLowerCase()}` : '';
    return `Ended ${formatPeriodDate(progress.endedAt)}${reason}`;
  }
  if (progress.startsAt === null || progress.endsAt === null) return 'Starts when it reaches our supplier';
  const left = daysLeft(progress.endsAt, now);
  const leftText = `${left} ${left === 1 ? 'day' : 'days'} left`;
  if (progress.kind === 'automatic_likes') {
    const posts = progress.posts ?? DEFAULT_POSTS_PER_PERIOD;
    return `${numberFormat.format(progress.postsServed ?? 0)} of ${numberFormat.format(posts)} posts, ${leftText}`;
  }
  const runs = progress.runs ?? progress.periodDays;
  const done = Math.min(runs, progress.runsDone ?? 0);
  const day = Math.min(runs, Math.max(1, Math.ceil((now.getTime() - new Date(progress.startsAt).getTime()) / DAY_MS)));
  const delivered = numberFormat.format(done * progress.perUnit);
  const total = numberFormat.format(deliveryQuantityOf(progress));
  return `Day ${day} of ${runs}: ${delivered} of ${total} followers, ${leftText}`;
}

/**
 * The share of an automatic-likes payment that was not served when it ended early (decision
 * 057): the smaller of the posts it had left and the time it had left, so the customer gets back
 * what was neither used nor had run out, and never the price of a month they had. A period that
 * ran out returns nothing; one that never reached the panel returns everything. Unknown posts
 * served count as none left to judge by: the time share alone.
 */
export function unservedShare(
  progress: Pick<SubscriptionProgress, 'posts' | 'postsServed' | 'startsAt' | 'endsAt' | 'periodDays'>,
  endedAt: Date,
  reason: SubscriptionEndReason,
): number {
  if (reason === 'expired') return 0;
  if (progress.startsAt === null || progress.endsAt === null) return 1;
  const periodMs = progress.periodDays * DAY_MS;
  const timeShare = Math.min(1, Math.max(0, (new Date(progress.endsAt).getTime() - endedAt.getTime()) / periodMs));
  if (progress.postsServed === null || !progress.posts) return timeShare;
  const postsShare = Math.min(1, Math.max(0, (progress.posts - progress.postsServed) / progress.posts));
  return Math.min(timeShare, postsShare);
}
