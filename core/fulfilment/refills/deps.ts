/** What the refill use cases need, passed in once at boot. */
import type { Kysely, Selectable } from 'kysely';
import type { Database, OrdersTable } from '../../../db/schema.ts';
import { providerOrderIdFrom } from '../../orders/types.ts';
import { REFILL_MESSAGES } from '../../orders/refill-contracts.ts';
import type { SupplierPanels } from '../panels.ts';
import { RefillError, type RefillRow, refillEligibility } from './rules.ts';
import type { ServiceFlagsLookup } from './service-flags.ts';

export interface RefillsDeps {
  db: Kysely<Database>;
  /** Each order's refills and cancels go to the panel it was sold with (decision 045). */
  panels: SupplierPanels;
  /** Whether the panel refills or cancels an order's service (cached: createServiceFlagsCache). */
  serviceFlags: ServiceFlagsLookup;
  /** Signs the /client refill tokens (an install secret). */
  tokenKey: string;
  windowDays: number;
  now: () => Date;
}

export type OrderRow = Selectable<OrdersTable>;

export async function findOrderForRefill(deps: RefillsDeps, providerOrderId: string): Promise<OrderRow> {
  const id = providerOrderIdFrom(providerOrderId.trim());
  const order = await deps.db.selectFrom('orders').selectAll().where('provider_order_id', '=', id).executeTakeFirst();
  if (!order) throw new RefillError(REFILL_MESSAGES.notFound, 404);
  return order;
}

/** Each order's refills, newest first. */
export async function refillsOf(deps: RefillsDeps, orderIds: number[]): Promise<Map<number, RefillRow[]>> {
  const byOrder = new Map<number, RefillRow[]>();
  if (orderIds.length === 0) return byOrder;
  const rows = await deps.db
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

/** The rules applied to one order, asking the panel's service flags only when they can matter. */
export async function eligibilityOf(deps: RefillsDeps, order: OrderRow, rows: RefillRow[], enforceWindow: boolean) {
  const openRefill = rows.some((r) => r.final === 0);
  const needsFlags = order.order_status === 'Completed' && order.supplier_order_id !== null && !openRefill;
  const flags = needsFlags ? await deps.serviceFlags(order) : null;
  return refillEligibility({
    order,
    supportsRefill: flags ? flags.refill : null,
    openRefill,
    nowMs: deps.now().getTime(),
    windowDays: deps.windowDays,
    enforceWindow,
  });
}
