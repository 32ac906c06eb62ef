/**
 * The all-orders row (its shape is ConsoleRowSchema in contracts.ts): which columns it is read
 * from and how a database row becomes one, with the admin actions the server would accept
 * (the rules are core/orders/status.ts's).
 */
import type { Kysely, Selectable } from 'kysely';
import type { Database, OrdersTable } from '../../db/schema.ts';
import { e4ToNumber } from '../money/money.ts';
import { canApplyService, canReorder } from '../orders/status.ts';
import { providerOrderIdFrom, publicOrderId } from '../orders/types.ts';
import { CONSOLE_MESSAGES, ConsoleError } from './console-errors.ts';
import { type SubscriptionRow, laneHolders, rowSubscription, subscriptionsOf } from './console-subscriptions.ts';
import type { ConsoleRow } from './contracts.ts';
import { fulfilmentWords, kindWords } from './order-words.ts';
import { methodLabel, providerLabel } from './payment-words.ts';

export type OrderRow = Selectable<OrdersTable>;

/** The columns a console row is built from. */
export const LIST_COLUMNS = [
  'id',
  'provider_order_id',
  'created_at',
  'email',
  'service_name',
  'target',
  'quantity',
  'amount_e4',
  'currency',
  'payment_status',
  'order_status',
  'supplier_order_id',
  'error_message',
  'needs_review',
  'review_reason',
  'fulfilment_state',
  'pending_action',
  // The action rules (core/orders/status.ts) read it: a refunded order is not sent again.
  'refunded_e4',
  'provider',
  'payment_method',
  'adjustment_e4',
  // What it sells, and the link it holds or waits for at the supplier (decision 057).
  'kind',
  'lane_key',
] as const;
export type ListRow = Pick<OrderRow, (typeof LIST_COLUMNS)[number]>;

/** What a row says beyond its own columns: its subscription's period, the order a queued one waits for. */
export interface RowExtras {
  subscription?: SubscriptionRow | undefined;
  queuedBehind?: string | null | undefined;
  now?: Date | undefined;
}

export function toRow(row: ListRow, extras: RowExtras = {}): ConsoleRow {
  return {
    razorPayOrderId: row.provider_order_id,
    orderId: publicOrderId(row.provider_order_id),
    orderDate: row.created_at,
    email: row.email,
    serviceName: row.service_name,
    name: row.target,
    quantity: row.quantity,
    price: e4ToNumber(row.amount_e4),
    currency: row.currency,
    paymentStatus: row.payment_status,
    orderStatus: row.order_status,
    supplierOrderId: row.supplier_order_id,
    errorMessage: row.error_message,
    needsReview: row.needs_review === 1,
    reviewReason: row.review_reason,
    fulfilmentState: row.fulfilment_state,
    fulfilmentText: fulfilmentWords(row.fulfilment_state, extras.queuedBehind ?? null),
    kind: row.kind,
    kindLabel: kindWords(row.kind),
    subscription: extras.subscription ? rowSubscription(extras.subscription, extras.now ?? new Date()) : null,
    paymentMethod: methodLabel(row.payment_method),
    paymentProvider: providerLabel(row.provider),
    methodAdjustment: e4ToNumber(row.adjustment_e4),
    pendingAction: row.pending_action,
    canReorder: canReorder(row),
    canApplyService: canApplyService(row),
  };
}

/** Rows with their subscriptions and the orders the queued ones wait for: two queries for the lot. */
export async function toRows(db: Kysely<Database>, rows: ListRow[], now = new Date()): Promise<ConsoleRow[]> {
  const [subscriptions, holders] = await Promise.all([
    subscriptionsOf(
      db,
      rows.filter((r) => r.kind !== 'package').map((r) => Number(r.id)),
    ),
    laneHolders(
      db,
      rows.flatMap((r) => (r.fulfilment_state === 'queued' && r.lane_key ? [r.lane_key] : [])),
    ),
  ]);
  return rows.map((row) =>
    toRow(row, {
      subscription: subscriptions.get(Number(row.id)),
      queuedBehind: row.lane_key ? (holders.get(row.lane_key) ?? null) : null,
      now,
    }),
  );
}

/** The console rows of these order ids, in the ids' order (ids that vanished are skipped). */
export async function rowsByIds(db: Kysely<Database>, ids: number[], now = new Date()): Promise<ConsoleRow[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('orders').select(LIST_COLUMNS).where('id', 'in', ids).execute();
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  return toRows(
    db,
    ids.flatMap((id) => {
      const row = byId.get(id);
      return row ? [row] : [];
    }),
    now,
  );
}

/** The order with this provider or public id (with or without `order_`), or ConsoleError 404. */
export async function findOrder(db: Kysely<Database>, providerOrderId: string): Promise<OrderRow> {
  const id = providerOrderIdFrom(String(providerOrderId ?? '').trim());
  const order = await db.selectFrom('orders').selectAll().where('provider_order_id', '=', id).executeTakeFirst();
  if (!order) throw new ConsoleError(CONSOLE_MESSAGES.notFound, 404);
  return order;
}
