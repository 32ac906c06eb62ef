/**
 * What the customer reads about a subscription order (decision 057), on the confirmation page and
 * in /client: what its period covers with the real end date, where it stands, why it ended, and
 * what cancelling it now would refund. Read from its subscriptions row, which the status sync
 * keeps as the panel reports; the words are made here so the pages only show them.
 */
import type { Kysely, Selectable } from 'kysely';
import type { Database, SubscriptionsTable } from '../../db/schema.ts';
import { e4ToNumber, formatMoney } from '../money/money.ts';
import {
  type SubscriptionProgress,
  coverageText,
  deliveryQuantityOf,
  progressText,
  unservedShare,
} from '../subscriptions/terms.ts';
import type { OrderSubscription } from './contracts.ts';
import { progressOfRow } from './subscription-delivery.ts';
import { type FulfilmentState, type OrderStatus, type PaymentStatus, isFinalStatus } from './status.ts';

export type SubscriptionRow = Selectable<SubscriptionsTable>;

/** The order's columns the view reads (an orders row has them all). */
export interface SubscriptionOrderFacts {
  payment_status: PaymentStatus;
  order_status: OrderStatus;
  fulfilment_state: FulfilmentState;
  amount_e4: number;
  refunded_e4: number;
  /** Daily followers: what the drip-feed has not delivered, as the panel last said. */
  remains: number | null;
  currency: string;
}

export const SUBSCRIPTION_VIEW_TEXT = {
  queued: 'Waiting for your current order on this account to finish',
  unpaid: 'Starts once your payment is confirmed',
  finished: 'Ended',
} as const;

/** The subscriptions rows of these orders, by order id (one query; at most a page of ids). */
export async function loadSubscriptionRows(
  db: Kysely<Database>,
  orderIds: readonly number[],
): Promise<Map<number, SubscriptionRow>> {
  if (orderIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('subscriptions')
    .selectAll()
    .where('order_id', 'in', [...orderIds])
    .execute();
  return new Map(rows.map((row) => [row.order_id, row]));
}

/**
 * What cancelling now would give back, in e4, by the recorded rule: automatic likes the unserved
 * share of what was paid (`unservedShare`); daily followers what the drip-feed has not delivered
 * (the panel's remains, or the runs not done while it has not said); all of it before it started.
 */
export function cancelRefundE4(order: SubscriptionOrderFacts, progress: SubscriptionProgress, now: Date): number {
  const paid = Math.max(0, order.amount_e4 - order.refunded_e4);
  if (progress.startsAt === null) return paid;
  if (progress.kind === 'automatic_likes') return Math.floor(paid * unservedShare(progress, now, 'customer'));
  const total = deliveryQuantityOf(progress);
  if (total <= 0) return 0;
  const runs = progress.runs ?? progress.periodDays;
  const remains = order.remains ?? total - Math.min(runs, progress.runsDone ?? 0) * progress.perUnit;
  return Math.floor((paid * Math.min(total, Math.max(0, remains))) / total);
}

/** The view of one subscription order; `token` is /client's proof for its buttons (null elsewhere). */
export function subscriptionViewOf(
  order: SubscriptionOrderFacts,
  row: SubscriptionRow,
  now: Date,
  token: string | null,
): OrderSubscription {
  const progress = progressOfRow(row);
  const paid = order.payment_status === 'paid';
  const ended = row.ended_at !== null || isFinalStatus(order.order_status);
  const queued = paid && !ended && order.fulfilment_state === 'queued';
  const live = paid && !ended;
  const text =
    row.ended_at !== null
      ? progressText(progress, now)
      : ended
        ? SUBSCRIPTION_VIEW_TEXT.finished
        : !paid
          ? SUBSCRIPTION_VIEW_TEXT.unpaid
          : queued
            ? SUBSCRIPTION_VIEW_TEXT.queued
            : progressText(progress, now);
  // Cancelling asks the panel to stop, so only what the panel runs can be cancelled.
  const running = live && !queued && row.starts_at !== null;
  const refund = running ? cancelRefundE4(order, progress, now) : 0;
  return {
    coverage: coverageText(progress, row.ends_at),
    progress: text,
    running,
    queued,
    reminders: row.reminders === 1,
    canCancel: running,
    cancelRefund: running
      ? refund > 0
        ? `We will refund ${formatMoney(e4ToNumber(refund), order.currency)}: the part not yet served.`
        : 'Nothing is left to refund: what you paid for has been served.'
      : null,
    token: live ? token : null,
  };
}
