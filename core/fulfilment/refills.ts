/**
 * Refills and supplier cancels (issue 14, decision 040).
 *
 * - A customer asks for a refill from /client for a Completed order, within the refill window
 *   (REFILL_WINDOW_DAYS from when it completed), when the supplier service has `refill: true` in
 *   the panel's `services` list. The proof is the one /client already asks for: the order list
 *   came back for the e-mailed code, and each eligible row carries a short-lived HMAC token over
 *   (order, e-mail, expiry) that only that lookup hands out.
 * - One open refill per order: a row in `refills` is inserted before the panel is asked, and the
 *   unique partial index over open rows (final = 0) lets only one insert win, whoever sends it.
 *   The row then moves by compare-and-set: requesting → the panel's status, final once Completed
 *   or Rejected. Every move is on the order's timeline.
 * - The refill statuses are polled by the recurring job `refills.sync` (once per slot across
 *   instances, decision 010) with the panel's multi `refill_status`.
 * - An admin may ask for a refill (any time after completion: support may honour a late claim) or
 *   cancel a running supplier order. An accepted cancel goes the way of decision 012: the
 *   supplier order is marked cancel-requested, its final status (seen now or by the status sync)
 *   re-derives the order, and the existing refund job pays back what was not delivered.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Database, OrdersTable, RefillsTable } from '../../db/schema.ts';
import { recordOrderEvent } from '../orders/timeline.ts';
import { providerOrderIdFrom } from '../orders/types.ts';
import {
  type CustomerRefill,
  REFILL_MESSAGES,
  type RefillEntry,
  type RefillViewState,
  type SupplierActionResult,
  type SupplierActions,
} from '../orders/refill-contracts.ts';
import type { SupplierPanels } from './panels.ts';
import { SmmPanelError, isRetryableSupplierError } from './smm-panel-client.ts';
import {
  REFILL_STATES,
  type RefillState,
  type SupplierOrderStatus,
  type SupplierService,
  isRefillStatusError,
  isSupplierStatusError,
} from './supplier.ts';

type OrderRow = Selectable<OrdersTable>;
type RefillRow = Selectable<RefillsTable>;
type SupplierOrderRow = Selectable<Database['supplier_orders']>;

export const DEFAULT_REFILL_WINDOW_DAYS = 30;
/** How long a /client lookup's refill token is good for. */
export const REFILL_TOKEN_TTL_MS = 60 * 60 * 1000;
/** The panel's service list is asked at most this often (and after a failure, once a minute). */
const SERVICES_TTL_MS = 60 * 60 * 1000;
const SERVICES_RETRY_MS = 60 * 1000;
/** A refill still 'requesting' after this long lost its answer (a crash mid-call): closed as not sent. */
const STALE_REQUEST_MS = 10 * 60 * 1000;
const MAX_POLL = 100;
const DAY_MS = 86_400_000;

const FINAL_STATES: readonly string[] = ['Completed', 'Rejected'];

/** A refusal for the customer or admin: the API answers with its status and message. */
export class RefillError extends Error {
  /** Read by the API's error handler. */
  readonly expose = true;
  constructor(
    message: string,
    readonly statusCode: 400 | 403 | 404 | 409,
  ) {
    super(message);
    this.name = 'RefillError';
  }
}

export interface RefillsOptions {
  db: Kysely<Database>;
  /** Each order's refills and cancels go to the panel it was sold with (decision 045). */
  panels: SupplierPanels;
  /** Records a supplier status and re-derives the order (fulfilment.applyStatus): the refund path. */
  applyStatus: (supplierOrder: SupplierOrderRow, result: SupplierOrderStatus) => Promise<boolean>;
  /** Signs the /client refill tokens (an install secret). */
  tokenKey: string;
  windowDays?: number;
  now?: (() => Date) | undefined;
}

type Who = { kind: 'customer' } | { kind: 'admin'; adminId: number | null };

/** "12 Dec 2026", in UTC (the same on the server and in the report). */
export function formatRefillDate(ms: number): string {
  return new Date(ms).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
}

/**
 * Whether an order may be refilled, and why not: the rules in one pure function. `supportsRefill`
 * is the panel's flag for the order's service (null: the list could not be read).
 */
export function refillEligibility(input: {
  order: Pick<OrderRow, 'order_status' | 'payment_status' | 'completed_at' | 'supplier_order_id'>;
  supportsRefill: boolean | null;
  openRefill: boolean;
  nowMs: number;
  windowDays: number;
  /** Admins are not held to the window. */
  enforceWindow: boolean;
}): { allowed: boolean; reason: string | null; windowEndsAt: string | null } {
  const { order } = input;
  const completedMs = order.completed_at ? Date.parse(order.completed_at) : Number.NaN;
  const windowEndsMs = Number.isNaN(completedMs) ? null : completedMs + input.windowDays * DAY_MS;
  const windowEndsAt = windowEndsMs === null ? null : new Date(windowEndsMs).toISOString();
  const no = (reason: string) => ({ allowed: false, reason, windowEndsAt });
  if (order.payment_status !== 'paid' || order.order_status !== 'Completed') return no(REFILL_MESSAGES.notCompleted);
  if (!order.supplier_order_id) return no(REFILL_MESSAGES.noSupplierOrder);
  if (input.openRefill) return no(REFILL_MESSAGES.alreadyOpen);
  if (input.enforceWindow && windowEndsMs !== null && input.nowMs > windowEndsMs) {
    return no(REFILL_MESSAGES.windowEnded(formatRefillDate(windowEndsMs)));
  }
  if (input.supportsRefill === null) return no(REFILL_MESSAGES.servicesUnknown);
  if (!input.supportsRefill) return no(REFILL_MESSAGES.notSupported);
  return { allowed: true, reason: null, windowEndsAt };
}

function entryOf(row: RefillRow): RefillEntry {
  const state: RefillViewState = (REFILL_STATES as readonly string[]).includes(row.state)
    ? (row.state as RefillState)
    : 'Requested';
  return {
    state,
    supplierRefillId: row.supplier_refill_id,
    requestedBy: row.requested_by,
    requestedAt: row.created_at,
    updatedAt: row.updated_at,
    note: row.error_message,
  };
}

/** True when the insert failed on the one-open-refill index (both dialects' wording). */
function isUniqueViolation(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  const text = `${error.message} ${typeof code === 'string' ? code : ''}`;
  return /UNIQUE constraint failed|duplicate key value|23505|SQLITE_CONSTRAINT/i.test(text);
}

export function createRefills(options: RefillsOptions) {
  const { db, panels } = options;
  const now = () => options.now?.() ?? new Date();
  const windowDays = options.windowDays ?? DEFAULT_REFILL_WINDOW_DAYS;

  // ---- Each panel's service flags, cached: no panel call per page view. ---------------------
  type ServiceList = { at: number; ok: boolean; byId: Map<string, SupplierService> };
  const servicesByPanel = new Map<number, ServiceList>();
  const loadingByPanel = new Map<number, Promise<void>>();
  async function serviceFlags(
    order: Pick<OrderRow, 'supplier_panel_id' | 'supplier_service_id'>,
  ): Promise<{ refill: boolean; cancel: boolean } | null> {
    const panelId = order.supplier_panel_id;
    const at = now().getTime();
    const cached = servicesByPanel.get(panelId);
    const fresh = cached && at - cached.at < (cached.ok ? SERVICES_TTL_MS : SERVICES_RETRY_MS);
    if (!fresh) {
      // One request per panel at a time, however many lookups arrive while it runs.
      let loading = loadingByPanel.get(panelId);
      if (!loading) {
        loading = panels
          .get(panelId)
          .then((panel) => panel.services())
          .then(
            (list) => {
              servicesByPanel.set(panelId, {
                at: now().getTime(),
                ok: true,
                byId: new Map(list.map((s) => [s.service, s])),
              });
            },
            () => {
              // Keep the last good list if there is one; otherwise "unknown" for a minute.
              const last = servicesByPanel.get(panelId);
              servicesByPanel.set(
                panelId,
                last?.ok
                  ? { ...last, at: now().getTime() - SERVICES_TTL_MS + SERVICES_RETRY_MS }
                  : { at: now().getTime(), ok: false, byId: new Map() },
              );
            },
          )
          .finally(() => {
            loadingByPanel.delete(panelId);
          });
        loadingByPanel.set(panelId, loading);
      }
      await loading;
    }
    const services = servicesByPanel.get(panelId);
    if (!services?.ok) return null;
    const service = services.byId.get(order.supplier_service_id);
    return service ? { refill: service.refill, cancel: service.cancel } : { refill: false, cancel: false };
  }

  // ---- Tokens: the /client proof, per order. -------------------------------------------------
  const sign = (providerOrderId: string, email: string, expires: number) =>
    createHmac('sha256', options.tokenKey)
      .update(`refill\n${providerOrderId}\n${email.toLowerCase()}\n${expires}`)
      .digest('base64url');

  function issueToken(providerOrderId: string, email: string): string {
    const expires = now().getTime() + REFILL_TOKEN_TTL_MS;
    return `${expires}.${sign(providerOrderId, email, expires)}`;
  }

  function tokenValid(token: string, order: Pick<OrderRow, 'provider_order_id' | 'email'>): boolean {
    const [expiresText, signature] = token.split('.');
    if (!expiresText || !signature || !/^\d{1,15}$/.test(expiresText)) return false;
    const expires = Number(expiresText);
    if (expires < now().getTime()) return false;
    const expected = Buffer.from(sign(order.provider_order_id, order.email, expires));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  // ---- Reads ---------------------------------------------------------------------------------
  async function refillsOf(orderIds: number[]): Promise<Map<number, RefillRow[]>> {
    const byOrder = new Map<number, RefillRow[]>();
    if (orderIds.length === 0) return byOrder;
    const rows = await db
      .selectFrom('refills')
      .selectAll()
      .where('order_id', 'in', orderIds)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    for (const row of rows) {
      const list = byOrder.get(row.order_id) ?? [];
      list.push(row);
      byOrder.set(row.order_id, list);
    }
    return byOrder;
  }

  async function eligibility(order: OrderRow, rows: RefillRow[], enforceWindow: boolean) {
    const openRefill = rows.some((r) => r.final === 0);
    // Only ask about the service when the order could otherwise be refilled.
    const needsFlags = order.order_status === 'Completed' && order.supplier_order_id !== null && !openRefill;
    const flags = needsFlags ? await serviceFlags(order) : null;
    return refillEligibility({
      order,
      supportsRefill: flags ? flags.refill : null,
      openRefill,
      nowMs: now().getTime(),
      windowDays,
      enforceWindow,
    });
  }

  async function findOrder(providerOrderId: string): Promise<OrderRow> {
    const id = providerOrderIdFrom(providerOrderId.trim());
    const order = await db.selectFrom('orders').selectAll().where('provider_order_id', '=', id).executeTakeFirst();
    if (!order) throw new RefillError(REFILL_MESSAGES.notFound, 404);
    return order;
  }

  async function liveSupplierOrder(orderId: number) {
    return db
      .selectFrom('supplier_orders')
      .selectAll()
      .where('order_id', '=', orderId)
      .where('final', '=', 0)
      .orderBy('id', 'desc')
      .executeTakeFirst();
  }

  // ---- The request -----------------------------------------------------------------------------
  /** Inserts the open row (the race is decided here), asks the panel, records its answer. */
  async function request(order: OrderRow, who: Who): Promise<{ accepted: boolean; answer: string; row: RefillRow }> {
    const rows = (await refillsOf([order.id])).get(order.id) ?? [];
    const check = await eligibility(order, rows, who.kind === 'customer');
    if (!check.allowed) throw new RefillError(check.reason ?? REFILL_MESSAGES.notCompleted, 409);
    const supplierOrderId = order.supplier_order_id as string;
    // The order's own panel, resolved before the open row exists (a removed panel leaves none behind).
    const supplier = await panels.get(order.supplier_panel_id);

    const at = now().toISOString();
    let refillId: number;
    try {
      refillId = await db.transaction().execute(async (trx) => {
        const { id } = await trx
          .insertInto('refills')
          .values({
            order_id: order.id,
            supplier_order_id: supplierOrderId,
            supplier_refill_id: null,
            state: 'requesting',
            raw_status: null,
            requested_by: who.kind,
            admin_id: who.kind === 'admin' ? who.adminId : null,
            error_message: null,
            created_at: at,
            updated_at: at,
            polled_at: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await recordOrderEvent(
          trx,
          order.id,
          'refill.requested',
          { by: who.kind, ...(who.kind === 'admin' ? { adminId: who.adminId } : {}), supplierOrderId },
          at,
        );
        return Number(id);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new RefillError(REFILL_MESSAGES.alreadyOpen, 409);
      throw error;
    }

    let outcome: { state: string; final: number; refill: string | null; note: string | null };
    try {
      const { refill } = await supplier.refill(supplierOrderId);
      outcome = { state: 'Pending', final: 0, refill, note: null };
    } catch (error) {
      const note =
        error instanceof SmmPanelError && error.kind === 'api'
          ? error.message
          : REFILL_MESSAGES.unreachable(error instanceof Error ? error.message : String(error));
      if (!(error instanceof SmmPanelError)) throw error;
      outcome = { state: 'Rejected', final: 1, refill: null, note };
    }
    const done = now().toISOString();
    const row = await db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('refills')
        .set({
          state: outcome.state,
          final: outcome.final,
          supplier_refill_id: outcome.refill,
          raw_status: outcome.refill ? 'Pending' : null,
          error_message: outcome.note,
          updated_at: done,
        })
        .where('id', '=', refillId)
        .where('state', '=', 'requesting')
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 1) {
        await recordOrderEvent(
          trx,
          order.id,
          outcome.refill ? 'refill.accepted' : 'refill.rejected',
          outcome.refill ? { refillId: outcome.refill } : { reason: outcome.note },
          done,
        );
      }
      return trx.selectFrom('refills').selectAll().where('id', '=', refillId).executeTakeFirstOrThrow();
    });
    const answer = outcome.refill ? `Refill ${outcome.refill} requested at the supplier` : (outcome.note ?? '');
    return { accepted: outcome.refill !== null, answer, row };
  }

  // ---- Admin ---------------------------------------------------------------------------------
  async function adminActions(order: OrderRow): Promise<SupplierActions> {
    const rows = (await refillsOf([order.id])).get(order.id) ?? [];
    const refill = await eligibility(order, rows, false);
    const cancel = await cancelCheck(order);
    return {
      refill: { allowed: refill.allowed, reason: refill.reason },
      cancel: cancel.allowed ? { allowed: true, reason: null } : { allowed: false, reason: cancel.reason },
      refills: rows.map(entryOf),
    };
  }

  async function cancelCheck(
    order: OrderRow,
  ): Promise<{ allowed: true; live: SupplierOrderRow } | { allowed: false; reason: string }> {
    if (order.payment_status !== 'paid') return { allowed: false, reason: REFILL_MESSAGES.notPaid };
    const live = await liveSupplierOrder(order.id);
    if (!live) return { allowed: false, reason: REFILL_MESSAGES.cancelRefused };
    if (live.cancel_requested_at !== null) return { allowed: false, reason: REFILL_MESSAGES.cancelPending };
    if (order.pending_action !== null) return { allowed: false, reason: REFILL_MESSAGES.cancelActionPending };
    const flags = await serviceFlags(order);
    // Unknown flags (panel list unreadable): let the panel decide.
    if (flags && !flags.cancel) return { allowed: false, reason: REFILL_MESSAGES.cancelNotSupported };
    return { allowed: true, live };
  }

  /** The refill section of each Completed order in a verified /client lookup, by provider order id. */
  async function customerViews(email: string, providerOrderIds: string[]): Promise<Map<string, CustomerRefill>> {
    const views = new Map<string, CustomerRefill>();
    if (providerOrderIds.length === 0) return views;
    const orders = await db
      .selectFrom('orders')
      .selectAll()
      .where('email', '=', email)
      .where('order_status', '=', 'Completed')
      .where('provider_order_id', 'in', providerOrderIds)
      .execute();
    const byOrder = await refillsOf(orders.map((o) => o.id));
    for (const order of orders) {
      const rows = byOrder.get(order.id) ?? [];
      const check = await eligibility(order, rows, true);
      const latest = rows[0];
      views.set(order.provider_order_id, {
        latest: latest ? entryOf(latest) : null,
        canRequest: check.allowed,
        // "Only completed orders…" cannot happen here; the other reasons help the customer.
        reason: check.reason,
        windowEndsAt: check.windowEndsAt,
        token: check.allowed ? issueToken(order.provider_order_id, order.email) : null,
      });
    }
    return views;
  }

  return {
    /** The refill section of each Completed order in a verified /client lookup, by provider order id. */
    customerViews,

    /** The customer's "Request refill": the token proves the order list was read with the code. */
    async requestByCustomer(providerOrderId: string, token: string): Promise<CustomerRefill> {
      const order = await findOrder(providerOrderId).catch(() => {
        // Same answer as a bad token: the endpoint says nothing about which orders exist.
        throw new RefillError(REFILL_MESSAGES.badToken, 403);
      });
      if (!tokenValid(token, order)) throw new RefillError(REFILL_MESSAGES.badToken, 403);
      await request(order, { kind: 'customer' });
      const views = await customerViews(order.email, [order.provider_order_id]);
      const view = views.get(order.provider_order_id);
      if (!view) throw new RefillError(REFILL_MESSAGES.notCompleted, 409);
      return view;
    },

    async adminActions(providerOrderId: string): Promise<SupplierActions> {
      return adminActions(await findOrder(providerOrderId));
    },

    async requestByAdmin(providerOrderId: string, adminId: number | null): Promise<SupplierActionResult> {
      const order = await findOrder(providerOrderId);
      const { accepted, answer } = await request(order, { kind: 'admin', adminId });
      return { accepted, answer, actions: await adminActions(order) };
    },

    /**
     * "Cancel at supplier": compare-and-set on the live supplier order's cancel mark (two admins,
     * two clicks: one call to the panel), then the panel's answer. Accepted: the final status is
     * asked for at once and applied through fulfilment (decision 012's refund of what was not
     * delivered); the status sync does it later otherwise.
     */
    async cancelByAdmin(providerOrderId: string, adminId: number | null): Promise<SupplierActionResult> {
      const order = await findOrder(providerOrderId);
      const check = await cancelCheck(order);
      if (!check.allowed) throw new RefillError(check.reason, 409);
      const { live } = check;
      const supplier = await panels.get(order.supplier_panel_id);
      const at = now().toISOString();
      const marked = await db
        .updateTable('supplier_orders')
        .set({ cancel_requested_at: at })
        .where('id', '=', live.id)
        .where('final', '=', 0)
        .where('cancel_requested_at', 'is', null)
        .executeTakeFirst();
      if (Number(marked.numUpdatedRows) === 0) throw new RefillError(REFILL_MESSAGES.cancelPending, 409);

      let refusal: string | null;
      try {
        const [result] = await supplier.cancel([live.supplier_order_id]);
        refusal = !result
          ? 'The supplier sent no answer for this order'
          : result.cancelled
            ? null
            : (result.error ?? 'Not cancelled');
      } catch (error) {
        if (!(error instanceof SmmPanelError)) throw error;
        refusal = isRetryableSupplierError(error) ? REFILL_MESSAGES.unreachable(error.message) : error.message;
      }
      const done = now().toISOString();
      if (refusal !== null) {
        await db.transaction().execute(async (trx) => {
          await trx
            .updateTable('supplier_orders')
            .set({ cancel_requested_at: null })
            .where('id', '=', live.id)
            .where('cancel_requested_at', '=', at)
            .execute();
          await recordOrderEvent(
            trx,
            order.id,
            'supplier.cancel_refused',
            { supplierOrderId: live.supplier_order_id, reason: refusal, by: 'admin', adminId },
            done,
          );
        });
        return { accepted: false, answer: refusal, actions: await adminActions(order) };
      }
      await recordOrderEvent(
        db,
        order.id,
        'supplier.cancel_requested',
        { supplierOrderId: live.supplier_order_id, by: 'admin', adminId },
        done,
      );
      // Most panels cancel at once: apply the final status now (refund included) if it is there.
      try {
        const result = (await supplier.statuses([live.supplier_order_id])).get(live.supplier_order_id);
        if (result && !isSupplierStatusError(result)) {
          const fresh = await db
            .selectFrom('supplier_orders')
            .selectAll()
            .where('id', '=', live.id)
            .executeTakeFirstOrThrow();
          await options.applyStatus(fresh, result);
        }
      } catch (error) {
        if (!(error instanceof SmmPanelError)) throw error; // the sync asks again
      }
      const fresh = await findOrder(order.provider_order_id);
      return {
        accepted: true,
        answer: `The supplier accepted the cancel of order ${live.supplier_order_id}`,
        actions: await adminActions(fresh),
      };
    },

    /**
     * Job `refills.sync`: asks the panel about open refills (least recently asked first, up to
     * 100 in one multi `refill_status`) and moves each by compare-and-set, with a timeline entry
     * per change. Refills whose `refill` call never got an answer are closed after 10 minutes.
     */
    async syncStatuses(): Promise<{ checked: number; changed: number; abandoned: number }> {
      const at = now();
      const staleBefore = new Date(at.getTime() - STALE_REQUEST_MS).toISOString();
      const stale = await db
        .selectFrom('refills')
        .select(['id', 'order_id'])
        .where('final', '=', 0)
        .where('state', '=', 'requesting')
        .where('created_at', '<', staleBefore)
        .execute();
      let abandoned = 0;
      for (const row of stale) {
        await db.transaction().execute(async (trx) => {
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

      const openRows = await db
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
      // One `refill_status` call per panel: refill ids are each panel's own.
      const byPanel = new Map<number, RefillRow[]>();
      for (const { supplier_panel_id: panelId, ...row } of openRows) {
        byPanel.set(panelId, [...(byPanel.get(panelId) ?? []), row]);
      }
      let changed = 0;
      let firstFailure: Error | null = null;
      for (const [panelId, open] of byPanel) {
        try {
          changed += await syncPanelRefills(panelId, open);
        } catch (error) {
          // One panel down must not stop the others; the job still fails (and logs) afterwards.
          firstFailure ??= error instanceof Error ? error : new Error(String(error));
        }
      }
      if (firstFailure !== null) throw firstFailure;
      return { checked: openRows.length, changed, abandoned };
    },
  };

  /** Asks one panel about its open refills and moves each by compare-and-set; returns how many changed. */
  async function syncPanelRefills(panelId: number, open: RefillRow[]): Promise<number> {
    const supplier = await panels.get(panelId);
    const results = await supplier.refillStatuses(open.map((r) => r.supplier_refill_id as string));
    let changed = 0;
    for (const row of open) {
      const stamp = now().toISOString();
      const result = results.get(row.supplier_refill_id as string);
      if (!result || isRefillStatusError(result)) {
        await db
          .updateTable('refills')
          .set({ polled_at: stamp, error_message: `Supplier: ${result ? result.error : 'no status'}` })
          .where('id', '=', row.id)
          .execute();
        continue;
      }
      const state = result.status ?? row.state; // an unknown spelling changes nothing
      const final = FINAL_STATES.includes(state) ? 1 : 0;
      await db.transaction().execute(async (trx) => {
        const updated = await trx
          .updateTable('refills')
          .set({
            state,
            final,
            raw_status: result.rawStatus,
            polled_at: stamp,
            error_message: null,
            updated_at: stamp,
          })
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
}

export type Refills = ReturnType<typeof createRefills>;
