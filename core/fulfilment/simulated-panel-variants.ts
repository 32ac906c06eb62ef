/**
 * The built-in simulated panel's drip-feed orders and subscriptions (simulated-panel.ts keeps
 * them; the protocol checks what `add` asked): the services it offers for them, and where each
 * stands at a given moment, computed from its creation time alone so every read (and every
 * instance) gets the same answer.
 *
 * A drip-feed delivers one run every `interval` minutes, the first once the order has started
 * (START_AT of deliverySeconds, like a one-off order), and is Completed after its last run;
 * `remains` counts against quantity × runs, as panels report a drip-feed as one order.
 *
 * A subscription's account "publishes" a simulated new post every postEveryMinutes (20 hours by
 * default), the first at a phase that depends on the order id (so two subscriptions do not move
 * in step), each served `delay` minutes after it appears. It is Completed when it has served its
 * posts or when its expiry day is over. With the outcome 'cancel' the panel ends it by itself
 * (Canceled, as panels do when an account stops posting) at CANCEL_AT of its period.
 */
import type { Selectable } from 'kysely';
import type { SimulatedPanelOrdersTable } from '../../db/schema.ts';
import { DAY_MS } from '../subscriptions/terms.ts';
import { PANEL_STATUSES, SUBSCRIPTIONS_TYPE } from './simulated-panel-protocol.ts';

/** A service of the simulated panel, before it is listed as panels list theirs. */
export interface SimulatedPanelService {
  service: string;
  name: string;
  /** Price per 1000, a decimal string with at most 4 decimals, e.g. "0.90". */
  rate: string;
  type?: string;
  category?: string;
  min?: number;
  max?: number;
  /** Default true. */
  refill?: boolean;
  /** Whether the service takes drip-feed; left out of the listing when not said. */
  dripfeed?: boolean;
}

/** The simulated panel's service ids for the seed catalogue's subscriptions (core/catalogue/seed). */
export const SIMULATED_INSTAGRAM_AUTO_LIKES_SERVICE = '1111';
export const SIMULATED_INSTAGRAM_DRIP_FEED_FOLLOWERS_SERVICE = '1121';
export const SIMULATED_TIKTOK_AUTO_LIKES_SERVICE = '1131';

/**
 * What the simulated panel offers beside the services the catalogue's one-off tiers name: a
 * Subscriptions service for automatic likes on Instagram and on TikTok (likes per new post; no
 * refill, as such services have none) and a followers service that takes drip-feed.
 */
export const SIMULATED_SUBSCRIPTION_SERVICES: readonly SimulatedPanelService[] = [
  {
    service: SIMULATED_INSTAGRAM_AUTO_LIKES_SERVICE,
    name: 'Instagram Auto Likes (likes on each new post)',
    rate: '0.35',
    type: SUBSCRIPTIONS_TYPE,
    category: 'Instagram Subscriptions',
    min: 50,
    max: 5000,
    refill: false,
  },
  {
    service: SIMULATED_INSTAGRAM_DRIP_FEED_FOLLOWERS_SERVICE,
    name: 'Instagram Followers (drip-feed, daily runs)',
    rate: '1.20',
    category: 'Instagram',
    min: 10,
    max: 5000,
    dripfeed: true,
  },
  {
    service: SIMULATED_TIKTOK_AUTO_LIKES_SERVICE,
    name: 'TikTok Auto Likes (likes on each new post)',
    rate: '0.30',
    type: SUBSCRIPTIONS_TYPE,
    category: 'TikTok Subscriptions',
    min: 50,
    max: 5000,
    refill: false,
  },
];

/** Share of deliverySeconds spent Pending, and of a period at which a 'cancel' outcome stops. */
export const START_AT = 0.1;
export const CANCEL_AT = 0.3;
/** A subscription without an expiry is judged against a month when the panel ends it. */
const OPEN_PERIOD_MS = 30 * DAY_MS;
const MINUTE_MS = 60_000;

type Row = Selectable<SimulatedPanelOrdersTable>;

export interface VariantProgress {
  status: string;
  remains: number;
  runsDone: number | null;
  postsServed: number | null;
  /** When the order reached its final status; null while it runs. */
  deliveredAt: string | null;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Where a drip-feed stands at `nowMs`. */
export function dripFeedProgress(
  row: Pick<Row, 'quantity' | 'runs' | 'run_interval_minutes' | 'created_at'>,
  nowMs: number,
  deliverySeconds: number,
): VariantProgress {
  const runs = Math.max(1, row.runs ?? 1);
  const intervalMs = Math.max(1, row.run_interval_minutes ?? 1) * MINUTE_MS;
  const firstRunAt = Date.parse(row.created_at) + Math.max(0, deliverySeconds) * 1000 * START_AT;
  const done = nowMs < firstRunAt ? 0 : Math.min(runs, 1 + Math.floor((nowMs - firstRunAt) / intervalMs));
  const remains = row.quantity * (runs - done);
  if (done === 0) return { status: PANEL_STATUSES.pending, remains, runsDone: 0, postsServed: null, deliveredAt: null };
  if (done < runs) {
    return { status: PANEL_STATUSES.inProgress, remains, runsDone: done, postsServed: null, deliveredAt: null };
  }
  const lastRunAt = firstRunAt + (runs - 1) * intervalMs;
  return {
    status: PANEL_STATUSES.completed,
    remains: 0,
    runsDone: runs,
    postsServed: null,
    deliveredAt: iso(lastRunAt),
  };
}

/**
 * Minutes from an order's creation to its account's first simulated post: spread over one
 * posting interval by the order id, so the demo's subscriptions do not all move at once.
 */
export function firstPostPhaseMinutes(orderId: number, postEveryMinutes: number): number {
  return (orderId * 7919) % Math.max(1, postEveryMinutes);
}

/** Where a subscription stands at `nowMs`; posts appear every `postEveryMinutes`. */
export function subscriptionProgress(
  row: Pick<Row, 'id' | 'posts' | 'delay_minutes' | 'expires_at' | 'outcome' | 'created_at'>,
  nowMs: number,
  deliverySeconds: number,
  postEveryMinutes: number,
): VariantProgress {
  const created = Date.parse(row.created_at);
  const endsAt = row.expires_at === null ? null : Date.parse(row.expires_at);
  const canceledAt =
    row.outcome === 'cancel' ? created + ((endsAt ?? created + OPEN_PERIOD_MS) - created) * CANCEL_AT : null;
  const everyMs = Math.max(1, postEveryMinutes) * MINUTE_MS;
  const firstServedAt =
    created + (firstPostPhaseMinutes(row.id, postEveryMinutes) + Math.max(0, row.delay_minutes ?? 0)) * MINUTE_MS;
  const limit = row.posts ?? Number.POSITIVE_INFINITY;
  /** Posts served up to (and including) `ms`. */
  const servedBy = (ms: number) =>
    ms < firstServedAt ? 0 : Math.min(limit, 1 + Math.floor((ms - firstServedAt) / everyMs));

  // The first moment it stops, and how: the panel's cancel, its expiry, or its last post served.
  const lastPostAt = row.posts === null ? Number.POSITIVE_INFINITY : firstServedAt + (row.posts - 1) * everyMs;
  const ends = [
    { at: canceledAt ?? Number.POSITIVE_INFINITY, status: PANEL_STATUSES.canceled },
    // Its expiry day is over at endsAt: a post at that moment is no longer served.
    { at: endsAt ?? Number.POSITIVE_INFINITY, status: PANEL_STATUSES.completed },
    { at: lastPostAt, status: PANEL_STATUSES.completed },
  ].sort((a, b) => a.at - b.at)[0];
  if (ends && nowMs >= ends.at) {
    const servedUntil = ends.at === lastPostAt ? ends.at : ends.at - 1;
    return {
      status: ends.status,
      remains: 0,
      runsDone: null,
      postsServed: servedBy(servedUntil),
      deliveredAt: iso(ends.at),
    };
  }
  const posts = servedBy(nowMs);
  const started = posts > 0 || nowMs >= created + Math.max(0, deliverySeconds) * 1000 * START_AT;
  return {
    status: started ? PANEL_STATUSES.inProgress : PANEL_STATUSES.pending,
    remains: 0,
    runsDone: null,
    postsServed: posts,
    deliveredAt: null,
  };
}
