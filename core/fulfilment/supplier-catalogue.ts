/**
 * The supplier panels and their imported services as the rest of the store reads them
 * (decision 045). Read-only: panels are added, edited and imported in
 * core/fulfilment/panels-admin.ts; the catalogue editor (core/catalogue) maps tiers to what these
 * return. Keys never leave this module's sibling files: nothing here selects `key_sealed`.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { ImportedService, PanelSummary } from '../catalogue/editor.ts';

/** The panel whose URL and key come from the environment (SMM_PANEL_URL / SMM_PANEL_KEY). */
export const ENVIRONMENT_PANEL_ID = 1;

// The shapes are the catalogue editor's (it maps tiers to them and must not import this folder:
// core/fulfilment → core/orders → core/catalogue); this module fills them from the database.
export type { ImportedService, PanelKind, PanelSummary } from '../catalogue/editor.ts';

export interface ImportedServiceRow extends ImportedService {
  importedAt: string;
  /** When an import last found the service missing from the panel; null while it is offered. */
  vanishedAt: string | null;
}

/** Every panel, the environment panel first. */
export async function listPanels(db: Kysely<Database>): Promise<PanelSummary[]> {
  const rows = await db
    .selectFrom('supplier_panels')
    .select(['id', 'name', 'kind', 'currency'])
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, kind: r.kind, currency: r.currency }));
}

/**
 * The services the panel offered at its last import, by category then name. Services the panel
 * no longer offers are left out (listImportedServiceRows has them, marked).
 */
export async function listImportedServices(db: Kysely<Database>, panelId: number): Promise<ImportedService[]> {
  const rows = await listImportedServiceRows(db, panelId, { includeVanished: false });
  return rows.map((r) => ({
    service: r.service,
    name: r.name,
    category: r.category,
    type: r.type,
    rateE4: r.rateE4,
    min: r.min,
    max: r.max,
    refill: r.refill,
    cancel: r.cancel,
  }));
}

type ServiceRow = Database['supplier_services'];

function toRow(r: ServiceRow): ImportedServiceRow {
  return {
    service: r.service,
    name: r.name,
    type: r.type,
    category: r.category,
    rateE4: Number(r.rate_e4),
    min: Number(r.min),
    max: Number(r.max),
    refill: Number(r.refill) === 1,
    cancel: Number(r.cancel) === 1,
    importedAt: r.imported_at,
    vanishedAt: r.vanished_at,
  };
}

export async function listImportedServiceRows(
  db: Kysely<Database>,
  panelId: number,
  options: { includeVanished: boolean },
): Promise<ImportedServiceRow[]> {
  let query = db
    .selectFrom('supplier_services')
    .selectAll()
    .where('panel_id', '=', panelId)
    .orderBy('category')
    .orderBy('name')
    .orderBy('service');
  if (!options.includeVanished) query = query.where('vanished_at', 'is', null);
  return (await query.execute()).map(toRow);
}

/** One imported service of a panel (vanished or not), or null when it was never imported. */
export async function findImportedService(
  db: Kysely<Database>,
  panelId: number,
  service: string,
): Promise<ImportedServiceRow | null> {
  const row = await db
    .selectFrom('supplier_services')
    .selectAll()
    .where('panel_id', '=', panelId)
    .where('service', '=', service)
    .executeTakeFirst();
  return row ? toRow(row) : null;
}
