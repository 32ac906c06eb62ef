/**
 * Job `refills.sync` (once per slot across instances, decision 010): asks each panel about its
 * open refills, least recently asked first, up to 100 in one multi `refill_status`, and moves each
 * by compare-and-set with a timeline entry per change. A refill whose `refill` call never got an
 * answer (a crash mid-call) is closed as not sent after 10 minutes.
 */
import { REFILL_MESSAGES } from '../../orders/refill-contracts.ts';
import { recordOrderEvent } from '../../orders/timeline.ts';
import { groupByPanel, syncEachPanel } from '../panel-batches.ts';
import { isRefillStatusError } from '../supplier.ts';
import type { RefillsDeps } from './deps.ts';
import type { RefillRow } from './rules.ts';

/** A refill still 'requesting' after this long lost its answer. */
const STALE_REQUEST_MS = 10 * 60 * 1000;
const MAX_POLL = 100;
const FINAL_STATES: readonly string[] = ['Completed', 'Rejected'];

async function closeStaleRequests(deps: RefillsDeps, at: Date): Promise<number> {
  const staleBefore = new Date(at.getTime() - STALE_REQUEST_MS).toISOString();
  const stale = await deps.db
    .selectFrom('refills')
    .select(['id', 'order_id'])
    .where('final', '=', 0)
    .where('state', '=', 'requesting')
    .where('created_at', '<', staleBefore)
    .execute();
  let abandoned = 0;
  for (const row of stale) {
    await deps.db.transaction().execute(async (trx) => {
      const closed = await trx
        .updateTable('refills')
        .set({ state: 'Rejected', final: 1, error_message: REFILL_MESSAGES.noAnswer, updated_at: at.toISOString() })
        .where('id', '=', row.id)
        .where('state', '=', 'requesting')
        .executeTakeFirst();
      if (Number(closed.numUpdatedRows) === 0) return;
      abandoned += 1;
      await recordOrderEvent(
        trx,
        row.order_id,
        'refill.rejected',
        { reason: REFILL_MESSAGES.noAnswer },
        at.toISOString(),
      );
    });
  }
  return abandoned;
}

/** Asks one panel about its open refills and moves each by compare-and-set; returns how many changed. */
async function syncPanelRefills(deps: RefillsDeps, panelId: number, open: RefillRow[]): Promise<number> {
  const supplier = await deps.panels.get(panelId);
  const results = await supplier.refillStatuses(open.map((r) => r.supplier_refill_id as string));
  let changed = 0;
  for (const row of open) {
    const stamp = deps.now().toISOString();
    const result = results.get(row.supplier_refill_id as string);
    if (!result || isRefillStatusError(result)) {
      await deps.db
        .updateTable('refills')
        .set({ polled_at: stamp, error_message: `Supplier: ${result ? result.error : 'no status'}` })
        .where('id', '=', row.id)
        .execute();
      continue;
    }
    const state = result.status ?? row.state; // an unknown spelling changes nothing
    const final = FINAL_STATES.includes(state) ? 1 : 0;
    await deps.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('refills')
        .set({ state, final, raw_status: result.rawStatus, polled_at: stamp, error_message: null, updated_at: stamp })
        .where('id', '=', row.id)
        .where('final', '=', 0)
        .where('state', '=', row.state)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 1 && state !== row.state) {
        changed += 1;
        await recordOrderEvent(
          trx,
          row.order_id,
          'refill.status_changed',
          { refillId: row.supplier_refill_id, from: row.state, to: state },
          stamp,
        );
      }
    });
  }
  return changed;
}

export async function syncRefillStatuses(
  deps: RefillsDeps,
): Promise<{ checked: number; changed: number; abandoned: number }> {
  const abandoned = await closeStaleRequests(deps, deps.now());
  const openRows = await deps.db
    .selectFrom('refills')
    .innerJoin('orders', 'orders.id', 'refills.order_id')
    .selectAll('refills')
    .select('orders.supplier_panel_id')
    .where('refills.final', '=', 0)
    .where('refills.supplier_refill_id', 'is not', null)
    .orderBy((eb) => eb.fn.coalesce('refills.polled_at', eb.val('')))
    .orderBy('refills.id')
    .limit(MAX_POLL)
    .execute();
  if (openRows.length === 0) return { checked: 0, changed: 0, abandoned };
  const changed = await syncEachPanel(groupByPanel(openRows), (panelId, open) => syncPanelRefills(deps, panelId, open));
  return { checked: openRows.length, changed, abandoned };
}
