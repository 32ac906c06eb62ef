/**
 * What an "SMM panel API v2" `add` may ask for, checked as panels check it (see docs:
 * integrations.md): a one-off order (`service, link, quantity`, `comments`), a drip-feed
 * (`runs`, `interval` beside them; `quantity` is per run) and, on a service of type
 * Subscriptions, a subscription (`service, username, min, max, posts, delay, expiry`). Part of the
 * shared panel protocol (simulated-panel-protocol.ts), which picks the kind and answers.
 */
import { DAY_MS, POST_DELAY_MINUTES } from '../subscriptions/terms.ts';
import { count, flag } from './panel-values.ts';

/** A request's fields, flattened to strings. */
export type PanelAddForm = Record<string, string | undefined>;

/** The refusals of a new order's fields, in the words panels use. */
export const ADD_ERRORS = {
  link: 'Incorrect link',
  quantity: 'Incorrect quantity',
  runs: 'Incorrect runs',
  interval: 'Incorrect interval',
  dripFeedDisabled: 'Drip-feed is disabled for this service',
  username: 'Incorrect username',
  minMax: 'Incorrect min or max',
  posts: 'Incorrect posts',
  delay: 'Incorrect delay',
  expiry: 'Incorrect expiry date',
} as const;

/** An entry of the `services` reply as the panel sends it: numbers may come as strings. */
export interface PanelServiceEntry {
  service: string | number;
  name: string;
  type: string;
  category: string;
  /** Price per 1000. */
  rate: string | number;
  min: string | number;
  max: string | number;
  refill: boolean | number | string;
  cancel: boolean | number | string;
  /** Whether drip-feed (`runs`, `interval`) is offered; panels that leave it out take drip-feed anywhere. */
  dripfeed?: boolean | number | string;
}

/** The service type whose orders are subscriptions (`username`, `min`, `max`, `posts`, …), any case. */
export const SUBSCRIPTIONS_TYPE = 'Subscriptions';

export function isSubscriptionsService(service: Pick<PanelServiceEntry, 'type'>): boolean {
  return service.type.trim().toLowerCase() === SUBSCRIPTIONS_TYPE.toLowerCase();
}

/** A validated one-off `add`: `quantity` units to `link`. */
export interface OneOffPanelOrder {
  kind: 'one-off';
  service: PanelServiceEntry;
  link: string;
  quantity: number;
  /** Custom comments joined by "\n"; null when none were sent. */
  comments: string | null;
}

/** A validated drip-feed `add`: `quantity` per run, `runs` runs `interval` minutes apart. */
export interface DripFeedPanelOrder {
  kind: 'drip-feed';
  service: PanelServiceEntry;
  link: string;
  quantity: number;
  runs: number;
  interval: number;
}

/** A validated subscription `add`: `min` to `max` units on each new post of `username`. */
export interface SubscriptionPanelOrder {
  kind: 'subscription';
  service: PanelServiceEntry;
  username: string;
  min: number;
  max: number;
  /** The most new posts served; null: no limit (the field was left out). */
  posts: number | null;
  /** Existing posts also served; null when not asked. */
  oldPosts: number | null;
  /** Minutes after a new post before delivery starts. */
  delay: number;
  /** The last day served, as sent (d/m/Y), and the moment after it; null: no expiry. */
  expiry: { text: string; endsAt: Date } | null;
}

export type NewPanelOrder = OneOffPanelOrder | DripFeedPanelOrder | SubscriptionPanelOrder;

type Refusal = { error: string };
const refusal = (error: string): Refusal => ({ error });

/** A whole number of 1 to 9 digits, or null. */
function wholeNumber(text: string | undefined): number | null {
  const trimmed = (text ?? '').trim();
  return /^\d{1,9}$/.test(trimmed) ? Number(trimmed) : null;
}

/**
 * A subscription's `expiry` in PHP's d/m/Y ("27/12/2026"), read as the last day served: it ends at
 * the next midnight UTC. Null for a text that is not a real calendar day.
 */
export function parsePanelExpiry(text: string): { text: string; endsAt: Date } | null {
  const match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text.trim());
  if (!match) return null;
  const [day, month, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const start = new Date(Date.UTC(year, month - 1, day));
  if (start.getUTCFullYear() !== year || start.getUTCMonth() !== month - 1 || start.getUTCDate() !== day) return null;
  return { text: text.trim(), endsAt: new Date(start.getTime() + DAY_MS) };
}

/** The per-unit bounds of a service; a quantity outside them is refused in the panel's words. */
function quantityRefusal(service: PanelServiceEntry, quantity: number): Refusal | null {
  const min = count(service.min) ?? 1;
  const max = count(service.max) ?? Number.POSITIVE_INFINITY;
  if (quantity < min) return refusal(`Quantity less than minimal ${min}`);
  if (quantity > max) return refusal(`Quantity greater than maximal ${max}`);
  return null;
}

/** `service, link, quantity` (+ `runs, interval` for drip-feed, `comments`). */
export function linkOrder(service: PanelServiceEntry, form: PanelAddForm): NewPanelOrder | Refusal {
  const link = (form.link ?? '').trim();
  if (link === '') return refusal(ADD_ERRORS.link);
  const quantity = wholeNumber(form.quantity) ?? 0;
  if (quantity < 1) return refusal(ADD_ERRORS.quantity);
  const outside = quantityRefusal(service, quantity);
  if (outside) return outside;
  if (form.runs === undefined && form.interval === undefined) {
    const comments = (form.comments ?? '').trim();
    return { kind: 'one-off', service, link, quantity, comments: comments === '' ? null : comments };
  }
  // Drip-feed: `quantity` is per run and the order is quantity × runs.
  if (service.dripfeed !== undefined && !flag(service.dripfeed)) return refusal(ADD_ERRORS.dripFeedDisabled);
  const runs = wholeNumber(form.runs) ?? 0;
  if (runs < 1) return refusal(ADD_ERRORS.runs);
  const interval = wholeNumber(form.interval) ?? 0;
  if (interval < 1) return refusal(ADD_ERRORS.interval);
  return { kind: 'drip-feed', service, link, quantity, runs, interval };
}

/** `service, username, min, max, posts, delay, expiry` (+ `old_posts`) on a Subscriptions service. */
export function subscriptionOrder(service: PanelServiceEntry, form: PanelAddForm, now: Date): NewPanelOrder | Refusal {
  const username = (form.username ?? '').trim();
  if (username === '' || /\s/.test(username)) return refusal(ADD_ERRORS.username);
  const min = wholeNumber(form.min) ?? 0;
  const max = wholeNumber(form.max) ?? 0;
  if (min < 1 || max < min) return refusal(ADD_ERRORS.minMax);
  const outside = quantityRefusal(service, min) ?? quantityRefusal(service, max);
  if (outside) return outside;
  // Panels take `posts` and `expiry` as optional (no limit); `delay` they require.
  let posts: number | null = null;
  if (form.posts !== undefined) {
    posts = wholeNumber(form.posts);
    if (posts === null || posts < 1) return refusal(ADD_ERRORS.posts);
  }
  let oldPosts: number | null = null;
  if (form.old_posts !== undefined) {
    oldPosts = wholeNumber(form.old_posts);
    if (oldPosts === null) return refusal(ADD_ERRORS.posts);
  }
  const delay = wholeNumber(form.delay);
  if (delay === null || !(POST_DELAY_MINUTES as readonly number[]).includes(delay)) {
    return refusal(ADD_ERRORS.delay);
  }
  let expiry: SubscriptionPanelOrder['expiry'] = null;
  if (form.expiry !== undefined) {
    expiry = parsePanelExpiry(form.expiry);
    // Its last day must be a day still to come: a subscription that ends today serves nothing.
    if (expiry === null || expiry.endsAt.getTime() - DAY_MS <= now.getTime()) return refusal(ADD_ERRORS.expiry);
  }
  return { kind: 'subscription', service, username, min, max, posts, oldPosts, delay, expiry };
}
