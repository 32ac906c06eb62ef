/**
 * The only code that changes an order's payment state. Each change is a compare-and-set in SQL
 * (`UPDATE … WHERE payment_status IN (…)`, the moves of PAYMENT_TRANSITIONS), so the checkout
 * callback, webhooks and the reconciler can race, retry and replay: exactly one of them wins, and
 * only the winner writes the timeline entry and publishes `order.paid`, in the same transaction.
 * What follows a payment (the receipt, the supplier submission) is the subscribers' business
 * (core/orders/events.ts): this module knows nothing about mail or fulfilment.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { e4ToCents } from '../../money/money.ts';
import { publishOrderEvent } from '../events.ts';
import { PAYABLE_STATUSES, PAYMENT_TRANSITIONS, type PaymentStatus } from '../status.ts';
import { recordOrderEvent } from '../timeline.ts';

export type PaymentSource = 'checkout' | 'webhook' | 'reconciler';

export interface PaymentFacts {
  providerOrderId: string;
  paymentId: string;
  /** Present when the source states them (webhooks, reconciler); checked against the order. */
  amountCents?: number | undefined;
  currency?: string | undefined;
  source: PaymentSource;
}

export type MarkPaidResult =
  | { outcome: 'paid'; orderId: number }
  | { outcome: 'already-paid'; orderId: number }
  /** `mismatch`: a real payment that disagrees with the order's amount or currency (flag it, see flagPaymentMismatch). */
  | { outcome: 'rejected'; reason: string; mismatch?: { orderId: number } };

export interface MarkPaidContext {
  now?: () => Date;
}

/** The payment states a move to `to` may start from (PAYMENT_TRANSITIONS read backwards). */
function payableFrom(to: PaymentStatus): PaymentStatus[] {
  return (Object.keys(PAYMENT_TRANSITIONS) as PaymentStatus[]).filter((from) => PAYMENT_TRANSITIONS[from].includes(to));
}

export async function markPaid(
  trx: Transaction<Database>,
  facts: PaymentFacts,
  context: MarkPaidContext,
): Promise<MarkPaidResult> {
  const order = await trx
    .selectFrom('orders')
    .selectAll()
    .where('provider_order_id', '=', facts.providerOrderId)
    .executeTakeFirst();
  if (!order) return { outcome: 'rejected', reason: 'Order not found' };
  if (facts.amountCents !== undefined && facts.amountCents !== e4ToCents(order.amount_e4)) {
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
  const updated = await trx
    .updateTable('orders')
    .set({ payment_status: 'paid', payment_id: facts.paymentId, paid_at: now, updated_at: now })
    .where('id', '=', order.id)
    .where('payment_status', 'in', PAYABLE_STATUSES)
    .executeTakeFirst();

  if (Number(updated.numUpdatedRows) === 0) {
    const current = await trx
      .selectFrom('orders')
      .select(['payment_id'])
      .where('id', '=', order.id)
      .executeTakeFirstOrThrow();
    if (current.payment_id !== facts.paymentId) {
      // The buyer paid twice for one order: keep the first, flag the second for a refund.
      await trx
        .updateTable('orders')
        .set({
          needs_review: 1,
          review_reason: `A second payment ${facts.paymentId} was received for this order`,
          updated_at: now,
        })
        .where('id', '=', order.id)
        .execute();
      await recordOrderEvent(
        trx,
        order.id,
        'payment.duplicate',
        { paymentId: facts.paymentId, source: facts.source },
        now,
      );
    }
    return { outcome: 'already-paid', orderId: order.id };
  }

  await recordOrderEvent(trx, order.id, 'payment.paid', { paymentId: facts.paymentId, source: facts.source }, now);
  await publishOrderEvent(trx, { type: 'order.paid', orderId: order.id, paymentId: facts.paymentId }, new Date(now));
  return { outcome: 'paid', orderId: order.id };
}

/** A failed attempt marks the order `fail` only while it is still waiting for a payment. */
export async function markPaymentFailed(
  trx: Transaction<Database>,
  facts: { providerOrderId: string; paymentId?: string | undefined; reason: string; source: PaymentSource },
  now = new Date(),
): Promise<boolean> {
  const order = await trx
    .selectFrom('orders')
    .select('id')
    .where('provider_order_id', '=', facts.providerOrderId)
    .executeTakeFirst();
  if (!order) return false;
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
 * must not be ignored either: money was taken. The order is flagged for review once per payment
 * (compare-and-set on the reason, so the reconciler's next look does not add a second entry).
 * Returns whether this call flagged it.
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
  const changed = Number(updated.numUpdatedRows) === 1;
  if (changed)
    await recordOrderEvent(
      trx,
      facts.orderId,
      'payment.mismatch',
      { paymentId: facts.paymentId, reason: facts.reason, source: facts.source },
      at,
    );
  return changed;
}

/** An order nobody paid for within the window is expired; a late payment can still revive it. */
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
