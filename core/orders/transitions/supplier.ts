/**
 * The order's side of fulfilment: every change the supplier's work makes to an order row. The
 * fulfilment module talks to the panel and keeps its own `supplier_orders` rows; it asks these
 * functions to move the order, each a compare-and-set on the state it expects, with the timeline
 * entry (and, for a status change, the `order.status_changed` event) in the same transaction.
 *
 * The panel protocol has no idempotency key, so a duplicate `add` costs real money: an order is
 * claimed (`submitting`) before the call and the answer is recorded after it. An order found still
 * `submitting` means a process died between the two; it is flagged for review, never resent.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { publishOrderEvent } from '../events.ts';
import { type SupplierOrderFacts, deriveOrderProgress } from '../progress.ts';
import { type FulfilmentState, type OrderStatus, type PendingAction, canChangeOrderStatus } from '../status.ts';
import { deliveryQuantityOfOrder } from '../subscription-delivery.ts';
import { recordOrderEvent } from '../timeline.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** One supplier order as the order's progress needs it (a supplier_orders row, in our words). */
export interface SupplierOrderProgress extends SupplierOrderFacts {
  startCount: number | null;
  /** What the panel charged us, in e4; null when it did not say. */
  chargeE4: number | null;
}

/** Why an order that was claimed and then found still claimed is flagged. */
export const INTERRUPTED_SUBMISSION_REASON =
  'The store stopped between sending this order to the supplier and recording the answer. Check the supplier panel before applying the service again.';

/**
 * Claims a paid order for one `add` at the supplier: `none`/`retry`/`queued` → `submitting`,
 * counting the attempt, and only while none of its supplier orders is live (an order never has
 * two). False when another run holds it, it is not paid, or it is not waiting to be sent. A
 * queued order is claimed only by the run that took its lane (core/fulfilment/lanes.ts).
 */
export async function claimForSubmission(db: Db, orderId: number, at: string): Promise<boolean> {
  const claimed = await db
    .updateTable('orders')
    .set((eb) => ({
      fulfilment_state: 'submitting' as const,
      fulfilment_attempts: eb('fulfilment_attempts', '+', 1),
      updated_at: at,
    }))
    .where('id', '=', orderId)
    .where('payment_status', '=', 'paid')
    .where('fulfilment_state', 'in', ['none', 'retry', 'queued'])
    .where((eb) =>
      eb.not(
        eb.exists(eb.selectFrom('supplier_orders').select('id').where('order_id', '=', orderId).where('final', '=', 0)),
      ),
    )
    .executeTakeFirst();
  return Number(claimed.numUpdatedRows) === 1;
}

/**
 * A paid order whose link another live order holds at the supplier waits: `none`/`retry` →
 * `queued`, with the order it waits for on the timeline. False when it was not waiting to be sent
 * (already queued, claimed, sent).
 */
export async function markQueued(
  db: Kysely<Database>,
  orderId: number,
  holder: { orderId: number; providerOrderId: string },
  at: string,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const queued = await trx
      .updateTable('orders')
      .set({ fulfilment_state: 'queued', updated_at: at })
      .where('id', '=', orderId)
      .where('payment_status', '=', 'paid')
      .where('fulfilment_state', 'in', ['none', 'retry'])
      .executeTakeFirst();
    if (Number(queued.numUpdatedRows) === 0) return false;
    await recordOrderEvent(
      trx,
      orderId,
      'supplier.queued',
      { waitingForOrderId: holder.orderId, waitingFor: holder.providerOrderId },
      at,
    );
    return true;
  });
}

/**
 * The panel refused to cancel a running subscription the customer or the owner asked to end: the
 * order is flagged for the owner with the panel's words (it keeps running at the supplier).
 */
export async function flagCancelRefused(
  db: Kysely<Database>,
  facts: { orderId: number; supplierOrderId: string; reason: string; by: 'customer' | 'owner' },
  at: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('orders')
      .set({
        needs_review: 1,
        review_reason: `The ${facts.by} asked to cancel this subscription and the supplier refused: ${facts.reason}`,
        updated_at: at,
      })
      .where('id', '=', facts.orderId)
      .execute();
    await recordOrderEvent(
      trx,
      facts.orderId,
      'supplier.cancel_refused',
      { supplierOrderId: facts.supplierOrderId, reason: facts.reason, by: facts.by },
      at,
    );
  });
}

/** The order is marked for a person to decide, with the reason on the timeline. */
export async function flagForReview(db: Kysely<Database>, orderId: number, reason: string, at: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('orders')
      .set({ fulfilment_state: 'needs_review', needs_review: 1, review_reason: reason, updated_at: at })
      .where('id', '=', orderId)
      .execute();
    await recordOrderEvent(trx, orderId, 'supplier.needs_review', { reason }, at);
  });
}

/** A claimed order with nothing left to deliver goes back to `submitted` without a call. */
export async function releaseEmptySubmission(db: Db, orderId: number, at: string): Promise<void> {
  await db
    .updateTable('orders')
    .set({ fulfilment_state: 'submitted', updated_at: at })
    .where('id', '=', orderId)
    .where('fulfilment_state', '=', 'submitting')
    .execute();
}

export interface SubmissionFacts {
  orderId: number;
  supplierOrderId: string;
  quantity: number;
  /** The order's status before (a resend of an In Progress order starts Processing again). */
  from: OrderStatus;
  /** Earlier supplier orders of this order, for the timeline. */
  previousSupplierOrderIds: string[];
}

/**
 * The supplier accepted the `add`: the claimed order is `submitted` and Processing. Call it in
 * the transaction that records the supplier order, so the two exist together or not at all.
 */
export async function recordSubmission(trx: Transaction<Database>, facts: SubmissionFacts, at: string): Promise<void> {
  const { orderId, supplierOrderId, quantity, from } = facts;
  await trx
    .updateTable('orders')
    .set({
      supplier_order_id: supplierOrderId,
      fulfilment_state: 'submitted',
      order_status: 'Processing',
      error_message: null,
      updated_at: at,
    })
    .where('id', '=', orderId)
    .where('fulfilment_state', '=', 'submitting')
    .execute();
  const timelineId = await recordOrderEvent(
    trx,
    orderId,
    'supplier.submitted',
    {
      supplierOrderId,
      quantity,
      ...(facts.previousSupplierOrderIds.length > 0
        ? { previousSupplierOrderIds: facts.previousSupplierOrderIds }
        : {}),
      from,
      to: 'Processing',
    },
    at,
  );
  if (from !== 'Processing')
    await publishOrderEvent(
      trx,
      { type: 'order.status_changed', orderId, from, to: 'Processing', remains: quantity, timelineId },
      new Date(at),
    );
}

/** The supplier refused the `add`: `retry` when it may heal (the job runs again), else `failed`. */
export async function recordSubmissionRefused(
  db: Kysely<Database>,
  facts: { orderId: number; message: string; retry: boolean; quantity: number },
  at: string,
): Promise<void> {
  const { orderId, message, retry, quantity } = facts;
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('orders')
      .set({ fulfilment_state: retry ? 'retry' : 'failed', error_message: message, updated_at: at })
      .where('id', '=', orderId)
      .where('fulfilment_state', '=', 'submitting')
      .execute();
    await recordOrderEvent(trx, orderId, 'supplier.error', { message, retry, quantity }, at);
  });
}

/** The panel could not tell a supplier order's status: shown on the order until the next sync. */
export async function recordSupplierSyncError(
  trx: Transaction<Database>,
  orderId: number,
  message: string,
  at: string,
): Promise<void> {
  await trx
    .updateTable('orders')
    .set({ error_message: message, status_synced_at: at })
    .where('id', '=', orderId)
    .execute();
}

/**
 * Brings the order's status and remains in line with all of its supplier orders (oldest first):
 * a status change is a compare-and-set on the old status, with a timeline entry and an
 * `order.status_changed` event (which is what mails the customer and refunds what was not
 * delivered). `cause` goes on the timeline. Returns whether the status changed.
 */
export async function applySupplierProgress(
  trx: Transaction<Database>,
  orderId: number,
  supplierOrders: readonly SupplierOrderProgress[],
  at: string,
  cause: Record<string, unknown>,
): Promise<boolean> {
  const order = await trx.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
  // A drip-feed's supplier orders count against the whole feed, not the tier's per-day quantity.
  const quantity = await deliveryQuantityOfOrder(trx, order);
  const progress = deriveOrderProgress({ ...order, quantity }, supplierOrders);
  if (!progress) return false;
  const charged = supplierOrders.filter((s) => s.chargeE4 !== null);
  const facts = {
    remains: progress.remains,
    start_count: supplierOrders.at(-1)?.startCount ?? null,
    supplier_charge_e4: charged.length > 0 ? charged.reduce((sum, s) => sum + (s.chargeE4 ?? 0), 0) : null,
    status_synced_at: at,
    updated_at: at,
  };
  const to = progress.status;
  const from = order.order_status;
  if (to === from || !canChangeOrderStatus(from, to)) {
    await trx.updateTable('orders').set(facts).where('id', '=', orderId).execute();
    return false;
  }
  const updated = await trx
    .updateTable('orders')
    .set({ ...facts, order_status: to })
    .where('id', '=', orderId)
    .where('order_status', '=', from)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) return false;
  const timelineId = await recordOrderEvent(
    trx,
    orderId,
    'status.changed',
    { from, to, remains: progress.remains, ...cause },
    at,
  );
  await publishOrderEvent(
    trx,
    { type: 'order.status_changed', orderId, from, to, remains: progress.remains, timelineId },
    new Date(at),
  );
  return true;
}

/**
 * An admin action sends what is undelivered again: the fulfilment state goes back to `none` from
 * exactly the state it was read in, while the action's attempt is still the current one. A review
 * the action resolves is cleared; other review reasons (a second payment to refund) stay.
 */
export async function reopenForResend(
  db: Db,
  order: { id: number; fulfilment_state: FulfilmentState },
  action: { action: PendingAction; attempt: number },
  at: string,
): Promise<boolean> {
  const reset = await db
    .updateTable('orders')
    .set({
      fulfilment_state: 'none',
      updated_at: at,
      ...(order.fulfilment_state === 'needs_review' ? { needs_review: 0, review_reason: null } : {}),
    })
    .where('id', '=', order.id)
    .where('fulfilment_state', '=', order.fulfilment_state)
    .where('pending_action', '=', action.action)
    .where('action_attempts', '=', action.attempt)
    .executeTakeFirst();
  return Number(reset.numUpdatedRows) === 1;
}
