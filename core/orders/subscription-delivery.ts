/**
 * What a subscription order amounts to at the supplier and what it is owed when it ends (decision
 * 057), read from its `subscriptions` row: the quantity its supplier orders count against, and
 * the refund rule of automatic likes. Reads only; the row's writes are in core/subscriptions/records.ts.
 */
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { ServiceKind } from '../../db/column-values.ts';
import type { Database, SubscriptionsTable } from '../../db/schema.ts';
import { e4ToCents } from '../money/money.ts';
import { refundDueE4 } from './progress.ts';
import { type SubscriptionProgress, deliveryQuantityOf, unservedShare } from '../subscriptions/terms.ts';

type Db = Kysely<Database> | Transaction<Database>;
export type SubscriptionRow = Selectable<SubscriptionsTable>;

export function subscriptionOf(db: Db, orderId: number): Promise<SubscriptionRow | undefined> {
  return db.selectFrom('subscriptions').selectAll().where('order_id', '=', orderId).executeTakeFirst();
}

/** The row in the words of core/subscriptions/terms.ts. */
export function progressOfRow(row: SubscriptionRow): SubscriptionProgress {
  return {
    kind: row.kind,
    perUnit: row.per_unit,
    periodDays: row.period_days,
    posts: row.posts,
    delayMinutes: row.delay_minutes,
    runs: row.runs,
    intervalMinutes: row.interval_minutes,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    postsServed: row.posts_served,
    runsDone: row.runs_done,
    endedAt: row.ended_at,
    endReason: row.end_reason,
  };
}

/**
 * The units an order's supplier orders count against: the tier's quantity, except a daily
 * followers order, whose drip-feed is asked for per day × runs (its `remains` is of that total).
 */
export function deliveryQuantityOfRow(
  order: { kind: ServiceKind; quantity: number },
  row: SubscriptionRow | undefined,
) {
  if (order.kind !== 'daily_followers' || !row) return order.quantity;
  return deliveryQuantityOf({ kind: row.kind, perUnit: row.per_unit, runs: row.runs });
}

export async function deliveryQuantityOfOrder(
  db: Db,
  order: { id: number; kind: ServiceKind; quantity: number },
): Promise<number> {
  if (order.kind !== 'daily_followers') return order.quantity;
  return deliveryQuantityOfRow(order, await subscriptionOf(db, order.id));
}

/**
 * What an automatic-likes order that ended gets back, in e4: the whole cents of the amount paid
 * times the share that was neither served nor ran out (`unservedShare`), less what was already
 * refunded. Nothing while it has not ended, nothing when its period ran out.
 */
export function automaticLikesRefundDueE4(
  order: { amount_e4: number; refunded_e4: number },
  row: SubscriptionRow | undefined,
): number {
  if (!row || row.ended_at === null || row.end_reason === null) return 0;
  const share = unservedShare(progressOfRow(row), new Date(row.ended_at), row.end_reason);
  const dueE4 = Math.floor(e4ToCents(order.amount_e4) * share) * 100;
  return Math.max(0, Math.min(dueE4, order.amount_e4) - order.refunded_e4);
}

/**
 * What a finished order is owed back by its kind's rule, in e4, less what was already refunded:
 * the undelivered share of what was paid (daily followers: of the whole drip-feed), or for
 * automatic likes the share neither served nor run out. `remains` is the order's undelivered
 * quantity as its status change reported it.
 */
export function refundOwedE4(
  order: { kind: ServiceKind; amount_e4: number; quantity: number; refunded_e4: number },
  row: SubscriptionRow | undefined,
  remains: number | null,
): number {
  if (order.kind === 'automatic_likes') return automaticLikesRefundDueE4(order, row);
  return refundDueE4({ ...order, quantity: deliveryQuantityOfRow(order, row) }, remains);
}

/** refundOwedE4, reading the order's subscription row when it has one. */
export async function refundOwedForOrderE4(
  db: Db,
  order: { id: number; kind: ServiceKind; amount_e4: number; quantity: number; refunded_e4: number },
  remains: number | null,
): Promise<number> {
  const row = order.kind === 'package' ? undefined : await subscriptionOf(db, order.id);
  return refundOwedE4(order, row, remains);
}
