/**
 * The supplier's progress → our orders. Every live supplier order is asked about until it is
 * final (job `fulfilment.sync`, least recently synced first, one multi `status` call per panel
 * and 100 ids); each answer is recorded on its supplier order by compare-and-set and the order
 * is re-derived from all of its supplier orders, which changes its status (and so mails the
 * customer and refunds what was not delivered) through core/orders.
 *
 * Subscriptions (decision 057) run for a month and change slowly; thousands of them must not
 * starve one-off orders, which customers watch by the minute. So each run asks about up to 100
 * one-off orders as before, and beside them about subscriptions not asked for
 * SUBSCRIPTION_SYNC_MINUTES, up to SUBSCRIPTION_BATCHES calls of 100
 * (scripts/bench-subscription-sync.ts measures it). What the panel says of a subscription (posts
 * served, runs done, its word) is kept on its subscriptions row, with its end.
 */
import { parseAmountE4 } from '../money/money.ts';
import { recordOrderEvent } from '../orders/timeline.ts';
import { recordSupplierSyncError } from '../orders/transitions/index.ts';
import { type OrderStatus, isFinalStatus } from '../orders/status.ts';
import { subscriptionOf } from '../orders/subscription-delivery.ts';
import { recordPanelReport, recordSubscriptionEnd } from '../subscriptions/records.ts';
import type { FulfilmentDeps } from './deps.ts';
import { enqueueAdminAction } from './jobs.ts';
import { groupByPanel, syncEachPanel } from './panel-batches.ts';
import { readSubscriptionStatus } from './subscription-status.ts';
import { type SupplierOrderStatus, isSupplierStatusError } from './supplier.ts';
import { type SupplierOrderRow, rederiveOrder } from './supplier-orders.ts';

/** What the sync needs: it never refunds or charges, so no payment provider. */
export type SyncDeps = Pick<FulfilmentDeps, 'db' | 'panels' | 'now'>;

/** The panel's multi `status` takes at most 100 ids. */
const STATUS_BATCH = 100;
/** A running subscription is asked about at most this often. */
export const SUBSCRIPTION_SYNC_MINUTES = 30;
/** Multi-status calls per run for subscriptions (10,000 of them: every 30 minutes at 20 runs an hour). */
export const SUBSCRIPTION_BATCHES = 5;

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
  const now = deps.now();
  const at = now.toISOString();
  // The supplier's Pending says what our Processing says; unknown spellings change nothing.
  const reported: OrderStatus =
    result.status === null || result.status === 'Pending' ? supplierOrder.status : result.status;
  return deps.db.transaction().execute(async (trx) => {
    const subscription = await subscriptionOf(trx, supplierOrder.order_id);
    const reading = subscription
      ? readSubscriptionStatus(subscription, reported, result, supplierOrder.quantity, now)
      : null;
    const status = reading?.status ?? reported;
    const final = isFinalStatus(status);
    const updated = await trx
      .updateTable('supplier_orders')
      .set({
        status,
        remains: reading ? reading.remains : result.remains,
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
    let ended: Record<string, unknown> = {};
    if (reading) {
      await recordPanelReport(trx, supplierOrder.order_id, reading.report);
      // The end goes with the status change it causes (the refund reads it); a reorder's cancel
      // is not an end: what is left is sent again.
      if (
        final &&
        reading.endReason &&
        order.pending_action === null &&
        (await recordSubscriptionEnd(trx, supplierOrder.order_id, at, reading.endReason))
      )
        ended = { subscriptionEnded: (await subscriptionOf(trx, supplierOrder.order_id))?.end_reason ?? null };
    }
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
    return rederiveOrder(trx, supplierOrder.order_id, at, {
      supplierOrderId: supplierOrder.supplier_order_id,
      ...ended,
    });
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

function liveSupplierOrders(deps: SyncDeps) {
  return deps.db
    .selectFrom('supplier_orders')
    .innerJoin('orders', 'orders.id', 'supplier_orders.order_id')
    .selectAll('supplier_orders')
    .select('orders.supplier_panel_id')
    .where('supplier_orders.final', '=', 0)
    .orderBy((eb) => eb.fn.coalesce('supplier_orders.synced_at', eb.val('')))
    .orderBy('supplier_orders.id');
}

/** Splits one panel's rows into multi-status calls of at most 100 ids. */
function inCalls<Row>(rows: Row[]): Row[][] {
  const calls: Row[][] = [];
  for (let start = 0; start < rows.length; start += STATUS_BATCH) calls.push(rows.slice(start, start + STATUS_BATCH));
  return calls;
}

/**
 * Asks the panels about live supplier orders, least recently synced first, and applies every
 * change through a compare-and-set: up to `limit` (≤ 100) one-off orders, and up to
 * `subscriptionLimit` subscriptions not asked about for SUBSCRIPTION_SYNC_MINUTES.
 */
export async function syncSupplierStatuses(
  deps: SyncDeps,
  limit = STATUS_BATCH,
  subscriptionLimit = SUBSCRIPTION_BATCHES * STATUS_BATCH,
): Promise<{ checked: number; changed: number }> {
  const askedBefore = new Date(deps.now().getTime() - SUBSCRIPTION_SYNC_MINUTES * 60_000).toISOString();
  const [oneOff, subscriptions] = await Promise.all([
    liveSupplierOrders(deps).where('orders.kind', '=', 'package').limit(Math.min(limit, STATUS_BATCH)).execute(),
    subscriptionLimit <= 0
      ? []
      : liveSupplierOrders(deps)
          .where('orders.kind', '<>', 'package')
          .where((eb) =>
            eb.or([eb('supplier_orders.synced_at', 'is', null), eb('supplier_orders.synced_at', '<', askedBefore)]),
          )
          .limit(subscriptionLimit)
          .execute(),
  ]);
  const rows = [...oneOff, ...subscriptions];
  if (rows.length === 0) return { checked: 0, changed: 0 };
  const changed = await syncEachPanel(groupByPanel(rows), async (panelId, live) => {
    let total = 0;
    for (const call of inCalls(live)) total += await syncPanel(deps, panelId, call);
    return total;
  });
  return { checked: rows.length, changed };
}
