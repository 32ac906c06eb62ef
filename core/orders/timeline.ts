/**
 * The order timeline (`order_events`): what happened to an order, in order, for the admin's
 * detail view and for troubleshooting. Every module that changes an order writes here through
 * `recordOrderEvent`, in the same transaction as the change.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';

export const ORDER_EVENT_KINDS = [
  'order.created',
  'payment.paid',
  'payment.duplicate',
  'payment.failed',
  'payment.expired',
  'payment.mismatch',
  'payment.refunded',
  'supplier.submitted',
  'supplier.error',
  'supplier.needs_review',
  'supplier.cancel_requested',
  'supplier.cancel_refused',
  'supplier.final',
  'status.changed',
  'admin.reorder',
  'admin.apply_service',
  'admin.reorder_refused',
  'admin.action_done',
  'admin.action_failed',
  // Refills (core/fulfilment/refills.ts, decision 040).
  'refill.requested',
  'refill.accepted',
  'refill.rejected',
  'refill.status_changed',
] as const;
export type OrderEventKind = (typeof ORDER_EVENT_KINDS)[number];

/** Appends one entry; returns its id (status changes use it to name their event). */
export async function recordOrderEvent(
  db: Kysely<Database> | Transaction<Database>,
  orderId: number,
  kind: OrderEventKind,
  detail: Record<string, unknown>,
  at = new Date().toISOString(),
): Promise<number> {
  const row = await db
    .insertInto('order_events')
    .values({ order_id: orderId, at, kind, detail_json: JSON.stringify(detail) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}
