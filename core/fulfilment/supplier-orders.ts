/**
 * The `supplier_orders` rows: one per `add` the panel accepted for an order. An order's delivery
 * is the sum of them (a reorder cancels the live one and sends the rest as a new one), so after
 * any of them changes, the order is re-derived from all of them (core/orders/progress.ts).
 */
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, SupplierOrdersTable } from '../../db/schema.ts';
import type { SupplierOrderFacts } from '../orders/progress.ts';
import { type SupplierOrderProgress, applySupplierProgress } from '../orders/transitions/index.ts';

export type SupplierOrderRow = Selectable<SupplierOrdersTable>;
type Db = Kysely<Database> | Transaction<Database>;

export function supplierOrdersOf(db: Db, orderId: number): Promise<SupplierOrderRow[]> {
  return db.selectFrom('supplier_orders').selectAll().where('order_id', '=', orderId).orderBy('id').execute();
}

export function liveSupplierOrderOf(db: Db, orderId: number): Promise<SupplierOrderRow | undefined> {
  return db
    .selectFrom('supplier_orders')
    .selectAll()
    .where('order_id', '=', orderId)
    .where('final', '=', 0)
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

export function factsOf(row: SupplierOrderRow): SupplierOrderFacts {
  return { quantity: row.quantity, status: row.status, remains: row.remains, final: row.final === 1 };
}

function progressOf(row: SupplierOrderRow): SupplierOrderProgress {
  return { ...factsOf(row), startCount: row.start_count, chargeE4: row.charge_e4 };
}

/** Re-derives the order from all of its supplier orders, in `trx`; true when its status changed. */
export async function rederiveOrder(
  trx: Transaction<Database>,
  orderId: number,
  at: string,
  cause: Record<string, unknown>,
): Promise<boolean> {
  const rows = await supplierOrdersOf(trx, orderId);
  return applySupplierProgress(trx, orderId, rows.map(progressOf), at, cause);
}

/** Records the supplier order the panel just accepted (call it with recordSubmission's transaction). */
export async function insertSupplierOrder(
  trx: Transaction<Database>,
  facts: { orderId: number; supplierOrderId: string; quantity: number },
  at: string,
): Promise<void> {
  await trx
    .insertInto('supplier_orders')
    .values({
      order_id: facts.orderId,
      supplier_order_id: facts.supplierOrderId,
      quantity: facts.quantity,
      status: 'Processing',
      remains: facts.quantity,
      start_count: null,
      charge_e4: null,
      final: 0,
      cancel_requested_at: null,
      error_message: null,
      created_at: at,
      synced_at: null,
    })
    .execute();
}

/**
 * Marks a live supplier order as being cancelled: a compare-and-set, so two admins (or two clicks)
 * make one call to the panel. False when it is final or already marked.
 */
export async function markCancelRequested(db: Db, supplierOrderRowId: number, at: string): Promise<boolean> {
  const marked = await db
    .updateTable('supplier_orders')
    .set({ cancel_requested_at: at })
    .where('id', '=', supplierOrderRowId)
    .where('final', '=', 0)
    .where('cancel_requested_at', 'is', null)
    .executeTakeFirst();
  return Number(marked.numUpdatedRows) === 1;
}

/** The panel refused the cancel: the mark this request set goes again. */
export async function clearCancelRequest(db: Db, supplierOrderRowId: number, markedAt: string): Promise<void> {
  await db
    .updateTable('supplier_orders')
    .set({ cancel_requested_at: null })
    .where('id', '=', supplierOrderRowId)
    .where('cancel_requested_at', '=', markedAt)
    .execute();
}
