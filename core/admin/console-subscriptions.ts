/**
 * What the console shows of subscriptions and queued orders: each subscription's period in words
 * (coverage, progress, end) for the rows, its whole story for the detail (dates, the supplier's
 * word, why it ended, what a cancel would refund by the recorded rule, the renewal links), and the
 * order a queued one waits for. Read in one query per page, never per row.
 */
import type { Kysely, Selectable } from 'kysely';
import type { Database, SubscriptionsTable } from '../../db/schema.ts';
import { e4ToCents, formatMoney } from '../money/money.ts';
import { type OrderStatus, isFinalStatus } from '../orders/status.ts';
import { progressOfRow } from '../orders/subscription-delivery.ts';
import { publicOrderId } from '../orders/types.ts';
import {
  END_REASON_TEXT,
  type SubscriptionProgress,
  coverageText,
  deliveryQuantityOf,
  isSubscriptionKind,
  progressText,
  unservedShare,
} from '../subscriptions/terms.ts';
import type { ConsoleRow, SubscriptionDetail } from './contracts.ts';

export type SubscriptionRow = Selectable<SubscriptionsTable>;

/** The row in the words of core/subscriptions/terms.ts; null for a kind this code does not know. */
export function progressOf(row: SubscriptionRow): SubscriptionProgress | null {
  return isSubscriptionKind(row.kind) ? progressOfRow(row) : null;
}

export function rowSubscription(row: SubscriptionRow, now: Date): ConsoleRow['subscription'] {
  const progress = progressOf(row);
  if (!progress) return null;
  return {
    coverage: coverageText(progress, row.ends_at),
    progress: progressText(progress, now),
    endsAt: row.ends_at,
    running: row.ended_at === null,
  };
}

/** The subscriptions rows of these orders, by order id. */
export async function subscriptionsOf(db: Kysely<Database>, orderIds: number[]): Promise<Map<number, SubscriptionRow>> {
  if (orderIds.length === 0) return new Map();
  const rows = await db.selectFrom('subscriptions').selectAll().where('order_id', 'in', orderIds).execute();
  return new Map(rows.map((row) => [Number(row.order_id), row]));
}

/** The public id of the order holding each of these lanes at the supplier. */
export async function laneHolders(db: Kysely<Database>, laneKeys: string[]): Promise<Map<string, string>> {
  if (laneKeys.length === 0) return new Map();
  const rows = await db
    .selectFrom('supplier_lanes as l')
    .innerJoin('orders as o', 'o.id', 'l.order_id')
    .select(['l.lane_key', 'o.provider_order_id'])
    .where('l.lane_key', 'in', [...new Set(laneKeys)])
    .execute();
  return new Map(rows.map((row) => [row.lane_key, publicOrderId(row.provider_order_id)]));
}

const numberFormat = new Intl.NumberFormat('en-US');

/**
 * What cancelling now gives back, by decision 057's rule: automatic likes the unserved share of
 * the payment (the smaller of the posts left and the time left), daily followers the followers
 * not delivered (the usual remains refund), and anything that never reached the supplier all of it.
 */
function refundRuleText(
  row: SubscriptionRow,
  progress: SubscriptionProgress,
  order: { amount_e4: number; refunded_e4: number; currency: string; remains: number | null },
  now: Date,
): string {
  if (row.ended_at !== null) return 'It has ended: nothing more to cancel.';
  const money = (cents: number) => formatMoney(cents / 100, order.currency);
  const paidCents = e4ToCents(order.amount_e4);
  if (row.starts_at === null)
    return `It has not reached the supplier yet: cancelling refunds all of it (${money(paidCents)}).`;
  if (progress.kind === 'automatic_likes') {
    const share = unservedShare(progress, now, 'owner');
    const cents = Math.max(0, Math.min(Math.floor(paidCents * share), paidCents - e4ToCents(order.refunded_e4)));
    return `Cancelling refunds the share not served: the smaller of the posts left (${numberFormat.format(
      Math.max(0, (progress.posts ?? 0) - (progress.postsServed ?? 0)),
    )} of ${numberFormat.format(progress.posts ?? 0)}) and the time left, about ${money(cents)} now.`;
  }
  const total = deliveryQuantityOf(progress);
  const delivered = Math.min(total, (progress.runsDone ?? 0) * progress.perUnit);
  return `Cancelling refunds the followers not delivered, as the supplier counts them when it stops (${numberFormat.format(
    total - delivered,
  )} of ${numberFormat.format(total)} left by the last count).`;
}

export async function subscriptionDetail(
  db: Kysely<Database>,
  order: {
    id: number;
    amount_e4: number;
    refunded_e4: number;
    currency: string;
    remains: number | null;
    order_status: OrderStatus;
  },
  now: Date,
): Promise<SubscriptionDetail | null> {
  const row = (await subscriptionsOf(db, [order.id])).get(order.id);
  const progress = row ? progressOf(row) : null;
  if (!row || !progress) return null;
  const linked = [row.renewal_of_order_id, row.renewed_by_order_id].filter((id): id is number => id !== null);
  const ids = linked.length
    ? await db.selectFrom('orders').select(['id', 'provider_order_id']).where('id', 'in', linked).execute()
    : [];
  const publicIdOf = (id: number | null) => {
    const found = ids.find((o) => Number(o.id) === id);
    return found ? publicOrderId(found.provider_order_id) : null;
  };
  return {
    coverage: coverageText(progress, row.ends_at),
    progress: progressText(progress, now),
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    panelStatus: row.panel_status,
    endedAt: row.ended_at,
    endReason: row.end_reason ? END_REASON_TEXT[row.end_reason] : null,
    // Cancelling asks the panel, so only a subscription the panel is running can be cancelled;
    // one not sent yet (queued behind another order) is refunded from the payments panel instead.
    running: row.ended_at === null && row.starts_at !== null && !isFinalStatus(order.order_status),
    refundRule: refundRuleText(row, progress, order, now),
    reminders: row.reminders === 1,
    reminderSentAt: row.reminder_sent_at,
    renews: publicIdOf(row.renewal_of_order_id),
    renewedBy: publicIdOf(row.renewed_by_order_id),
  };
}
