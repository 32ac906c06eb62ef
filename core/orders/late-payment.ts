/**
 * Money that arrives for an order after it expired (a payment window left open past the order's
 * lifetime, a crypto transfer confirmed late). The order's price is stale by then, so the payment
 * never pays it (core/orders/transitions/payment.ts keeps it as an extra payment); it goes back
 * through the provider that took it, by the same idempotent refund machinery as every other
 * refund (a crypto payment asks the customer for a wallet address by e-mail), and the buyer is
 * told so on the order's page.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../db/schema.ts';
import { defineJob, enqueueJob } from '../jobs/queue.ts';
import { type JobRegistration, PermanentJobError, handleJob } from '../jobs/worker.ts';
import type { OrderEventSubscriber } from './events.ts';
import { type RefundDeps, RefundRefused, requestRefund } from './refunds.ts';

export const LATE_PAYMENT_REFUND_JOB = defineJob({
  kind: 'payment.refund_after_expiry',
  payload: z.object({ orderId: z.number().int().positive(), orderPaymentId: z.number().int().positive() }),
});

/** What the refund of a payment for an expired order is called, for the owner's timeline. */
export const LATE_PAYMENT_REFUND_REASON = 'Paid after the order expired: refunded automatically';

/** One refund per late payment, however often the event, the job or a racing instance asks. */
export function latePaymentRefundKey(orderPaymentId: number): string {
  return `after-expiry:${orderPaymentId}`;
}

export const latePaymentSubscriber: OrderEventSubscriber = {
  name: 'late-payment',
  async onPaidAfterExpiry(trx, event) {
    await enqueueJob(
      trx,
      LATE_PAYMENT_REFUND_JOB,
      { orderId: event.orderId, orderPaymentId: event.orderPaymentId },
      { dedupeKey: latePaymentRefundKey(event.orderPaymentId) },
    );
  },
};

/** Refunds the whole late payment; a provider that is down leaves the job to retry with the same key. */
export function handleLatePaymentRefund(deps: RefundDeps): JobRegistration {
  return handleJob(LATE_PAYMENT_REFUND_JOB, async ({ orderId, orderPaymentId }) => {
    const payment = await deps.db
      .selectFrom('order_payments')
      .select(['amount_e4'])
      .where('id', '=', orderPaymentId)
      .where('order_id', '=', orderId)
      .executeTakeFirst();
    if (!payment) throw new PermanentJobError('The late payment is gone');
    try {
      const result = await requestRefund(deps, {
        orderId,
        orderPaymentId,
        amountE4: payment.amount_e4,
        reason: LATE_PAYMENT_REFUND_REASON,
        origin: 'extra',
        idempotencyKey: latePaymentRefundKey(orderPaymentId),
        requestedBy: null,
      });
      if (result.status === 'pending') throw new Error(result.failure ?? 'The refund is still pending at the provider');
    } catch (error) {
      if (error instanceof RefundRefused) throw new PermanentJobError(error.message);
      throw error;
    }
  });
}

export type LatePaymentRefund = 'refunding' | 'awaiting_address' | 'refunded';

export const LATE_PAYMENT_MESSAGES: Readonly<Record<LatePaymentRefund, string>> = {
  refunding: 'This order expired before the payment arrived; your payment is being refunded.',
  awaiting_address:
    'This order expired before the payment arrived; we have e-mailed you a link to give the wallet address for its refund.',
  refunded: 'This order expired before the payment arrived; your payment was refunded.',
};

/**
 * What the buyer of an expired order is told about money that still arrived for it, or undefined
 * when none did. Refunded once every late payment's refund is done.
 */
export async function latePaymentView(
  db: Kysely<Database>,
  order: { id: number; payment_status: string },
): Promise<{ refund: LatePaymentRefund; message: string } | undefined> {
  if (order.payment_status !== 'expired') return undefined;
  const payments = await db
    .selectFrom('order_payments')
    .leftJoin('refunds', 'refunds.order_payment_id', 'order_payments.id')
    .select(['order_payments.id', 'refunds.status'])
    .where('order_payments.order_id', '=', order.id)
    .where('order_payments.role', '=', 'extra')
    .execute();
  if (payments.length === 0) return undefined;
  const refund: LatePaymentRefund = payments.some((p) => p.status === 'awaiting_address')
    ? 'awaiting_address'
    : payments.every((p) => p.status === 'done')
      ? 'refunded'
      : 'refunding';
  return { refund, message: LATE_PAYMENT_MESSAGES[refund] };
}
