/**
 * What happened to an order, announced to whoever cares (the outbox). A state change publishes
 * its event by enqueuing an `order.event` job in the same transaction, so the event exists if and
 * only if the change was committed. The job runs every subscriber, in one transaction of its own;
 * each subscriber enqueues its own work under a dedupe key (`receipt:<order>`, `fulfil:<order>`,
 * `refund:<order>`, `status-mail:<order>:<status>`), so a retried event job adds nothing twice.
 *
 * Subscribers are registered at boot (server/store.ts), which keeps the order model free of
 * mail, fulfilment and refunds: payment announces "paid" and knows nothing about what follows.
 */
import type { Kysely, Transaction } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../db/schema.ts';
import { type EnqueueResult, defineJob, enqueueJob } from '../jobs/queue.ts';
import { type JobRegistration, handleJob } from '../jobs/worker.ts';
import { ORDER_STATUSES } from './status.ts';

export const OrderPaid = z.object({
  type: z.literal('order.paid'),
  orderId: z.number().int().positive(),
  paymentId: z.string().min(1),
});
export type OrderPaid = z.infer<typeof OrderPaid>;

export const OrderStatusChanged = z.object({
  type: z.literal('order.status_changed'),
  orderId: z.number().int().positive(),
  from: z.enum(ORDER_STATUSES),
  to: z.enum(ORDER_STATUSES),
  /** The order's undelivered quantity after the change (all of its supplier orders together). */
  remains: z.number().int().nonnegative().nullable(),
  /** The timeline entry that recorded the change. */
  timelineId: z.number().int().positive(),
});
export type OrderStatusChanged = z.infer<typeof OrderStatusChanged>;

/** Money went back to the buyer (any refund: automatic, the owner's, a second payment's). */
export const OrderRefunded = z.object({
  type: z.literal('order.refunded'),
  orderId: z.number().int().positive(),
  /** The refunds row. */
  refundId: z.number().int().positive(),
});
export type OrderRefunded = z.infer<typeof OrderRefunded>;

/**
 * A crypto refund needs the customer's wallet address: they are e-mailed a single-use link.
 * The link's token travels only in this event and the e-mail; the refund row keeps its hash.
 */
export const RefundAddressNeeded = z.object({
  type: z.literal('order.refund_address_needed'),
  orderId: z.number().int().positive(),
  refundId: z.number().int().positive(),
  token: z.string().min(20).max(100),
});
export type RefundAddressNeeded = z.infer<typeof RefundAddressNeeded>;

/** Money arrived for an expired order: it was not applied, and is to be refunded. */
export const OrderPaidAfterExpiry = z.object({
  type: z.literal('order.paid_after_expiry'),
  orderId: z.number().int().positive(),
  /** The order_payments row (role `extra`) that holds the payment. */
  orderPaymentId: z.number().int().positive(),
});
export type OrderPaidAfterExpiry = z.infer<typeof OrderPaidAfterExpiry>;

export const OrderEvent = z.discriminatedUnion('type', [
  OrderPaid,
  OrderPaidAfterExpiry,
  OrderStatusChanged,
  OrderRefunded,
  RefundAddressNeeded,
]);
export type OrderEvent = z.infer<typeof OrderEvent>;

/** The outbox job: one per event. */
export const ORDER_EVENT_JOB = defineJob({ kind: 'order.event', payload: OrderEvent });

/** One event, once: the paid transition happens once per order, a status change has its timeline entry. */
export function orderEventDedupeKey(event: OrderEvent): string {
  switch (event.type) {
    case 'order.paid':
      return `event:order.paid:${event.orderId}`;
    case 'order.status_changed':
      return `event:order.status_changed:${event.orderId}:${event.timelineId}`;
    case 'order.paid_after_expiry':
      return `event:order.paid_after_expiry:${event.orderPaymentId}`;
    case 'order.refunded':
    case 'order.refund_address_needed':
      return `event:${event.type}:${event.refundId}`;
  }
}

/** Publishes an event; call it with the transaction of the change it announces. */
export function publishOrderEvent(trx: Transaction<Database>, event: OrderEvent, now?: Date): Promise<EnqueueResult> {
  return enqueueJob(trx, ORDER_EVENT_JOB, event, { dedupeKey: orderEventDedupeKey(event), now });
}

/** Reacts to order events; each method enqueues its work in `trx` with a dedupe key. */
export interface OrderEventSubscriber {
  /** For logs and errors. */
  name: string;
  onPaid?(trx: Transaction<Database>, event: OrderPaid): Promise<void>;
  onStatusChanged?(trx: Transaction<Database>, event: OrderStatusChanged): Promise<void>;
  onRefunded?(trx: Transaction<Database>, event: OrderRefunded): Promise<void>;
  onRefundAddressNeeded?(trx: Transaction<Database>, event: RefundAddressNeeded): Promise<void>;
  onPaidAfterExpiry?(trx: Transaction<Database>, event: OrderPaidAfterExpiry): Promise<void>;
}

/**
 * The `order.event` handler: runs every subscriber in one transaction, so an event either
 * produced all of its follow-up jobs or (after a failure) none, and the retry starts clean.
 */
export function handleOrderEvents(db: Kysely<Database>, subscribers: readonly OrderEventSubscriber[]): JobRegistration {
  return handleJob(ORDER_EVENT_JOB, (event) =>
    db.transaction().execute(async (trx) => {
      for (const subscriber of subscribers) {
        if (event.type === 'order.paid') await subscriber.onPaid?.(trx, event);
        else if (event.type === 'order.status_changed') await subscriber.onStatusChanged?.(trx, event);
        else if (event.type === 'order.refunded') await subscriber.onRefunded?.(trx, event);
        else if (event.type === 'order.paid_after_expiry') await subscriber.onPaidAfterExpiry?.(trx, event);
        else await subscriber.onRefundAddressNeeded?.(trx, event);
      }
    }),
  );
}
