/**
 * The admin orders console (spec "Admin all-orders"), the one object the server hands to the
 * admin API: the list (orders-search.ts), one order's detail (order-detail.ts), reorder and
 * apply-service (orders-actions.ts) and the CSV export (orders-csv.ts).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { AdminRole } from '../auth/roles.ts';
import type { PaymentGateways } from '../payments/methods.ts';
import { PROVIDER_IDS, type ProviderId } from '../payments/provider.ts';
import { loadOrderDetail } from './order-detail.ts';
import { createOrderActions } from './orders-actions.ts';
import { customerTotals } from './orders-customer.ts';
import { saveOrderNote } from './order-notes.ts';
import { exportOrdersCsv } from './orders-csv.ts';
import { createOrdersSearch } from './orders-search.ts';
import { providerLabel } from './payment-words.ts';

interface OrdersConsoleOptions {
  db: Kysely<Database>;
  now?: () => Date;
  /** The configured payment providers: how each of an order's payments can be refunded. */
  gateways?: PaymentGateways;
  /** Overrides of the size thresholds (tests use tiny ones to reach every code path). */
  limits?: { smallResult?: number; statusScanLimit?: number; exportBatch?: number };
  /** The providers this installation takes money through (the filter offers them before any order). */
  configuredProviders?: readonly ProviderId[];
}

export function createOrdersConsole(options: OrdersConsoleOptions) {
  const { db } = options;
  const search = createOrdersSearch({ db, limits: options.limits, now: options.now });
  const actions = createOrderActions({ db, now: options.now });
  return {
    list: search.list,
    detail: (orderId: string, role?: AdminRole) =>
      loadOrderDetail(db, orderId, { gateways: options.gateways, role, now: options.now?.() }),
    reorder: actions.reorder,
    applyService: actions.applyService,
    /** One customer's totals, for the list filtered by `email`. */
    customerTotals: (email: string) => customerTotals(db, email),
    saveNote: (orderId: string, text: string, by: Omit<Parameters<typeof saveOrderNote>[3], 'at'>) =>
      saveOrderNote(db, orderId, text, { ...by, at: (options.now?.() ?? new Date()).toISOString() }),
    providers: () => providerChoices(db, options.configuredProviders ?? []),
    exportCsv: (query: Parameters<typeof exportOrdersCsv>[1] = {}) =>
      exportOrdersCsv({ db, search, batch: options.limits?.exportBatch, now: options.now }, query),
  };
}

/**
 * The providers the list's filter offers, in PROVIDER_IDS order: those configured, and those any
 * order names (one probe of the provider index each, never a scan).
 */
async function providerChoices(
  db: Kysely<Database>,
  configured: readonly ProviderId[],
): Promise<{ id: ProviderId; label: string }[]> {
  const used = await Promise.all(
    PROVIDER_IDS.map(async (id) =>
      configured.includes(id)
        ? true
        : (await db.selectFrom('orders').select('id').where('provider', '=', id).limit(1).executeTakeFirst()) !==
          undefined,
    ),
  );
  return PROVIDER_IDS.filter((_, i) => used[i]).map((id) => ({ id, label: providerLabel(id) }));
}

export type OrdersConsole = ReturnType<typeof createOrdersConsole>;
