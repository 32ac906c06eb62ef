/**
 * The suppliers page's read model: every panel with its counts, key state, what blocks its
 * removal and the tiers mapped to services it no longer offers; one panel's imported services.
 * A stored panel's key is never read back out: views only say that a key is saved.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { formatAmountE4 } from '../money/money.ts';
import { FINAL_STATUSES } from '../orders/status.ts';
import {
  SUPPLIER_KEY_MISSING_MESSAGE,
  SUPPLIER_KEY_NOT_SET_MESSAGE,
  SUPPLIER_KEY_UNREADABLE_MESSAGE,
} from './panel-keys.ts';
import { type SupplierAdminDeps, SupplierAdminError, panelRow, thresholdText } from './panels-admin-deps.ts';
import { ENVIRONMENT_PANEL_ID } from './supplier-catalogue.ts';
import {
  type PanelView,
  SERVICE_LIST_LIMIT,
  SUPPLIER_MESSAGES,
  type ServiceList,
  type SuppliersPage,
  type TierWarning,
} from './supplier-contracts.ts';

type ListingDeps = Pick<SupplierAdminDeps, 'db' | 'sealer' | 'environmentSource'>;

/** Unfinished orders placed with the panel: not final yet, or with an open refill. */
export async function unfinishedOrders(exec: Kysely<Database>, panelId: number): Promise<number> {
  const row = await exec
    .selectFrom('orders')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('supplier_panel_id', '=', panelId)
    .where((eb) =>
      eb.or([
        eb.and([eb('payment_status', 'in', ['created', 'paid']), eb('order_status', 'not in', [...FINAL_STATUSES])]),
        eb.exists(
          eb
            .selectFrom('refills')
            .select('refills.id')
            .whereRef('refills.order_id', '=', 'orders.id')
            .where('refills.final', '=', 0),
        ),
      ]),
    )
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The price tiers mapped to each panel. */
async function tierCounts({ db }: Pick<SupplierAdminDeps, 'db'>): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('price_tiers')
    .select(['supplier_panel_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .groupBy('supplier_panel_id')
    .execute();
  return new Map(rows.map((r) => [r.supplier_panel_id, Number(r.n)]));
}

/** Each panel's imported services, offered and vanished, and when it was last imported. */
async function serviceCounts({
  db,
}: Pick<SupplierAdminDeps, 'db'>): Promise<Map<number, { live: number; vanished: number; importedAt: string | null }>> {
  const rows = await db
    .selectFrom('supplier_services')
    .select([
      'panel_id',
      sql<number | string>`sum(case when vanished_at is null then 1 else 0 end)`.as('live'),
      sql<number | string>`sum(case when vanished_at is null then 0 else 1 end)`.as('vanished'),
      (eb) => eb.fn.max('imported_at').as('imported_at'),
    ])
    .groupBy('panel_id')
    .execute();
  return new Map(
    rows.map((r) => [
      r.panel_id,
      { live: Number(r.live), vanished: Number(r.vanished), importedAt: r.imported_at ?? null },
    ]),
  );
}

/**
 * The tiers mapped to a service their panel no longer offers ('vanished') or never listed
 * ('unknown'), of one panel or of all, computed on read. Only panels imported at least once
 * count: before an import nothing is known about what the panel offers. The walk reads every
 * price tier (the catalogue's size, not the orders'), each matched on supplier_services' primary
 * key (panel_id, service); no other index is needed.
 */
async function mappingWarnings(
  { db }: Pick<SupplierAdminDeps, 'db'>,
  panelId?: number,
): Promise<(TierWarning & { panelId: number })[]> {
  let query = db
    .selectFrom('price_tiers')
    .innerJoin('plans', 'plans.id', 'price_tiers.plan_id')
    .innerJoin('services', 'services.id', 'plans.service_id')
    .leftJoin('supplier_services', (join) =>
      join
        .onRef('supplier_services.service', '=', 'price_tiers.supplier_service_id')
        .onRef('supplier_services.panel_id', '=', 'price_tiers.supplier_panel_id'),
    )
    .select([
      'price_tiers.supplier_panel_id as panelId',
      'price_tiers.id as tierId',
      'services.name as serviceName',
      'services.slug as serviceSlug',
      'plans.type as planType',
      'price_tiers.qty',
      'price_tiers.supplier_service_id as supplierServiceId',
      'supplier_services.service as known',
    ])
    .where((eb) =>
      eb.or([eb('supplier_services.service', 'is', null), eb('supplier_services.vanished_at', 'is not', null)]),
    )
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('supplier_services as imported')
          .select('imported.service')
          .whereRef('imported.panel_id', '=', 'price_tiers.supplier_panel_id'),
      ),
    );
  if (panelId !== undefined) query = query.where('price_tiers.supplier_panel_id', '=', panelId);
  const rows = await query
    .orderBy('price_tiers.supplier_panel_id')
    .orderBy('services.name')
    .orderBy('plans.type')
    .orderBy('price_tiers.qty')
    .orderBy('price_tiers.id')
    .execute();
  return rows.map((r) => ({
    panelId: r.panelId,
    tierId: r.tierId,
    serviceName: r.serviceName,
    serviceSlug: r.serviceSlug,
    planType: r.planType,
    qty: Number(r.qty),
    supplierServiceId: r.supplierServiceId,
    reason: r.known === null ? ('unknown' as const) : ('vanished' as const),
  }));
}

/** One panel's tiers mapped to a service it no longer offers or never listed. */
export async function panelTierWarnings(deps: Pick<SupplierAdminDeps, 'db'>, panelId: number): Promise<TierWarning[]> {
  return (await mappingWarnings(deps, panelId)).map(({ panelId: _panel, ...warning }) => warning);
}

/** Why a stored panel's saved key cannot be opened now, or null (opening here builds nothing). */
function keyProblem(
  { sealer }: Pick<SupplierAdminDeps, 'sealer'>,
  row: { id: number; kind: string; key_sealed: string | null },
): string | null {
  if (row.kind !== 'stored' || row.key_sealed === null) return null;
  if (!sealer) return SUPPLIER_KEY_NOT_SET_MESSAGE;
  try {
    sealer.open(row.id, row.key_sealed);
    return null;
  } catch {
    return SUPPLIER_KEY_UNREADABLE_MESSAGE;
  }
}

/** The suppliers page: every panel, and whether stored panels can be added. */
export async function suppliersPage(deps: ListingDeps): Promise<SuppliersPage> {
  const { db } = deps;
  const [rows, tiers, services, warnings] = await Promise.all([
    db.selectFrom('supplier_panels').selectAll().orderBy('id').execute(),
    tierCounts(deps),
    serviceCounts(deps),
    mappingWarnings(deps),
  ]);
  const views: PanelView[] = [];
  for (const row of rows) {
    const tierCount = tiers.get(row.id) ?? 0;
    const counts = services.get(row.id);
    let removeBlockedBy: string | null = null;
    if (row.id === ENVIRONMENT_PANEL_ID) removeBlockedBy = SUPPLIER_MESSAGES.environmentNotRemovable;
    else if (tierCount > 0) removeBlockedBy = SUPPLIER_MESSAGES.inUseByTiers(tierCount);
    else {
      const unfinished = await unfinishedOrders(db, row.id);
      if (unfinished > 0) removeBlockedBy = SUPPLIER_MESSAGES.inUseByOrders(unfinished);
    }
    views.push({
      id: row.id,
      name: row.name,
      kind: row.kind,
      source:
        row.kind === 'environment'
          ? deps.environmentSource === 'url'
            ? 'Set by SMM_PANEL_URL'
            : 'Built-in simulated panel'
          : (row.url ?? ''),
      url: row.kind === 'stored' ? row.url : null,
      keySaved: row.kind === 'environment' || row.key_sealed !== null,
      keyProblem: keyProblem(deps, row),
      currency: row.currency,
      lowBalanceThreshold: thresholdText(row.low_balance_threshold_e4),
      lowBalanceAlertedAt: row.low_balance_alerted_at,
      services: counts?.live ?? 0,
      vanishedServices: counts?.vanished ?? 0,
      importedAt: counts?.importedAt ?? null,
      tiers: tierCount,
      removeBlockedBy,
      warnings: warnings
        .filter((warning) => warning.panelId === row.id)
        .map(({ panelId: _panel, ...warning }) => warning),
    });
  }
  return { panels: views, addBlockedBy: deps.sealer ? null : SUPPLIER_KEY_MISSING_MESSAGE };
}

/** One panel as the suppliers page shows it; a 404 refusal when there is none. */
export async function panelView(deps: ListingDeps, panelId: number): Promise<PanelView> {
  const found = (await suppliersPage(deps)).panels.find((p) => p.id === panelId);
  if (!found) throw new SupplierAdminError(SUPPLIER_MESSAGES.notFound, 404);
  return found;
}

/** A panel's imported services, offered ones first, filtered by a search text and a category. */
export async function panelServiceList(
  deps: Pick<SupplierAdminDeps, 'db'>,
  panelId: number,
  filters: { q?: string | undefined; category?: string | undefined },
): Promise<ServiceList> {
  const { db } = deps;
  await panelRow(deps, panelId);
  let query = db.selectFrom('supplier_services').where('panel_id', '=', panelId);
  if (filters.category) query = query.where('category', '=', filters.category);
  const q = filters.q?.toLowerCase();
  if (q) {
    const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) =>
      eb.or([eb('service', '=', filters.q ?? ''), sql<boolean>`lower(name) like ${like} escape '\\'`]),
    );
  }
  const [rows, total, categories, imported] = await Promise.all([
    query
      .selectAll()
      // Offered first, then by category and name (the index's order).
      .orderBy(sql`case when vanished_at is null then 0 else 1 end`)
      .orderBy('category')
      .orderBy('name')
      .orderBy('service')
      .limit(SERVICE_LIST_LIMIT)
      .execute(),
    query.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
    db
      .selectFrom('supplier_services')
      .select('category')
      .distinct()
      .where('panel_id', '=', panelId)
      .where('vanished_at', 'is', null)
      .orderBy('category')
      .execute(),
    db
      .selectFrom('supplier_services')
      .select((eb) => eb.fn.max('imported_at').as('at'))
      .where('panel_id', '=', panelId)
      .executeTakeFirst(),
  ]);
  return {
    panelId,
    services: rows.map((r) => ({
      service: r.service,
      name: r.name,
      type: r.type,
      category: r.category,
      rate: formatAmountE4(Number(r.rate_e4), 4),
      min: Number(r.min),
      max: Number(r.max),
      refill: Number(r.refill) === 1,
      cancel: Number(r.cancel) === 1,
      vanished: r.vanished_at !== null,
    })),
    total: Number(total.n),
    categories: categories.map((c) => c.category),
    importedAt: imported?.at ?? null,
  };
}
