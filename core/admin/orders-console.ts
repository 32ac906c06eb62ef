/**
 * The admin orders console (spec "Admin all-orders"), the one object the server hands to the
 * admin API: the list (orders-search.ts), one order's detail (order-detail.ts), reorder and
 * apply-service (orders-actions.ts) and the CSV export (orders-csv.ts).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { AdminRole } from '../auth/roles.ts';
import type { PaymentGateways } from '../payments/methods.ts';
import { loadOrderDetail } from './order-detail.ts';
import { createOrderActions } from './orders-actions.ts';
import { exportOrdersCsv } from './orders-csv.ts';
import { createOrdersSearch } from './orders-search.ts';

interface OrdersConsoleOptions {
  db: Kysely<Database>;
  now?: () => Date;
  /** The configured payment providers: how each of an order's payments can be refunded. */
  gateways?: PaymentGateways;
  /** Overrides of the size thresholds (tests use tiny ones to reach every code path). */
  limits?: { smallResult?: number; statusScanLimit?: number; exportBatch?: number };
}

export function createOrdersConsole(options: OrdersConsoleOptions) {
  const { db } = options;
  const search = createOrdersSearch({ db, limits: options.limits });
  const actions = createOrderActions({ db, now: options.now });
  return {
    list: search.list,
    detail: (orderId: string, role?: AdminRole) => loadOrderDetail(db, orderId, { gateways: options.gateways, role }),
    reorder: actions.reorder,
    applyService: actions.applyService,
    exportCsv: (query: Parameters<typeof exportOrdersCsv>[1] = {}) =>
      exportOrdersCsv({ db, search, batch: options.limits?.exportBatch }, query),
  };
}

export type OrdersConsole = ReturnType<typeof createOrdersConsole>;
