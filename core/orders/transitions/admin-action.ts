/**
 * An admin action on an order (reorder, apply-service; decision 012) marks the order while its job
 * runs: `pending_action` and a new attempt number, so a second click, a stale job or a job of an
 * earlier attempt can tell it is not the current one. The mark is set and cleared here only.
 */
import type { Selectable, Transaction } from 'kysely';
import type { Database, OrdersTable } from '../../../db/schema.ts';
import type { PendingAction } from '../status.ts';
import { recordOrderEvent } from '../timeline.ts';

export interface ActionAttempt {
  orderId: number;
  action: PendingAction;
  attempt: number;
  adminId: number | null;
}

/**
 * Marks the order with a new attempt of `action`, on exactly the row the admin's request was
 * checked against (a racing click, payment or sync loses here), and records the request on the
 * timeline. Returns the attempt number, or null when the row changed in the meantime. The caller
 * enqueues the action's job in the same transaction.
 */
export async function markActionRequested(
  trx: Transaction<Database>,
  order: Selectable<OrdersTable>,
  action: PendingAction,
  adminId: number | null,
  at: string,
): Promise<number | null> {
  const attempt = order.action_attempts + 1;
  const marked = await trx
    .updateTable('orders')
    .set({ pending_action: action, action_attempts: attempt, updated_at: at })
    .where('id', '=', order.id)
    .where('pending_action', 'is', null)
    .where('action_attempts', '=', order.action_attempts)
    .where('payment_status', '=', order.payment_status)
    .where('order_status', '=', order.order_status)
    .where('fulfilment_state', '=', order.fulfilment_state)
    .executeTakeFirst();
  if (Number(marked.numUpdatedRows) === 0) return null;
  await recordOrderEvent(
    trx,
    order.id,
    action === 'reorder' ? 'admin.reorder' : 'admin.apply_service',
    {
      adminId,
      attempt,
      orderStatus: order.order_status,
      fulfilmentState: order.fulfilment_state,
      supplierOrderId: order.supplier_order_id,
      ...(order.fulfilment_state === 'needs_review' ? { reviewReason: order.review_reason } : {}),
    },
    at,
  );
  return attempt;
}

/**
 * Ends an action: clears the pending mark of this attempt only and records the result. Returns
 * false when the attempt was no longer the current one (nothing is written then). The order may
 * now be settled: the caller re-derives its progress in the same transaction.
 */
export async function finishAdminAction(
  trx: Transaction<Database>,
  attempt: ActionAttempt,
  outcome: 'done' | 'failed',
  detail: Record<string, unknown>,
  at: string,
): Promise<boolean> {
  const cleared = await trx
    .updateTable('orders')
    .set({ pending_action: null, updated_at: at })
    .where('id', '=', attempt.orderId)
    .where('pending_action', '=', attempt.action)
    .where('action_attempts', '=', attempt.attempt)
    .executeTakeFirst();
  if (Number(cleared.numUpdatedRows) === 0) return false;
  await recordOrderEvent(
    trx,
    attempt.orderId,
    outcome === 'done' ? 'admin.action_done' : 'admin.action_failed',
    { action: attempt.action, attempt: attempt.attempt, adminId: attempt.adminId, ...detail },
    at,
  );
  return true;
}
