/**
 * A payment's outcome reaching the order: the checkout callback (signature checked against our
 * own record), a failed attempt in the payment window, and the provider's webhooks (deduplicated
 * by event id in the same transaction as their effect). Every change goes through the payment
 * transitions, so these can race, retry and replay.
 */
import { type OrderServiceDeps, findOrderByProviderId } from './order-deps.ts';
import { e4ToCents } from '../money/money.ts';
import { OrderError, PAYMENT_MESSAGES } from './order-error.ts';
import { markPaid, markPaymentFailed } from './transitions/index.ts';
import { publicOrderId } from './types.ts';

/** The checkout handler's result: the signature is checked against our own record. */
export async function verifyCheckoutPayment(
  deps: OrderServiceDeps,
  input: { razorpay_order_id: string; razorpay_payment_id: string; razorpay_signature: string },
) {
  const order = await findOrderByProviderId(deps, input.razorpay_order_id);
  if (!order) throw new OrderError(PAYMENT_MESSAGES.orderNotFound, 404);
  if (
    !deps.provider.isValidPaymentSignature(order.provider_order_id, input.razorpay_payment_id, input.razorpay_signature)
  ) {
    throw new OrderError(PAYMENT_MESSAGES.invalidSignature, 400);
  }
  const result = await deps.db
    .transaction()
    .execute((trx) =>
      markPaid(
        trx,
        { providerOrderId: order.provider_order_id, paymentId: input.razorpay_payment_id, source: 'checkout' },
        { now: deps.now },
      ),
    );
  if (result.outcome === 'rejected') throw new OrderError(result.reason, 400);
  return { orderId: publicOrderId(order.provider_order_id) };
}

/** The payment window reported a failed attempt. */
export async function recordCheckoutFailure(
  deps: OrderServiceDeps,
  input: {
    razorpay_order_id: string;
    reason?: string | undefined;
    razorpay_payment_id?: string | undefined;
  },
) {
  const order = await findOrderByProviderId(deps, input.razorpay_order_id);
  if (!order) throw new OrderError(PAYMENT_MESSAGES.orderNotFound, 404);
  await deps.db.transaction().execute((trx) =>
    markPaymentFailed(
      trx,
      {
        providerOrderId: order.provider_order_id,
        paymentId: input.razorpay_payment_id,
        reason: input.reason?.slice(0, 300) || 'Payment failed',
        source: 'checkout',
      },
      deps.now(),
    ),
  );
  return { orderId: publicOrderId(order.provider_order_id) };
}

/** An order, for the sandbox window (amount and currency come from our record). */
export async function payableOrder(deps: OrderServiceDeps, providerOrderId: string) {
  const order = await findOrderByProviderId(deps, providerOrderId);
  if (!order || order.provider !== deps.provider.name) throw new OrderError(PAYMENT_MESSAGES.orderNotFound, 404);
  return {
    providerOrderId: order.provider_order_id,
    amountCents: e4ToCents(order.amount_e4),
    currency: order.currency,
    paymentStatus: order.payment_status,
  };
}

/**
 * A provider webhook, already authenticated. Deduplicated by event id in the same transaction
 * as its effect, so a crash cannot drop an event that was recorded as seen.
 */
export async function handleWebhookEvent(
  deps: OrderServiceDeps,
  eventId: string,
  event: RazorpayWebhookEvent,
): Promise<{ duplicate: boolean; result: string }> {
  return deps.db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('webhook_events')
      .values({ provider: deps.provider.name, event_id: eventId, received_at: deps.now().toISOString() })
      .onConflict((oc) => oc.columns(['provider', 'event_id']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return { duplicate: true, result: 'duplicate' };

    const payment = event.payload?.payment?.entity;
    if ((event.event === 'payment.captured' || event.event === 'order.paid') && payment?.order_id) {
      if (event.event === 'payment.captured' && payment.status && payment.status !== 'captured') {
        return { duplicate: false, result: 'ignored' };
      }
      const result = await markPaid(
        trx,
        {
          providerOrderId: payment.order_id,
          paymentId: payment.id,
          amountCents: payment.amount,
          currency: payment.currency,
          source: 'webhook',
        },
        { now: deps.now },
      );
      if (result.outcome === 'rejected') throw new WebhookRejected(result.reason);
      return { duplicate: false, result: result.outcome };
    }
    if (event.event === 'payment.failed' && payment?.order_id) {
      await markPaymentFailed(
        trx,
        {
          providerOrderId: payment.order_id,
          paymentId: payment.id,
          reason: payment.error_description ?? 'Payment failed',
          source: 'webhook',
        },
        deps.now(),
      );
      return { duplicate: false, result: 'failed' };
    }
    return { duplicate: false, result: 'ignored' };
  });
}

export class WebhookRejected extends Error {}

export interface RazorpayWebhookEvent {
  event: string;
  payload?: {
    payment?: {
      entity?: {
        id: string;
        order_id?: string;
        amount?: number;
        currency?: string;
        status?: string;
        error_description?: string;
      };
    };
    order?: { entity?: { id: string; amount_paid?: number; currency?: string } };
  };
}
