/**
 * A payment's outcome reaching the order, whoever brings it: the in-page window's signed result
 * (checked against our own record), a failed attempt in that window, a provider's webhook
 * (deduplicated by its event id in the same transaction as its effect) and the reconciler. Each
 * provider's adapter has already turned its vendor's words into a neutral PaymentOutcome; every
 * change goes through the payment transitions, so these can race, retry and replay.
 */
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { e4ToCents } from '../money/money.ts';
import type { PaymentOutcome, PaymentProvider } from '../payments/provider.ts';
import { type OrderServiceDeps, countPaymentOutcome, findOrderByReference } from './order-deps.ts';
import { OrderError, PAYMENT_MESSAGES } from './order-error.ts';
import {
  type PaymentSource,
  flagPaymentMismatch,
  markPaid,
  markPaymentFailed,
  recordDispute,
  recordUnderpayment,
} from './transitions/index.ts';
import { publicOrderId } from './types.ts';

/**
 * The attempt an in-page window result names: the provider's reference (what the window got),
 * or, from a client that sends the order's own reference, that order's current attempt.
 */
async function windowAttempt(deps: OrderServiceDeps, reference: string) {
  const attempts = deps.db
    .selectFrom('payment_attempts')
    .innerJoin('orders', 'orders.id', 'payment_attempts.order_id')
    .select([
      'payment_attempts.provider',
      'payment_attempts.reference',
      'payment_attempts.amount_e4',
      'orders.provider_order_id',
      'orders.currency',
      'orders.payment_status',
    ]);
  const byReference = await attempts
    .where('payment_attempts.reference', '=', reference)
    .where('payment_attempts.provider', 'in', ['sandbox', 'razorpay'])
    .executeTakeFirst();
  if (byReference) return byReference;
  const order = await findOrderByReference(deps, reference);
  if (!order) return undefined;
  return attempts
    .where('payment_attempts.order_id', '=', order.id)
    .where('payment_attempts.method', '=', order.payment_method)
    .executeTakeFirst();
}

/** The window's signed result: the signature is checked against our own record, then the order is paid. */
export async function verifyCheckoutPayment(
  deps: OrderServiceDeps,
  input: { razorpay_order_id: string; razorpay_payment_id: string; razorpay_signature: string },
) {
  const attempt = await windowAttempt(deps, input.razorpay_order_id);
  const provider = attempt && deps.gateways.provider(attempt.provider);
  if (!attempt || !provider) throw new OrderError(PAYMENT_MESSAGES.orderNotFound, 404);
  if (!provider.isValidWindowResult(attempt.reference, input.razorpay_payment_id, input.razorpay_signature)) {
    throw new OrderError(PAYMENT_MESSAGES.invalidSignature, 400);
  }
  const result = await deps.db.transaction().execute((trx) =>
    markPaid(
      trx,
      {
        provider: provider.id,
        reference: attempt.reference,
        paymentId: input.razorpay_payment_id,
        source: 'checkout',
      },
      { now: deps.now },
    ),
  );
  countPaymentOutcome(deps, provider.id, result.outcome);
  if (result.outcome === 'rejected') throw new OrderError(result.reason, 400);
  return { orderId: publicOrderId(attempt.provider_order_id) };
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
  const attempt = await windowAttempt(deps, input.razorpay_order_id);
  if (!attempt) throw new OrderError(PAYMENT_MESSAGES.orderNotFound, 404);
  await deps.db.transaction().execute((trx) =>
    markPaymentFailed(
      trx,
      {
        provider: attempt.provider,
        reference: attempt.reference,
        paymentId: input.razorpay_payment_id,
        reason: input.reason?.slice(0, 300) || 'Payment failed',
        source: 'checkout',
      },
      deps.now(),
    ),
  );
  countPaymentOutcome(deps, attempt.provider, 'failed');
  return { orderId: publicOrderId(attempt.provider_order_id) };
}

/** A sandbox attempt, for the sandbox window (amount and currency come from our record). */
export async function payableOrder(deps: OrderServiceDeps, reference: string) {
  const attempt = await windowAttempt(deps, reference);
  if (!attempt || attempt.provider !== 'sandbox' || !deps.gateways.provider('sandbox'))
    throw new OrderError(PAYMENT_MESSAGES.orderNotFound, 404);
  return {
    providerOrderId: attempt.reference,
    amountCents: e4ToCents(attempt.amount_e4),
    currency: attempt.currency,
    paymentStatus: attempt.payment_status,
  };
}

/** What one outcome did to its order, in a word (the webhook's reply, the reconciler's counts). */
export type AppliedOutcome =
  'paid' | 'already-paid' | 'after-expiry' | 'flagged' | 'failed' | 'underpaid' | 'disputed' | 'ignored';

/**
 * Applies one neutral outcome inside the caller's transaction. A capture for an attempt we do
 * not know throws WebhookRejected when `strict` (a webhook: the provider retries, and the order
 * may not be committed yet), else is ignored.
 */
export async function applyPaymentOutcome(
  trx: Transaction<Database>,
  deps: Pick<OrderServiceDeps, 'now'>,
  provider: Pick<PaymentProvider, 'id'>,
  outcome: PaymentOutcome,
  source: PaymentSource,
  strict: boolean,
  /** Told why, when this call flagged a captured payment that disagrees with its order. */
  onFlagged?: (reason: string) => void,
): Promise<AppliedOutcome> {
  const now = deps.now();
  switch (outcome.kind) {
    case 'captured': {
      const result = await markPaid(
        trx,
        {
          provider: provider.id,
          reference: outcome.reference,
          paymentId: outcome.paymentId,
          amountCents: outcome.amountCents,
          currency: outcome.currency,
          source,
        },
        { now: deps.now },
      );
      if (result.outcome !== 'rejected') return result.outcome;
      // A webhook that disagrees with the order is refused (the provider retries; a mistake
      // on either side shows), the reconciler flags the payment for the owner.
      if (result.mismatch && !strict) {
        const flagged = await flagPaymentMismatch(
          trx,
          { orderId: result.mismatch.orderId, paymentId: outcome.paymentId, reason: result.reason, source },
          now,
        );
        if (!flagged) return 'ignored';
        onFlagged?.(result.reason);
        return 'flagged';
      }
      if (strict) throw new WebhookRejected(result.reason);
      return 'ignored';
    }
    case 'failed':
      await markPaymentFailed(
        trx,
        {
          provider: provider.id,
          reference: outcome.reference,
          paymentId: outcome.paymentId,
          reason: outcome.reason.slice(0, 300),
          source,
        },
        now,
      );
      return 'failed';
    case 'underpaid':
      await recordUnderpayment(trx, { provider: provider.id, ...outcome, source }, now);
      return 'underpaid';
    case 'disputed':
      await recordDispute(trx, { provider: provider.id, ...outcome }, now);
      return 'disputed';
    // A refund notice repeats what our own refund recorded (refunds.ts); a pending payment and
    // another product's notification change nothing.
    case 'refunded':
    case 'pending':
    case 'not_ours':
      return 'ignored';
  }
}

/**
 * A provider's webhook: verified and read by its adapter, deduplicated by the provider's event
 * id in the same transaction as its effect, so a crash cannot drop an event recorded as seen.
 */
export async function handleWebhook(
  deps: OrderServiceDeps,
  providerId: string,
  rawBody: Buffer,
  headers: Readonly<Record<string, string | string[] | undefined>>,
): Promise<{ duplicate: boolean; result: AppliedOutcome | 'duplicate' }> {
  const provider = deps.gateways.provider(providerId);
  if (!provider || !provider.acceptsWebhooks) throw new WebhookRejected('Invalid webhook signature');
  const reading = provider.readWebhook(rawBody, headers);
  if (!reading.ok) throw new WebhookRejected(reading.reason);
  const applied = await deps.db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('webhook_events')
      .values({ provider: provider.id, event_id: reading.eventId.slice(0, 200), received_at: deps.now().toISOString() })
      .onConflict((oc) => oc.columns(['provider', 'event_id']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return { duplicate: true, result: 'duplicate' as const };
    const result = await applyPaymentOutcome(trx, deps, provider, reading.outcome, 'webhook', true);
    return { duplicate: false, result };
  });
  countPaymentOutcome(deps, provider.id, applied.result);
  return applied;
}

/** A webhook refused: bad signature or shape, or about an order we cannot find (yet). */
export class WebhookRejected extends Error {}
