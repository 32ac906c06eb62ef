/**
 * A finished order's undelivered share goes back to the buyer (job `order.refund`, enqueued by
 * the fulfilment subscriber when an order turns Partial or Canceled), through the refunds of
 * core/orders under the key `remains:<order>`: however often the job runs, one refund.
 *
 * Subscriptions (decision 057): automatic likes that ended early get back the share of the
 * payment neither served nor run out (`unservedShare`), nothing when the period ran out; daily
 * followers the undelivered share of the whole drip-feed.
 *
 * A provider that refunds only whole payments to an address the customer gives (crypto) can
 * return a Canceled order's payment, not a Partial order's share: that order is flagged for the
 * owner to settle with the customer (decision 055).
 */
import { PermanentJobError } from '../jobs/worker.ts';
import { RefundRefused, requestRefund } from '../orders/refunds.ts';
import { isFinalStatus } from '../orders/status.ts';
import { flagRefundForOwner } from '../orders/transitions/index.ts';
import { formatAmountE4 } from '../money/money.ts';
import { refundOwedE4, subscriptionOf } from '../orders/subscription-delivery.ts';
import { END_REASON_TEXT } from '../subscriptions/terms.ts';
import type { FulfilmentDeps } from './deps.ts';
import { liveSupplierOrderOf } from './supplier-orders.ts';

export const REMAINS_REFUND_KEY = (orderId: number) => `remains:${orderId}`;

export async function refundUndelivered(
  deps: FulfilmentDeps,
  orderId: number,
): Promise<'refunded' | 'skipped' | 'awaiting-address' | 'flagged'> {
  const { db, gateways } = deps;
  const order = await db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
  const key = REMAINS_REFUND_KEY(order.id);
  const earlier = await db.selectFrom('refunds').select('status').where('idempotency_key', '=', key).executeTakeFirst();
  // A refund left pending (the provider could not be reached) is asked again with its key.
  if ((earlier && earlier.status !== 'pending') || !isFinalStatus(order.order_status) || !order.payment_id)
    return 'skipped';
  // Never while anything may still be delivered.
  if ((await liveSupplierOrderOf(db, orderId)) || order.pending_action !== null) return 'skipped';
  const subscription = order.kind === 'package' ? undefined : await subscriptionOf(db, order.id);
  // Automatic likes: the share neither served nor run out; daily followers: what the drip-feed
  // did not deliver, of the whole feed (decision 057).
  const amountE4 = refundOwedE4(order, subscription, order.remains);
  if (amountE4 <= 0) return 'skipped';
  const reason =
    order.kind === 'automatic_likes' && subscription?.end_reason
      ? `Subscription ended early: ${END_REASON_TEXT[subscription.end_reason].toLowerCase()}`
      : order.order_status;

  if (
    gateways.provider(order.provider)?.refunds === 'whole-to-address' &&
    amountE4 + order.refunded_e4 < order.amount_e4
  ) {
    await flagRefundForOwner(
      db,
      order.id,
      `${order.kind === 'automatic_likes' ? 'Ended early' : 'Partly delivered'}: ${formatAmountE4(amountE4, 2)} is owed back, but crypto payments are refunded whole; settle it with the customer`,
      deps.now().toISOString(),
    );
    return 'flagged';
  }
  try {
    const result = await requestRefund(deps, {
      orderId: order.id,
      amountE4,
      reason,
      origin: 'remains',
      idempotencyKey: key,
      requestedBy: null,
    });
    if (result.status === 'failed') throw new PermanentJobError(`The refund was refused: ${result.failure}`);
    if (result.status === 'pending')
      throw new Error('The payment provider could not be reached; the refund is retried');
    return result.status === 'awaiting_address' ? 'awaiting-address' : 'refunded';
  } catch (error) {
    if (!(error instanceof RefundRefused)) throw error;
    // The provider cannot take this refund as it stands (say, an equal amount was refunded by
    // hand before): the owner settles it, told why.
    await flagRefundForOwner(
      db,
      order.id,
      `The automatic refund of ${formatAmountE4(amountE4, 2)} could not be made: ${error.message}`,
      deps.now().toISOString(),
    );
    return 'flagged';
  }
}
