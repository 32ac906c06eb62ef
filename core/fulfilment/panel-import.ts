/**
 * Importing a panel's `services`: upserts supplier_services and marks the services the panel no
 * longer lists (`vanished_at`); tiers mapped to a vanished or never-listed service come back as
 * warnings, in the import's reply and on every read of the suppliers page (computed, not stored).
 */
import { panelTierWarnings } from './panel-listing.ts';
import { type SupplierAdminDeps, SupplierAdminError, panelRow, reasonOf } from './panels-admin-deps.ts';
import { type ImportResult, SUPPLIER_MESSAGES } from './supplier-contracts.ts';

/** Rows per insert: well under either database's limit on bound parameters. */
const UPSERT_CHUNK = 200;

/** Asks the panel for `services`, upserts them, marks the ones it no longer lists. */
export async function importPanelServices(
  deps: Pick<SupplierAdminDeps, 'db' | 'panels' | 'now'>,
  panelId: number,
): Promise<ImportResult> {
  await panelRow(deps, panelId);
  let list;
  try {
    list = await (await deps.panels.get(panelId)).services();
  } catch (error) {
    throw new SupplierAdminError(SUPPLIER_MESSAGES.importFailed(reasonOf(error)), 409);
  }
  // Panels have been seen listing one id twice: the last entry wins, as it would on their side.
  const byId = new Map(list.map((s) => [s.service, s]));
  const at = deps.now().toISOString();
  const counts = await deps.db.transaction().execute(async (trx) => {
    const before = new Set(
      (
        await trx
          .selectFrom('supplier_services')
          .select('service')
          .where('panel_id', '=', panelId)
          .where('vanished_at', 'is', null)
          .execute()
      ).map((r) => r.service),
    );
    const rows = [...byId.values()].map((s) => ({
      panel_id: panelId,
      service: s.service,
      name: s.name.slice(0, 500),
      type: s.type.slice(0, 100),
      category: s.category.slice(0, 500),
      rate_e4: s.rateE4,
      min: s.min,
      max: s.max,
      refill: s.refill ? 1 : 0,
      cancel: s.cancel ? 1 : 0,
      imported_at: at,
      vanished_at: null,
    }));
    for (let i = 0; i < rows.length; i += UPSERT_CHUNK) {
      await trx
        .insertInto('supplier_services')
        .values(rows.slice(i, i + UPSERT_CHUNK))
        .onConflict((oc) =>
          oc.columns(['panel_id', 'service']).doUpdateSet((eb) => ({
            name: eb.ref('excluded.name'),
            type: eb.ref('excluded.type'),
            category: eb.ref('excluded.category'),
            rate_e4: eb.ref('excluded.rate_e4'),
            min: eb.ref('excluded.min'),
            max: eb.ref('excluded.max'),
            refill: eb.ref('excluded.refill'),
            cancel: eb.ref('excluded.cancel'),
            imported_at: eb.ref('excluded.imported_at'),
            vanished_at: null,
          })),
        )
        .execute();
    }
    // Whatever this import did not touch is no longer offered.
    const vanished = await trx
      .updateTable('supplier_services')
      .set({ vanished_at: at })
      .where('panel_id', '=', panelId)
      .where('imported_at', '!=', at)
      .where('vanished_at', 'is', null)
      .executeTakeFirst();
    return {
      added: rows.filter((r) => !before.has(r.service)).length,
      vanished: Number(vanished.numUpdatedRows),
    };
  });
  return { imported: byId.size, ...counts, warnings: await panelTierWarnings(deps, panelId) };
}
