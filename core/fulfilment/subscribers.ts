/**
 * Fulfilment's part in the order events: a paid order is sent to the supplier, and a finished
 * one (Partial, Canceled: every supplier order final, nothing pending) gets its undelivered share
 * refunded. Both are jobs under a per-order dedupe key, so a retried event adds nothing twice.
 * A finished order also frees its link: the next order queued on it is sent (./lanes.ts).
 */
import type { OrderEventSubscriber } from '../orders/events.ts';
import { refundDueE4 } from '../orders/progress.ts';
import { isFinalStatus } from '../orders/status.ts';
import { automaticLikesRefundDueE4, deliveryQuantityOfRow, subscriptionOf } from '../subscriptions/delivery.ts';
import { enqueueFulfilment, enqueueRefund } from './jobs.ts';
import { releaseLane } from './lanes.ts';

export const fulfilmentSubscriber: OrderEventSubscriber = {
  name: 'fulfilment',

  async onPaid(trx, event) {
    await enqueueFulfilment(trx, event.orderId);
  },

  async onStatusChanged(trx, event) {
    if (!isFinalStatus(event.to)) return;
    await releaseLane(trx, event.orderId);
    const order = await trx
      .selectFrom('orders')
      .select(['id', 'kind', 'amount_e4', 'quantity', 'refunded_e4', 'payment_id'])
      .where('id', '=', event.orderId)
      .executeTakeFirstOrThrow();
    if (!order.payment_id) return;
    const subscription = order.kind === 'package' ? undefined : await subscriptionOf(trx, order.id);
    // Automatic likes are owed by the time they had left, not by a remains count (decision 057).
    const dueE4 =
      order.kind === 'automatic_likes'
        ? automaticLikesRefundDueE4(order, subscription)
        : refundDueE4({ ...order, quantity: deliveryQuantityOfRow(order, subscription) }, event.remains);
    if (dueE4 > 0) await enqueueRefund(trx, event.orderId);
  },
};
