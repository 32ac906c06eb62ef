/**
 * The only code that changes an order's payment state. Each change is a compare-and-set in SQL
 * (`UPDATE … WHERE payment_status IN (…)`, the moves of PAYMENT_TRANSITIONS), so the checkout
 * callback, webhooks and the reconciler can race, retry and replay: exactly one of them wins, and
 * only the winner writes the timeline entry and publishes `order.paid`, in the same transaction.
 * What follows a payment (the receipt, the supplier submission) is the subscribers' business
 * (core/orders/events.ts): this module knows nothing about mail or fulfilment.
 */
import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { Database, OrderPaymentsTable, PaymentAttemptsTable } from '../../../db/schema.ts';
import { e4ToCents, formatAmountE4 } from '../../money/money.ts';
import { publishOrderEvent } from '../events.ts';
import { PAYABLE_STATUSES, PAYMENT_TRANSITIONS, type PaymentStatus } from '../status.ts';
import { recordOrderEvent, recordOrderEventOnce } from '../timeline.ts';
import { flagOrderForOwner } from './flag.ts';

export type PaymentSource = 'checkout' | 'webhook' | 'reconciler';

/** A payment as a provider reported it, for the attempt it names. */
export interface PaymentFacts {
  provider: string;
  /** The provider's reference for the attempt. */
  reference: string;
  paymentId: string;
  /** Present when the source states them (webhooks, reconciler); checked against the attempt. */
  amountCents?: number | undefined;
  currency?: string | undefined;
  source: PaymentSource;
}

export type MarkPaidResult =
  | { outcome: 'paid'; orderId: number }
  | { outcome: 'already-paid'; orderId: number }
  /** The order had expired: the payment is kept as an extra payment and refunded, never applied. */
  | { outcome: 'after-expiry'; orderId: number }
  /** `mismatch`: a real payment that disagrees with the order's amount or currency (flag it, see flagPaymentMismatch). */
  | { outcome: 'rejected'; reason: string; mismatch?: { orderId: number } };

export interface MarkPaidContext {
  now?: () => Date;
}

/** The payment states a move to `to` may start from (PAYMENT_TRANSITIONS read backwards). */
function payableFrom(to: PaymentStatus): PaymentStatus[] {
  return (Object.keys(PAYMENT_TRANSITIONS) as PaymentStatus[]).filter((from) => PAYMENT_TRANSITIONS[from].includes(to));
}

function attemptOf(trx: Transaction<Database>, provider: string, reference: string) {
  return trx
    .selectFrom('payment_attempts')
    .selectAll()
    .where('provider', '=', provider)
    .where('reference', '=', reference)
    .executeTakeFirst();
}

/** A new payment attempt for an order; a second one for the same method is ignored (the first stays). */
export async function addPaymentAttempt(
  db: Kysely<Database> | Transaction<Database>,
  attempt: Insertable<PaymentAttemptsTable>,
): Promise<void> {
  await db
    .insertInto('payment_attempts')
    .values(attempt)
    .onConflict((oc) => oc.columns(['order_id', 'method']).doNothing())
    .execute();
}

/**
 * The buyer chose another method for an unpaid order: the order now costs that attempt's amount
 * and names its provider and method. Compare-and-set on a payable status: a paid order keeps the
 * method that paid it.
 */
export async function choosePaymentAttempt(
  db: Kysely<Database>,
  attempt: Selectable<PaymentAttemptsTable>,
  now: Date,
): Promise<boolean> {
  const at = now.toISOString();
  return db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('orders')
      .set({
        provider: attempt.provider,
        payment_method: attempt.method,
        amount_e4: attempt.amount_e4,
        adjustment_e4: attempt.adjustment_e4,
        updated_at: at,
      })
      .where('id', '=', attempt.order_id)
      .where('payment_status', 'in', PAYABLE_STATUSES)
      .where('payment_method', '!=', attempt.method)
      .executeTakeFirst();
    const changed = Number(updated.numUpdatedRows) === 1;
    if (changed)
      await recordOrderEvent(trx, attempt.order_id, 'payment.method_changed', { method: attempt.method }, at);
    return changed;
  });
}

/**
 * Money for one of the order's attempts: the first payment pays the order (and makes its
 * attempt the order's method and amount); any other payment for an order already paid is kept
 * as an extra payment, flagged for the owner to refund, once per payment.
 */
export async function markPaid(
  trx: Transaction<Database>,
  facts: PaymentFacts,
  context: MarkPaidContext,
): Promise<MarkPaidResult> {
  const attempt = await attemptOf(trx, facts.provider, facts.reference);
  if (!attempt) return { outcome: 'rejected', reason: 'Order not found' };
  const order = await trx
    .selectFrom('orders')
    .select(['id', 'currency'])
    .where('id', '=', attempt.order_id)
    .executeTakeFirstOrThrow();
  if (facts.amountCents !== undefined && facts.amountCents !== e4ToCents(attempt.amount_e4)) {
    return { outcome: 'rejected', reason: 'Payment amount does not match the order', mismatch: { orderId: order.id } };
  }
  if (facts.currency !== undefined && facts.currency.toUpperCase() !== order.currency) {
    return {
      outcome: 'rejected',
      reason: 'Payment currency does not match the order',
      mismatch: { orderId: order.id },
    };
  }

  const now = (context.now?.() ?? new Date()).toISOString();
  const payment = {
    order_id: order.id,
    attempt_id: attempt.id,
    provider: attempt.provider,
    method: attempt.method,
    payment_id: facts.paymentId,
    amount_e4: attempt.amount_e4,
    currency: order.currency,
    created_at: now,
  };
  const updated = await trx
    .updateTable('orders')
    .set({
      payment_status: 'paid',
      payment_id: facts.paymentId,
      paid_at: now,
      updated_at: now,
      provider: attempt.provider,
      payment_method: attempt.method,
      amount_e4: attempt.amount_e4,
      adjustment_e4: attempt.adjustment_e4,
    })
    .where('id', '=', order.id)
    .where('payment_status', 'in', PAYABLE_STATUSES)
    .executeTakeFirst();

  if (Number(updated.numUpdatedRows) === 0) {
    const current = await trx
      .selectFrom('orders')
      .select('payment_status')
      .where('id', '=', order.id)
      .executeTakeFirstOrThrow();
    if (current.payment_status === 'expired') {
      await recordPaymentAfterExpiry(trx, payment, facts, now);
      return { outcome: 'after-expiry', orderId: order.id };
    }
    // Paid already. The same payment again (a replayed webhook, the reconciler after the
    // callback) is already recorded; any other payment is money the buyer sent twice.
    const extra = await trx
      .insertInto('order_payments')
      .values({ ...payment, role: 'extra' })
      .onConflict((oc) => oc.columns(['provider', 'payment_id']).doNothing())
      .executeTakeFirst();
    if (Number(extra.numInsertedOrUpdatedRows ?? 0) === 1)
      await flagOrderForOwner(
        trx,
        order.id,
        `A second payment ${facts.paymentId} was received for this order: refund it`,
        {
          kind: 'payment.duplicate',
          detail: { paymentId: facts.paymentId, provider: attempt.provider, source: facts.source },
        },
        now,
      );
    return { outcome: 'already-paid', orderId: order.id };
  }

  await trx
    .insertInto('order_payments')
    .values({ ...payment, role: 'applied' })
    .execute();
  await recordOrderEvent(
    trx,
    order.id,
    'payment.paid',
    { paymentId: facts.paymentId, provider: attempt.provider, method: attempt.method, source: facts.source },
    now,
  );
  await publishOrderEvent(trx, { type: 'order.paid', orderId: order.id, paymentId: facts.paymentId }, new Date(now));
  return { outcome: 'paid', orderId: order.id };
}

/**
 * Money that arrived for an order the reconciler had already expired. Its price is stale, so it
 * never pays the order: it is kept as an extra payment and announced once per payment
 * (`order.paid_after_expiry`), whose subscriber refunds it through the provider that took it.
 */
async function recordPaymentAfterExpiry(
  trx: Transaction<Database>,
  payment: Omit<Insertable<OrderPaymentsTable>, 'role'>,
  facts: PaymentFacts,
  at: string,
): Promise<void> {
  const inserted = await trx
    .insertInto('order_payments')
    .values({ ...payment, role: 'extra' })
    .onConflict((oc) => oc.columns(['provider', 'payment_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) return;
  await recordOrderEvent(
    trx,
    payment.order_id,
    'payment.after_expiry',
    { paymentId: facts.paymentId, provider: payment.provider, source: facts.source },
    at,
  );
  await publishOrderEvent(
    trx,
    { type: 'order.paid_after_expiry', orderId: payment.order_id, orderPaymentId: inserted.id },
    new Date(at),
  );
}

/**
 * Money arrived for an attempt but less than its price (a crypto invoice paid short). It never
 * pays the order; it is kept as an extra payment for the owner to settle (refund it, or take it
 * up with the buyer), once per payment.
 */
export async function recordUnderpayment(
  trx: Transaction<Database>,
  facts: {
    provider: string;
    reference: string;
    paymentId: string;
    amountCents: number;
    currency: string;
    source: PaymentSource;
  },
  now: Date,
): Promise<boolean> {
  const attempt = await attemptOf(trx, facts.provider, facts.reference);
  if (!attempt) return false;
  const at = now.toISOString();
  const inserted = await trx
    .insertInto('order_payments')
    .values({
      order_id: attempt.order_id,
      attempt_id: attempt.id,
      provider: attempt.provider,
      method: attempt.method,
      payment_id: facts.paymentId,
      role: 'extra',
      amount_e4: facts.amountCents * 100,
      currency: facts.currency.toUpperCase(),
      created_at: at,
    })
    .onConflict((oc) => oc.columns(['provider', 'payment_id']).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return false;
  const received = formatAmountE4(facts.amountCents * 100, 2);
  const due = formatAmountE4(attempt.amount_e4, 2);
  await flagOrderForOwner(
    trx,
    attempt.order_id,
    `Underpaid: ${received} received of ${due} (payment ${facts.paymentId}); the order was not paid`,
    { kind: 'payment.underpaid', detail: { paymentId: facts.paymentId, received, due, source: facts.source } },
    at,
  );
  return true;
}

/** A chargeback or dispute the provider reported: recorded once, and the order flagged for the owner. */
export async function recordDispute(
  trx: Transaction<Database>,
  facts: {
    provider: string;
    reference: string;
    disputeId: string;
    amountCents: number;
    currency: string;
    reason: string;
  },
  now: Date,
): Promise<boolean> {
  const attempt = await attemptOf(trx, facts.provider, facts.reference);
  if (!attempt) return false;
  const at = now.toISOString();
  const inserted = await trx
    .insertInto('payment_disputes')
    .values({
      order_id: attempt.order_id,
      provider: facts.provider,
      dispute_id: facts.disputeId,
      amount_e4: facts.amountCents * 100,
      currency: facts.currency.toUpperCase(),
      reason: facts.reason.slice(0, 300),
      created_at: at,
    })
    .onConflict((oc) => oc.columns(['provider', 'dispute_id']).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return false;
  await flagOrderForOwner(
    trx,
    attempt.order_id,
    `Chargeback opened: ${facts.reason.slice(0, 200)}`,
    {
      kind: 'payment.disputed',
      detail: {
        disputeId: facts.disputeId,
        amount: formatAmountE4(facts.amountCents * 100, 2),
        reason: facts.reason.slice(0, 300),
      },
    },
    at,
  );
  return true;
}

/** A failed attempt marks the order `fail` only while it is still waiting for a payment. */
export async function markPaymentFailed(
  trx: Transaction<Database>,
  facts: {
    provider: string;
    reference: string;
    paymentId?: string | undefined;
    reason: string;
    source: PaymentSource;
  },
  now = new Date(),
): Promise<boolean> {
  const attempt = await attemptOf(trx, facts.provider, facts.reference);
  if (!attempt) return false;
  const order = { id: attempt.order_id };
  const at = now.toISOString();
  const updated = await trx
    .updateTable('orders')
    .set({ payment_status: 'fail', error_message: facts.reason, updated_at: at })
    .where('id', '=', order.id)
    .where('payment_status', 'in', payableFrom('fail'))
    .executeTakeFirst();
  const changed = Number(updated.numUpdatedRows) === 1;
  if (changed)
    await recordOrderEvent(
      trx,
      order.id,
      'payment.failed',
      { paymentId: facts.paymentId, reason: facts.reason, source: facts.source },
      at,
    );
  return changed;
}

/**
 * A captured payment that disagrees with the order (amount or currency) cannot mark it paid, and
 * must not be ignored either: money was taken. The order is flagged for review (compare-and-set
 * on a payable status and the reason) with one timeline entry per payment (a unique key).
 * Returns whether this call flagged that payment for the first time.
 */
export async function flagPaymentMismatch(
  trx: Transaction<Database>,
  facts: { orderId: number; paymentId: string; reason: string; source: PaymentSource },
  now = new Date(),
): Promise<boolean> {
  const at = now.toISOString();
  const reviewReason = `Payment ${facts.paymentId} was captured but not applied: ${facts.reason}`;
  const updated = await trx
    .updateTable('orders')
    .set({ needs_review: 1, review_reason: reviewReason, updated_at: at })
    .where('id', '=', facts.orderId)
    .where('payment_status', 'in', PAYABLE_STATUSES)
    .where((eb) => eb.or([eb('review_reason', 'is', null), eb('review_reason', '!=', reviewReason)]))
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) return false;
  // The reason names the payment seen last; the timeline has one entry per payment, however
  // often the reconciler or a repeated verify sees it again and whatever was flagged in between.
  return recordOrderEventOnce(
    trx,
    facts.orderId,
    'payment.mismatch',
    { paymentId: facts.paymentId, reason: facts.reason, source: facts.source },
    `order:${facts.orderId}:payment.mismatch:${facts.paymentId}`,
    at,
  );
}

/** An order nobody paid for within the window is expired for good; a late payment is refunded. */
export async function expireOrder(trx: Transaction<Database>, orderId: number, now = new Date()): Promise<boolean> {
  const at = now.toISOString();
  const updated = await trx
    .updateTable('orders')
    .set({ payment_status: 'expired', updated_at: at })
    .where('id', '=', orderId)
    .where('payment_status', 'in', payableFrom('expired'))
    .executeTakeFirst();
  const changed = Number(updated.numUpdatedRows) === 1;
  if (changed) await recordOrderEvent(trx, orderId, 'payment.expired', {}, at);
  return changed;
}

/** The reconciler asked the provider about this order: it goes to the back of the rotation. */
export async function markPaymentChecked(
  db: Kysely<Database> | Transaction<Database>,
  orderId: number,
  at: Date,
): Promise<void> {
  await db.updateTable('orders').set({ last_checked_at: at.toISOString() }).where('id', '=', orderId).execute();
}
