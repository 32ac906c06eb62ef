/**
 * Fulfilment's part in the order events: a paid order is sent to the supplier, and a finished
 * one (Partial, Canceled: every supplier order final, nothing pending) gets its undelivered share
 * refunded. Both are jobs under a per-order dedupe key, so a retried event adds nothing twice.
 * A finished order also frees its link: the next order queued on it is sent (./lanes.ts).
 */
import type { OrderEventSubscriber } from '../orders/events.ts';
import { isFinalStatus } from '../orders/status.ts';
import { refundOwedForOrderE4 } from '../orders/subscription-delivery.ts';
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
    // By the kind's rule: automatic likes by the time they had left, not by a remains count.
    const dueE4 = await refundOwedForOrderE4(trx, order, event.remains);
    if (dueE4 > 0) await enqueueRefund(trx, event.orderId);
  },
};
