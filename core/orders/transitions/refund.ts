/**
 * Money given back, in three steps that each are a compare-and-set, so double clicks, retries,
 * racing instances and a crash between the provider's answer and ours refund exactly once:
 *
 * 1. `reserveRefund`: the refund row, unique by its idempotency key, and its amount reserved on
 *    the payment it returns (`refund_pending_e4`), only while refunded + reserved + this stays
 *    within what was paid. A repeated key finds the first row instead.
 * 2. The provider is asked with the same key (core/orders/refunds.ts), so asking again after a
 *    crash is the same refund.
 * 3. `settleRefund` (done: the reservation becomes refunded money, on the order too when it is
 *    the payment that paid it) or `failRefund` (refused: the reservation is released).
 */
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, RefundsTable } from '../../../db/schema.ts';
import { formatAmountE4 } from '../../money/money.ts';
import type { RefundOrigin } from '../../../db/column-values.ts';
import { publishOrderEvent } from '../events.ts';
import { recordOrderEvent } from '../timeline.ts';

/** A refund asked for (core/orders/refunds.ts carries it to the provider). */
export interface RefundRequest {
  orderId: number;
  /** The payment to return; undefined: the one that paid the order. */
  orderPaymentId?: number | undefined;
  amountE4: number;
  reason: string;
  origin: RefundOrigin;
  /** The same key is the same refund, however often it is asked. */
  idempotencyKey: string;
  /** The admin's e-mail; null for the automatic refunds. */
  requestedBy: string | null;
}

/** A refund to reserve: the request (core/orders/refunds.ts) and what its provider allows. */
export interface RefundReservation extends RefundRequest {
  /**
   * A crypto refund: it waits for the customer's wallet address, asked through a single-use link.
   * The row keeps the token's hash; the token goes only into the e-mail's event, published in the
   * reservation's transaction so the customer is asked if and only if the refund exists.
   */
  addressLink?: { token: string; tokenHash: string } | undefined;
  /** The provider refunds only a whole payment: the amount must be all that is left of it. */
  wholeOnly: boolean;
}

export type ReserveResult =
  | { outcome: 'reserved' | 'existing'; refund: Selectable<RefundsTable> }
  | { outcome: 'refused'; reason: 'no-payment' | 'too-much' | 'whole-only' };

class RefundRollback extends Error {
  constructor(readonly reason: 'too-much' | 'whole-only') {
    super(reason);
  }
}

export async function reserveRefund(
  db: Kysely<Database>,
  facts: RefundReservation,
  at: string,
): Promise<ReserveResult> {
  const earlier = await db
    .selectFrom('refunds')
    .selectAll()
    .where('idempotency_key', '=', facts.idempotencyKey)
    .executeTakeFirst();
  if (earlier) return { outcome: 'existing', refund: earlier };
  let query = db.selectFrom('order_payments').selectAll().where('order_id', '=', facts.orderId);
  query =
    facts.orderPaymentId !== undefined
      ? query.where('id', '=', facts.orderPaymentId)
      : query.where('role', '=', 'applied');
  const payment = await query.executeTakeFirst();
  if (!payment) return { outcome: 'refused', reason: 'no-payment' };
  try {
    return await db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('refunds')
        .values({
          order_id: facts.orderId,
          order_payment_id: payment.id,
          idempotency_key: facts.idempotencyKey,
          origin: facts.origin,
          status: facts.addressLink ? 'awaiting_address' : 'pending',
          provider: payment.provider,
          provider_refund_id: null,
          amount_e4: facts.amountE4,
          reason: facts.reason,
          requested_by: facts.requestedBy,
          failure: null,
          payout_address: null,
          address_token_hash: facts.addressLink?.tokenHash ?? null,
          created_at: at,
          settled_at: null,
        })
        .onConflict((oc) => oc.column('idempotency_key').doNothing())
        .returningAll()
        .executeTakeFirst();
      if (!inserted) {
        const first = await trx
          .selectFrom('refunds')
          .selectAll()
          .where('idempotency_key', '=', facts.idempotencyKey)
          .executeTakeFirstOrThrow();
        return { outcome: 'existing' as const, refund: first };
      }
      const reserved = await trx
        .updateTable('order_payments')
        .set((eb) => ({ refund_pending_e4: eb('refund_pending_e4', '+', facts.amountE4) }))
        .where('id', '=', payment.id)
        .where((eb) =>
          eb(eb(eb('refunded_e4', '+', eb.ref('refund_pending_e4')), '+', facts.amountE4), '<=', eb.ref('amount_e4')),
        )
        .where((eb) =>
          facts.wholeOnly
            ? eb(eb(eb('refunded_e4', '+', eb.ref('refund_pending_e4')), '+', facts.amountE4), '=', eb.ref('amount_e4'))
            : eb.lit(true),
        )
        .executeTakeFirst();
      if (Number(reserved.numUpdatedRows) !== 1) {
        const left = payment.amount_e4 - payment.refunded_e4 - payment.refund_pending_e4;
        throw new RefundRollback(facts.wholeOnly && facts.amountE4 < left ? 'whole-only' : 'too-much');
      }
      await recordOrderEvent(
        trx,
        facts.orderId,
        'payment.refund_requested',
        { amount: formatAmountE4(facts.amountE4, 2), reason: facts.reason, by: facts.requestedBy ?? 'automatic' },
        at,
      );
      if (facts.addressLink)
        await publishOrderEvent(
          trx,
          {
            type: 'order.refund_address_needed',
            orderId: facts.orderId,
            refundId: inserted.id,
            token: facts.addressLink.token,
          },
          new Date(at),
        );
      return { outcome: 'reserved' as const, refund: inserted };
    });
  } catch (error) {
    if (error instanceof RefundRollback) return { outcome: 'refused', reason: error.reason };
    throw error;
  }
}

/** The customer gave the wallet address for a crypto refund: it goes to the provider next. */
export async function acceptRefundAddress(db: Kysely<Database>, refundId: number, address: string): Promise<boolean> {
  const updated = await db
    .updateTable('refunds')
    .set({ status: 'pending', payout_address: address, address_token_hash: null })
    .where('id', '=', refundId)
    .where('status', '=', 'awaiting_address')
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

async function releaseReservation(
  trx: Transaction<Database>,
  refund: Selectable<RefundsTable>,
  refunded: boolean,
): Promise<void> {
  if (refund.order_payment_id === null) return;
  await trx
    .updateTable('order_payments')
    .set((eb) => ({
      refund_pending_e4: eb('refund_pending_e4', '-', refund.amount_e4),
      ...(refunded ? { refunded_e4: eb('refunded_e4', '+', refund.amount_e4) } : {}),
    }))
    .where('id', '=', refund.order_payment_id)
    .execute();
}

/** The provider made the refund; false when it was already settled (or failed). */
export async function settleRefund(
  db: Kysely<Database>,
  refundId: number,
  providerRefundId: string,
  at: string,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const settled = await trx
      .updateTable('refunds')
      .set({ status: 'done', provider_refund_id: providerRefundId, settled_at: at })
      .where('id', '=', refundId)
      .where('status', '=', 'pending')
      .returningAll()
      .executeTakeFirst();
    if (!settled) return false;
    await releaseReservation(trx, settled, true);
    const payment =
      settled.order_payment_id === null
        ? undefined
        : await trx
            .selectFrom('order_payments')
            .select('role')
            .where('id', '=', settled.order_payment_id)
            .executeTakeFirst();
    // The order's refunded total is about the payment that paid it; a second payment given back
    // was never part of the order's revenue.
    if (payment?.role === 'applied')
      await trx
        .updateTable('orders')
        .set((eb) => ({ refunded_e4: eb('refunded_e4', '+', settled.amount_e4), updated_at: at }))
        .where('id', '=', settled.order_id)
        .execute();
    await recordOrderEvent(
      trx,
      settled.order_id,
      'payment.refunded',
      {
        refundId: providerRefundId,
        amount: formatAmountE4(settled.amount_e4, 2),
        reason: settled.reason,
        origin: settled.origin,
      },
      at,
    );
    await publishOrderEvent(
      trx,
      { type: 'order.refunded', orderId: settled.order_id, refundId: settled.id },
      new Date(at),
    );
    return true;
  });
}

/** The provider refused the refund: the amount is free again. */
export async function failRefund(
  db: Kysely<Database>,
  refundId: number,
  failure: string,
  at: string,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const failed = await trx
      .updateTable('refunds')
      .set({ status: 'failed', failure: failure.slice(0, 300), settled_at: at })
      .where('id', '=', refundId)
      .where('status', 'in', ['pending', 'awaiting_address'])
      .returningAll()
      .executeTakeFirst();
    if (!failed) return false;
    await releaseReservation(trx, failed, false);
    await recordOrderEvent(
      trx,
      failed.order_id,
      'payment.refund_failed',
      { amount: formatAmountE4(failed.amount_e4, 2), failure: failure.slice(0, 300) },
      at,
    );
    return true;
  });
}

/** A refund the store owes but cannot make itself (a crypto payment's partial share): the owner settles it. */
export async function flagRefundForOwner(db: Kysely<Database>, orderId: number, reason: string, at: string) {
  await db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('orders')
      .set({ needs_review: 1, review_reason: reason, updated_at: at })
      .where('id', '=', orderId)
      .where((eb) => eb.or([eb('review_reason', 'is', null), eb('review_reason', '!=', reason)]))
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 1)
      await recordOrderEvent(trx, orderId, 'payment.refund_failed', { failure: reason }, at);
  });
}
