/**
 * Fulfilment's part in the order events: a paid order is sent to the supplier, and a finished
 * one (Partial, Canceled: every supplier order final, nothing pending) gets its undelivered share
 * refunded. Both are jobs under a per-order dedupe key, so a retried event adds nothing twice.
 */
import type { OrderEventSubscriber } from '../orders/events.ts';
import { refundDueE4 } from '../orders/progress.ts';
import { isFinalStatus } from '../orders/status.ts';
import { enqueueFulfilment, enqueueRefund } from './jobs.ts';

export const fulfilmentSubscriber: OrderEventSubscriber = {
  name: 'fulfilment',

  async onPaid(trx, event) {
    await enqueueFulfilment(trx, event.orderId);
  },

  async onStatusChanged(trx, event) {
    if (!isFinalStatus(event.to)) return;
    const order = await trx
      .selectFrom('orders')
      .select(['amount_e4', 'quantity', 'refunded_e4', 'payment_id'])
      .where('id', '=', event.orderId)
      .executeTakeFirstOrThrow();
    if (order.payment_id && refundDueE4(order, event.remains) > 0) await enqueueRefund(trx, event.orderId);
  },
};
