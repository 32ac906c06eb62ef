/**
 * The supplier's progress → our orders. Every live supplier order is asked about until it is
 * final (job `fulfilment.sync`, least recently synced first, one multi `status` call per panel);
 * each answer is recorded on its supplier order by compare-and-set and the order is re-derived
 * from all of its supplier orders, which changes its status (and so mails the customer and
 * refunds what was not delivered) through core/orders.
 */
import { parseAmountE4 } from '../money/money.ts';
import { recordOrderEvent } from '../orders/timeline.ts';
import { recordSupplierSyncError } from '../orders/transitions/index.ts';
import { type OrderStatus, isFinalStatus } from '../orders/status.ts';
import type { FulfilmentDeps } from './deps.ts';
import { enqueueAdminAction } from './jobs.ts';
import { groupByPanel, syncEachPanel } from './panel-batches.ts';
import { type SupplierOrderStatus, isSupplierStatusError } from './supplier.ts';
import { type SupplierOrderRow, rederiveOrder } from './supplier-orders.ts';

/** What the sync needs: it never refunds or charges, so no payment provider. */
export type SyncDeps = Pick<FulfilmentDeps, 'db' | 'panels' | 'now'>;

/** The panel's multi `status` takes at most 100 ids. */
const STATUS_BATCH = 100;

/** A charge the panel states as a decimal with at most 4 places; anything else is not recorded. */
function chargeE4Of(charge: string | null): number | null {
  return charge && /^\d{1,12}(\.\d{1,4})?$/.test(charge) ? parseAmountE4(charge) : null;
}

/**
 * Records one supplier status for one supplier order, then re-derives the order. True when the
 * order's status changed. A supplier order that turns final while a reorder waits for it resumes
 * that reorder.
 */
export async function applySupplierStatus(
  deps: SyncDeps,
  supplierOrder: SupplierOrderRow,
  result: SupplierOrderStatus,
): Promise<boolean> {
  const at = deps.now().toISOString();
  // The supplier's Pending says what our Processing says; unknown spellings change nothing.
  const status: OrderStatus =
    result.status === null || result.status === 'Pending' ? supplierOrder.status : result.status;
  const final = isFinalStatus(status);
  return deps.db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('supplier_orders')
      .set({
        status,
        remains: result.remains,
        start_count: result.startCount,
        charge_e4: chargeE4Of(result.charge),
        final: final ? 1 : 0,
        error_message: null,
        synced_at: at,
      })
      .where('id', '=', supplierOrder.id)
      .where('final', '=', 0)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) return false;
    const order = await trx
      .selectFrom('orders')
      .select(['pending_action', 'action_attempts'])
      .where('id', '=', supplierOrder.order_id)
      .executeTakeFirstOrThrow();
    if (final && supplierOrder.cancel_requested_at !== null) {
      await recordOrderEvent(
        trx,
        supplierOrder.order_id,
        'supplier.final',
        { supplierOrderId: supplierOrder.supplier_order_id, status, remains: result.remains },
        at,
      );
    }
    if (final && order.pending_action === 'reorder') {
      await enqueueAdminAction(
        trx,
        'reorder',
        { orderId: supplierOrder.order_id, attempt: order.action_attempts, adminId: null },
        'resume',
      );
    }
    return rederiveOrder(trx, supplierOrder.order_id, at, { supplierOrderId: supplierOrder.supplier_order_id });
  });
}

/**
 * Asks one panel about a live supplier order right away (after a cancel, most panels answer
 * final at once) and applies the answer; the sync asks again otherwise.
 */
export async function askAndApplyStatus(deps: SyncDeps, supplierOrderRowId: number): Promise<void> {
  const row = await deps.db
    .selectFrom('supplier_orders')
    .innerJoin('orders', 'orders.id', 'supplier_orders.order_id')
    .selectAll('supplier_orders')
    .select('orders.supplier_panel_id')
    .where('supplier_orders.id', '=', supplierOrderRowId)
    .executeTakeFirstOrThrow();
  const supplier = await deps.panels.get(row.supplier_panel_id);
  const result = (await supplier.statuses([row.supplier_order_id])).get(row.supplier_order_id);
  if (!result || isSupplierStatusError(result)) return;
  const fresh = await deps.db
    .selectFrom('supplier_orders')
    .selectAll()
    .where('id', '=', supplierOrderRowId)
    .executeTakeFirstOrThrow();
  await applySupplierStatus(deps, fresh, result);
}

/** Asks one panel about its live supplier orders and applies what changed; returns how many orders changed status. */
async function syncPanel(deps: SyncDeps, panelId: number, live: SupplierOrderRow[]): Promise<number> {
  const supplier = await deps.panels.get(panelId);
  const results = await supplier.statuses(live.map((o) => o.supplier_order_id));
  let changed = 0;
  for (const supplierOrder of live) {
    const result = results.get(supplierOrder.supplier_order_id);
    if (!result || isSupplierStatusError(result)) {
      const at = deps.now().toISOString();
      const message = result ? `Supplier: ${result.error}` : 'Supplier sent no status';
      await deps.db.transaction().execute(async (trx) => {
        await trx
          .updateTable('supplier_orders')
          .set({ error_message: message, synced_at: at })
          .where('id', '=', supplierOrder.id)
          .execute();
        await recordSupplierSyncError(trx, supplierOrder.order_id, message, at);
      });
      continue;
    }
    if (await applySupplierStatus(deps, supplierOrder, result)) changed += 1;
  }
  return changed;
}

/**
 * Asks the panels about live supplier orders, up to 100 per run, least recently synced first, and
 * applies every change through a compare-and-set.
 */
export async function syncSupplierStatuses(
  deps: SyncDeps,
  limit = STATUS_BATCH,
): Promise<{ checked: number; changed: number }> {
  const rows = await deps.db
    .selectFrom('supplier_orders')
    .innerJoin('orders', 'orders.id', 'supplier_orders.order_id')
    .selectAll('supplier_orders')
    .select('orders.supplier_panel_id')
    .where('supplier_orders.final', '=', 0)
    .orderBy((eb) => eb.fn.coalesce('supplier_orders.synced_at', eb.val('')))
    .orderBy('supplier_orders.id')
    .limit(Math.min(limit, STATUS_BATCH))
    .execute();
  if (rows.length === 0) return { checked: 0, changed: 0 };
  const changed = await syncEachPanel(groupByPanel(rows), (panelId, live) => syncPanel(deps, panelId, live));
  return { checked: rows.length, changed };
}
