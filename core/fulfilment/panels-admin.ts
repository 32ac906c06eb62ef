/**
 * The owner's supplier panels (decision 045): add, edit and remove stored panels, import each
 * panel's `services`, read their balances, and the low-balance e-mail.
 *
 * - A stored panel is checked before it is saved: the URL and key must answer `balance`, and the
 *   refusal says what failed. Its key is sealed (core/fulfilment/panel-keys.ts) and never read
 *   back out of this module; views only say that a key is saved.
 * - The environment panel (id 1) keeps its URL and key in the environment: only its name and
 *   threshold change here, and it cannot be removed.
 * - Removing is refused while a tier is mapped to the panel or an unfinished order was placed
 *   with it (not yet final, or with an open refill).
 * - Import upserts supplier_services and marks services the panel no longer lists
 *   (`vanished_at`); tiers mapped to a vanished or never-listed service come back as warnings,
 *   in the import's reply and on every read of the page (computed, not stored).
 * - Low balance: a recurring job asks each panel with a threshold; below it, a compare-and-set
 *   on `low_balance_alerted_at` (null → now) decides the one run that e-mails the owners, in the
 *   same transaction as the queued mails; back above, the mark is cleared (re-armed).
 */
import { type Kysely, sql } from 'kysely';
import { isUniqueViolation } from '../../db/dialect.ts';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import { enqueueMail } from '../mail/send-mail-job.ts';
import { renderMail } from '../mail/templates/layout.ts';
import { formatAmountE4, parseAmountE4 } from '../money/money.ts';
import { FINAL_STATUSES } from '../orders/status.ts';
import {
  type PanelKeySealer,
  SUPPLIER_KEY_MISSING_MESSAGE,
  SUPPLIER_KEY_NOT_SET_MESSAGE,
  SUPPLIER_KEY_UNREADABLE_MESSAGE,
} from './panel-keys.ts';
import type { PanelRegistry } from './panels.ts';
import { SmmPanelError } from './smm-panel-client.ts';
import { type BalanceReading, createSupplierBalance } from './supplier-balance.ts';
import { ENVIRONMENT_PANEL_ID } from './supplier-catalogue.ts';
import {
  type AddPanelInput,
  type EditPanelInput,
  type ImportResult,
  type PanelBalance,
  type PanelView,
  SERVICE_LIST_LIMIT,
  SUPPLIER_MESSAGES,
  type ServiceList,
  type SuppliersPage,
  type TierWarning,
} from './supplier-contracts.ts';
import type { SupplierBalance, SupplierPanel } from './supplier.ts';

/** A refusal the API answers with its status and message (`field` names the form field at fault). */
export class SupplierAdminError extends Error {
  readonly expose = true;
  constructor(
    message: string,
    readonly statusCode: 400 | 404 | 409,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'SupplierAdminError';
  }
}

export interface SupplierAdminOptions {
  db: Kysely<Database>;
  panels: PanelRegistry;
  /** Null without SUPPLIER_KEY_ENCRYPTION_KEY: adding or re-keying a stored panel is refused. */
  sealer: PanelKeySealer | null;
  /** Where panel 1 comes from: SMM_PANEL_URL, or the built-in simulated panel. */
  environmentSource: 'url' | 'simulated';
  /** The store's public origin, for the e-mail's link to /admin/suppliers. */
  publicUrl: string;
  now: Clock;
  /** Where failed balance requests are logged (the reading carries a plain sentence). */
  onBalanceError?: ((panelId: number, error: unknown) => void) | undefined;
}

const UPSERT_CHUNK = 200;

/** A panel's reason, without anything that could carry the key (the client never puts it in messages). */
function reasonOf(error: unknown): string {
  if (error instanceof SmmPanelError) {
    switch (error.kind) {
      case 'api':
        return `it answered "${error.message}"`;
      case 'http':
        return `it answered HTTP ${error.status ?? 'error'}${error.status === 404 ? ' (is the URL the API address, e.g. …/api/v2?)' : ''}`;
      case 'timeout':
        return 'it did not answer in time';
      case 'network':
        return 'it could not be reached (check the URL)';
      case 'bad-response':
        return 'its reply was not an SMM panel API v2 reply (check the URL)';
    }
  }
  return 'it could not be asked';
}

/** "-1.5", "100.84", "12.345678" → ten-thousandths (rounded); null when it is not a number. */
export function balanceE4(balance: string): number | null {
  if (!/^-?\d{1,12}(\.\d+)?$/.test(balance.trim())) return null;
  return Math.round(Number(balance.trim()) * 10_000);
}

const thresholdText = (e4: number | null) => (e4 === null ? null : formatAmountE4(Number(e4), 2));

export function createSupplierAdmin(options: SupplierAdminOptions) {
  const { db, panels, sealer } = options;
  const now = () => options.now();

  // ---- Balances: once a minute per panel and instance ---------------------------------------
  const readers = new Map<number, () => Promise<BalanceReading>>();
  function balanceReader(panelId: number) {
    let reader = readers.get(panelId);
    if (!reader) {
      reader = createSupplierBalance({
        ask: async () => (await panels.get(panelId)).balance(),
        now,
        onError: (error) => options.onBalanceError?.(panelId, error),
        onAnswer: (answer) => rememberCurrency(panelId, answer),
      });
      readers.set(panelId, reader);
    }
    return reader;
  }

  async function rememberCurrency(panelId: number, answer: SupplierBalance) {
    if (!answer.currency) return;
    await db
      .updateTable('supplier_panels')
      .set({ currency: answer.currency })
      .where('id', '=', panelId)
      .where((eb) => eb.or([eb('currency', 'is', null), eb('currency', '!=', answer.currency)]))
      .execute();
  }

  async function panelRow(panelId: number) {
    const row = await db.selectFrom('supplier_panels').selectAll().where('id', '=', panelId).executeTakeFirst();
    if (!row) throw new SupplierAdminError(SUPPLIER_MESSAGES.notFound, 404);
    return row;
  }

  /** Asks `balance` with a URL and key not saved yet; refuses with what failed. */
  async function probe(client: SupplierPanel): Promise<SupplierBalance> {
    try {
      return await client.balance();
    } catch (error) {
      throw new SupplierAdminError(SUPPLIER_MESSAGES.probeFailed(reasonOf(error)), 400, 'url');
    }
  }

  /** Unfinished orders placed with the panel: not final yet, or with an open refill. */
  async function unfinishedOrders(exec: Kysely<Database>, panelId: number): Promise<number> {
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

  async function tierCounts(): Promise<Map<number, number>> {
    const rows = await db
      .selectFrom('price_tiers')
      .select(['supplier_panel_id', (eb) => eb.fn.countAll<number | string>().as('n')])
      .groupBy('supplier_panel_id')
      .execute();
    return new Map(rows.map((r) => [r.supplier_panel_id, Number(r.n)]));
  }

  async function serviceCounts(): Promise<Map<number, { live: number; vanished: number; importedAt: string | null }>> {
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
  async function mappingWarnings(panelId?: number): Promise<(TierWarning & { panelId: number })[]> {
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

  const tierWarnings = async (panelId: number): Promise<TierWarning[]> =>
    (await mappingWarnings(panelId)).map(({ panelId: _panel, ...warning }) => warning);

  /** Why a stored panel's saved key cannot be opened now, or null (opening here builds nothing). */
  function keyProblem(row: { id: number; kind: string; key_sealed: string | null }): string | null {
    if (row.kind !== 'stored' || row.key_sealed === null) return null;
    if (!sealer) return SUPPLIER_KEY_NOT_SET_MESSAGE;
    try {
      sealer.open(row.id, row.key_sealed);
      return null;
    } catch {
      return SUPPLIER_KEY_UNREADABLE_MESSAGE;
    }
  }

  const admin = {
    /** The suppliers page: every panel, and whether stored panels can be added. */
    async page(): Promise<SuppliersPage> {
      const [rows, tiers, services, warnings] = await Promise.all([
        db.selectFrom('supplier_panels').selectAll().orderBy('id').execute(),
        tierCounts(),
        serviceCounts(),
        mappingWarnings(),
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
              ? options.environmentSource === 'url'
                ? 'Set by SMM_PANEL_URL'
                : 'Built-in simulated panel'
              : (row.url ?? ''),
          url: row.kind === 'stored' ? row.url : null,
          keySaved: row.kind === 'environment' || row.key_sealed !== null,
          keyProblem: keyProblem(row),
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
      return { panels: views, addBlockedBy: sealer ? null : SUPPLIER_KEY_MISSING_MESSAGE };
    },

    async add(input: AddPanelInput): Promise<PanelView> {
      if (!sealer) throw new SupplierAdminError(SUPPLIER_KEY_MISSING_MESSAGE, 409);
      const taken = await db
        .selectFrom('supplier_panels')
        .select('id')
        .where('name', '=', input.name)
        .executeTakeFirst();
      if (taken) throw new SupplierAdminError(SUPPLIER_MESSAGES.nameTaken, 409, 'name');
      const answer = await probe(panels.probe(input.url, input.apiKey));
      const at = now().toISOString();
      let id: number;
      try {
        id = await db.transaction().execute(async (trx) => {
          const row = await trx
            .insertInto('supplier_panels')
            .values({
              name: input.name,
              kind: 'stored',
              url: input.url,
              key_sealed: null,
              currency: answer.currency || null,
              low_balance_threshold_e4:
                input.lowBalanceThreshold == null ? null : parseAmountE4(input.lowBalanceThreshold),
              low_balance_alerted_at: null,
              created_at: at,
              updated_at: at,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          // Sealed with the row's id as associated data: the id exists only now.
          await trx
            .updateTable('supplier_panels')
            .set({ key_sealed: sealer.seal(row.id, input.apiKey) })
            .where('id', '=', row.id)
            .execute();
          return row.id;
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new SupplierAdminError(SUPPLIER_MESSAGES.nameTaken, 409, 'name');
        throw error;
      }
      return admin.view(id);
    },

    async view(panelId: number): Promise<PanelView> {
      const found = (await admin.page()).panels.find((p) => p.id === panelId);
      if (!found) throw new SupplierAdminError(SUPPLIER_MESSAGES.notFound, 404);
      return found;
    },

    async edit(panelId: number, input: EditPanelInput): Promise<PanelView> {
      const row = await panelRow(panelId);
      const changes: Partial<{
        name: string;
        url: string;
        key_sealed: string;
        low_balance_threshold_e4: number | null;
        low_balance_alerted_at: null;
        currency: string | null;
      }> = {};
      if (input.name !== undefined && input.name !== row.name) {
        const taken = await db
          .selectFrom('supplier_panels')
          .select('id')
          .where('name', '=', input.name)
          .where('id', '!=', panelId)
          .executeTakeFirst();
        if (taken) throw new SupplierAdminError(SUPPLIER_MESSAGES.nameTaken, 409, 'name');
        changes.name = input.name;
      }
      const urlChanged = input.url !== undefined && input.url !== row.url;
      if (row.kind === 'environment' && (urlChanged || input.apiKey !== undefined))
        throw new SupplierAdminError(SUPPLIER_MESSAGES.environmentFixed, 400, input.apiKey ? 'apiKey' : 'url');
      if (row.kind === 'stored' && (urlChanged || input.apiKey !== undefined)) {
        if (!sealer) throw new SupplierAdminError(SUPPLIER_KEY_MISSING_MESSAGE, 409);
        const url = input.url ?? row.url ?? '';
        // A new URL with the saved key: the key is opened here only to ask `balance` with it.
        const key = input.apiKey ?? (row.key_sealed ? sealer.open(panelId, row.key_sealed) : '');
        if (!key) throw new SupplierAdminError(SUPPLIER_MESSAGES.keyRequired, 400, 'apiKey');
        const answer = await probe(panels.probe(url, key));
        if (urlChanged) changes.url = url;
        if (input.apiKey !== undefined) changes.key_sealed = sealer.seal(panelId, input.apiKey);
        changes.currency = answer.currency || row.currency;
      }
      if (input.lowBalanceThreshold !== undefined) {
        const next = input.lowBalanceThreshold === null ? null : parseAmountE4(input.lowBalanceThreshold);
        if (next !== (row.low_balance_threshold_e4 === null ? null : Number(row.low_balance_threshold_e4))) {
          changes.low_balance_threshold_e4 = next;
          // A new threshold is judged afresh: the next check may e-mail again.
          changes.low_balance_alerted_at = null;
        }
      }
      if (Object.keys(changes).length > 0) {
        try {
          await db
            .updateTable('supplier_panels')
            .set({ ...changes, updated_at: now().toISOString() })
            .where('id', '=', panelId)
            .execute();
        } catch (error) {
          if (isUniqueViolation(error)) throw new SupplierAdminError(SUPPLIER_MESSAGES.nameTaken, 409, 'name');
          throw error;
        }
        // The balance is asked again with the new URL or key.
        readers.delete(panelId);
      }
      return admin.view(panelId);
    },

    /** Refused for the environment panel, and while a tier or an unfinished order uses the panel. */
    async remove(panelId: number): Promise<void> {
      const row = await panelRow(panelId);
      if (row.kind === 'environment') throw new SupplierAdminError(SUPPLIER_MESSAGES.environmentNotRemovable, 409);
      await db.transaction().execute(async (trx) => {
        const tiers = Number(
          (
            await trx
              .selectFrom('price_tiers')
              .select((eb) => eb.fn.countAll<number | string>().as('n'))
              .where('supplier_panel_id', '=', panelId)
              .executeTakeFirstOrThrow()
          ).n,
        );
        if (tiers > 0) throw new SupplierAdminError(SUPPLIER_MESSAGES.inUseByTiers(tiers), 409);
        const unfinished = await unfinishedOrders(trx, panelId);
        if (unfinished > 0) throw new SupplierAdminError(SUPPLIER_MESSAGES.inUseByOrders(unfinished), 409);
        await trx.deleteFrom('supplier_services').where('panel_id', '=', panelId).execute();
        await trx.deleteFrom('supplier_panels').where('id', '=', panelId).execute();
      });
      readers.delete(panelId);
    },

    /** Asks the panel for `services`, upserts them, marks the ones it no longer lists. */
    async importServices(panelId: number): Promise<ImportResult> {
      await panelRow(panelId);
      let list;
      try {
        list = await (await panels.get(panelId)).services();
      } catch (error) {
        throw new SupplierAdminError(SUPPLIER_MESSAGES.importFailed(reasonOf(error)), 409);
      }
      // Panels have been seen listing one id twice: the last entry wins, as it would on their side.
      const byId = new Map(list.map((s) => [s.service, s]));
      const at = now().toISOString();
      const counts = await db.transaction().execute(async (trx) => {
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
      return { imported: byId.size, ...counts, warnings: await tierWarnings(panelId) };
    },

    tierWarnings,

    async services(
      panelId: number,
      filters: { q?: string | undefined; category?: string | undefined },
    ): Promise<ServiceList> {
      await panelRow(panelId);
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
    },

    /** Every panel's balance (each asked at most once a minute), for the dashboard and this page. */
    async balances(): Promise<PanelBalance[]> {
      const rows = await db
        .selectFrom('supplier_panels')
        .select(['id', 'name', 'low_balance_threshold_e4'])
        .orderBy('id')
        .execute();
      return Promise.all(
        rows.map(async (row) => ({
          panelId: row.id,
          name: row.name,
          lowBalanceThreshold: thresholdText(row.low_balance_threshold_e4),
          reading: await balanceReader(row.id)(),
        })),
      );
    },

    /**
     * The low-balance job: asks each panel with a threshold (fresh, not the dashboard's cached
     * reading), e-mails the owners once per drop below it, re-arms once it is back above.
     */
    async checkLowBalances(): Promise<{ checked: number; alerted: number; rearmed: number; failed: number }> {
      const rows = await db
        .selectFrom('supplier_panels')
        .select(['id', 'name', 'low_balance_threshold_e4'])
        .where('low_balance_threshold_e4', 'is not', null)
        .orderBy('id')
        .execute();
      const result = { checked: 0, alerted: 0, rearmed: 0, failed: 0 };
      for (const row of rows) {
        const threshold = Number(row.low_balance_threshold_e4);
        let answer: SupplierBalance;
        try {
          answer = await (await panels.get(row.id)).balance();
        } catch (error) {
          result.failed += 1;
          options.onBalanceError?.(row.id, error);
          continue;
        }
        result.checked += 1;
        await rememberCurrency(row.id, answer);
        const balance = balanceE4(answer.balance);
        if (balance === null) {
          result.failed += 1;
          continue;
        }
        if (balance >= threshold) {
          const rearmed = await db
            .updateTable('supplier_panels')
            .set({ low_balance_alerted_at: null })
            .where('id', '=', row.id)
            .where('low_balance_alerted_at', 'is not', null)
            .executeTakeFirst();
          result.rearmed += Number(rearmed.numUpdatedRows);
          continue;
        }
        const at = now();
        const sent = await db.transaction().execute(async (trx) => {
          // The compare-and-set: of two racing runs (two instances, a retried job) one wins.
          const claimed = await trx
            .updateTable('supplier_panels')
            .set({ low_balance_alerted_at: at.toISOString() })
            .where('id', '=', row.id)
            .where('low_balance_alerted_at', 'is', null)
            .where('low_balance_threshold_e4', '=', threshold)
            .executeTakeFirst();
          if (Number(claimed.numUpdatedRows) === 0) return false;
          const owners = await trx
            .selectFrom('admins')
            .select(['id', 'email'])
            .where('role', '=', 'owner')
            .orderBy('id')
            .execute();
          const mail = renderLowBalanceMail({
            panelName: row.name,
            balance: answer.balance,
            currency: answer.currency,
            threshold: formatAmountE4(threshold, 2),
            publicUrl: options.publicUrl,
          });
          for (const owner of owners) {
            await enqueueMail(
              trx,
              { to: owner.email, ...mail },
              { dedupeKey: `low-balance:${row.id}:${at.toISOString()}:${owner.id}`, now: at },
            );
          }
          return true;
        });
        if (sent) result.alerted += 1;
      }
      return result;
    },
  };
  return admin;
}

export type SupplierAdmin = ReturnType<typeof createSupplierAdmin>;

function suppliersPageUrl(publicUrl: string): string {
  try {
    return new URL('/admin/suppliers', publicUrl).toString();
  } catch {
    return '#';
  }
}

export function renderLowBalanceMail(alert: {
  panelName: string;
  balance: string;
  currency: string;
  threshold: string;
  publicUrl: string;
}) {
  const money = (amount: string) => (alert.currency ? `${amount} ${alert.currency}` : amount);
  return renderMail({
    subject: `Boostly: the balance of supplier panel "${alert.panelName}" is low`,
    preheader: `${money(alert.balance)} left, below your threshold of ${money(alert.threshold)}.`,
    heading: 'A supplier balance is low',
    intro: `The balance of the supplier panel "${alert.panelName}" dropped below the threshold you set. Orders it cannot pay for wait and are retried; top it up at the panel.`,
    facts: [
      ['Panel', alert.panelName],
      ['Balance', money(alert.balance)],
      ['Threshold', money(alert.threshold)],
    ],
    button: { label: 'Open suppliers', url: suppliersPageUrl(alert.publicUrl) },
    footer: 'This alert goes to every owner account, once per drop below the threshold.',
  });
}
