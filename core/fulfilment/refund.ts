/**
 * A finished order's undelivered share goes back to the buyer (job `order.refund`, enqueued by
 * the fulfilment subscriber when an order turns Partial or Canceled). The provider call carries an
 * idempotency key, so a retry after a crash gets the first refund back; the order records it once
 * (core/orders/transitions/refund.ts), however often the job runs.
 */
import { PermanentJobError } from '../jobs/worker.ts';
import { e4ToCents } from '../money/money.ts';
import { refundDueE4 } from '../orders/progress.ts';
import { isFinalStatus } from '../orders/status.ts';
import { recordRefund } from '../orders/transitions/index.ts';
import type { FulfilmentDeps } from './deps.ts';
import { liveSupplierOrderOf } from './supplier-orders.ts';

export async function refundUndelivered(deps: FulfilmentDeps, orderId: number): Promise<'refunded' | 'skipped'> {
  const { db, provider } = deps;
  const order = await db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
  const existing = await db.selectFrom('refunds').select('id').where('order_id', '=', orderId).executeTakeFirst();
  if (existing || !isFinalStatus(order.order_status) || !order.payment_id) return 'skipped';
  // Never while anything may still be delivered.
  if ((await liveSupplierOrderOf(db, orderId)) || order.pending_action !== null) return 'skipped';
  const amountE4 = refundDueE4(order, order.remains);
  if (amountE4 <= 0) return 'skipped';
  if (amountE4 + order.refunded_e4 > order.amount_e4) throw new PermanentJobError('Refund larger than the payment');

  const { refundId } = await provider.refund({
    paymentId: order.payment_id,
    amountCents: e4ToCents(amountE4),
    idempotencyKey: `boostly-refund-${order.id}`,
    notes: { order: order.provider_order_id, reason: order.order_status },
  });
  await recordRefund(
    db,
    {
      orderId: order.id,
      providerRefundId: refundId,
      amountE4,
      reason: order.order_status,
      undelivered: order.remains,
    },
    deps.now().toISOString(),
  );
  return 'refunded';
}
