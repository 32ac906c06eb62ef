/**
 * A subscription's status reply, in the store's words (decision 057). The shape of a
 * subscription's `status` is not standardised, so the store keeps what the panel said (its word,
 * posts served, runs done) and decides the order's status with two rules of its own: automatic
 * likes past their period's end are finished even if the panel never says so, and automatic
 * likes or daily followers the panel ended early are Partial when something was served (Canceled
 * when nothing was).
 * Pure: sync.ts applies it.
 */
import type { SubscriptionEndReason } from '../../db/column-values.ts';
import { type OrderStatus, isFinalStatus } from '../orders/status.ts';
import type { SubscriptionRow } from '../orders/subscription-delivery.ts';
import type { SupplierOrderStatus } from './supplier.ts';

export interface SubscriptionReading {
  status: OrderStatus;
  remains: number | null;
  report: { postsServed: number | null; runsDone: number | null; panelStatus: string | null };
  /** Set when `status` is final: why it ended (unless someone asked for the end). */
  endReason: SubscriptionEndReason | null;
}

export function readSubscriptionStatus(
  subscription: SubscriptionRow,
  status: OrderStatus,
  result: SupplierOrderStatus,
  supplierQuantity: number,
  now: Date,
): SubscriptionReading {
  const pastEnd = subscription.ends_at !== null && new Date(subscription.ends_at).getTime() <= now.getTime();
  let to = status;
  let remains = result.remains;
  let runsDone: number | null = null;
  if (subscription.kind === 'automatic_likes') {
    if (!isFinalStatus(to) && pastEnd) to = 'Completed';
    const served = result.posts ?? subscription.posts_served ?? 0;
    if (to === 'Canceled' || to === 'Partial') to = served > 0 ? 'Partial' : 'Canceled';
    // Likes on posts have no fixed total: a finished period owes nothing back by remains.
    if (to === 'Completed') remains = 0;
  } else {
    const delivered =
      status === 'Completed'
        ? supplierQuantity
        : remains === null
          ? null
          : supplierQuantity - Math.min(Math.max(remains, 0), supplierQuantity);
    runsDone = result.runs ?? (delivered === null ? null : Math.floor(delivered / subscription.per_unit));
    // A feed stopped after some days delivered part of it, whatever word the panel uses.
    if (to === 'Canceled' && delivered !== null && delivered > 0) to = 'Partial';
  }
  const endReason: SubscriptionEndReason | null = !isFinalStatus(to)
    ? null
    : to === 'Completed' || (subscription.kind === 'automatic_likes' && pastEnd)
      ? 'expired'
      : 'panel';
  return {
    status: to,
    remains,
    report: {
      postsServed: subscription.kind === 'automatic_likes' ? result.posts : null,
      runsDone,
      panelStatus: result.rawStatus || null,
    },
    endReason,
  };
}
