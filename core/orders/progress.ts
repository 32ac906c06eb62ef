/**
 * An order's delivery, derived from all of its supplier orders (decision 012): an admin reorder
 * cancels the live supplier order and sends what is still undelivered as a new one, so the order
 * is the sum of its supplier orders, and its status, remains and refund follow from them.
 */
import { e4ToCents } from '../money/money.ts';
import { type FulfilmentState, type OrderStatus, type PendingAction, isFinalStatus } from './status.ts';

/** What the store knows about one supplier order (a supplier_orders row). */
export interface SupplierOrderFacts {
  quantity: number;
  status: OrderStatus;
  remains: number | null;
  /** The supplier reported a final status: nothing more will come of it. */
  final: boolean;
}

/**
 * Units the supplier order delivered (or has delivered so far). Unknown remains count as nothing
 * delivered, except for a Partial, which by definition delivered something the panel did not
 * tell: counted as all delivered, so the store never refunds units that may have been delivered.
 */
export function deliveredBy(order: SupplierOrderFacts): number {
  if (order.status === 'Completed') return order.quantity;
  if (order.remains === null) return order.status === 'Partial' ? order.quantity : 0;
  return Math.max(0, order.quantity - Math.min(Math.max(order.remains, 0), order.quantity));
}

/** What is still undelivered of the ordered quantity, over every supplier order (oldest first). */
export function undeliveredQuantity(quantity: number, supplierOrders: readonly SupplierOrderFacts[]): number {
  const delivered = supplierOrders.reduce((sum, order) => sum + deliveredBy(order), 0);
  return Math.max(0, quantity - delivered);
}

export interface OrderDeliveryState {
  quantity: number;
  order_status: OrderStatus;
  fulfilment_state: FulfilmentState;
  pending_action: PendingAction | null;
}

/**
 * The order's status and remains as its supplier orders say, or null when they say nothing new
 * (no supplier order yet). A live supplier order gives its status (the supplier's Pending is our
 * Processing). When every supplier order is final the order is final only once it is settled: no
 * admin action is pending (a reorder waits for its cancelled order before sending the rest) and
 * the latest submission is not in doubt (submitted, or refused for good). Then one supplier order
 * gives its own final status; several give Completed (nothing undelivered), Canceled (nothing
 * delivered) or Partial.
 */
export function deriveOrderProgress(
  order: OrderDeliveryState,
  supplierOrders: readonly SupplierOrderFacts[],
): { status: OrderStatus; remains: number } | null {
  const latest = supplierOrders.at(-1);
  if (!latest) return null;
  const remains = undeliveredQuantity(order.quantity, supplierOrders);
  const live = supplierOrders.find((supplierOrder) => !supplierOrder.final);
  if (live) return { status: live.status === 'Pending' ? 'Processing' : live.status, remains };
  const settled =
    order.pending_action === null && (order.fulfilment_state === 'submitted' || order.fulfilment_state === 'failed');
  if (!settled) return { status: order.order_status, remains };
  if (supplierOrders.length === 1 && isFinalStatus(latest.status)) return { status: latest.status, remains };
  if (remains === 0) return { status: 'Completed', remains };
  return { status: remains >= order.quantity ? 'Canceled' : 'Partial', remains };
}

/**
 * What a finished order gets back, in e4: the undelivered share of what was paid, in whole cents
 * rounded down, less what was already refunded; never more than was paid.
 */
export function refundDueE4(
  order: { amount_e4: number; quantity: number; refunded_e4: number },
  undelivered: number | null,
): number {
  if (undelivered === null || undelivered <= 0 || order.quantity <= 0) return 0;
  const share = Math.min(undelivered, order.quantity);
  const dueE4 = Math.floor((e4ToCents(order.amount_e4) * share) / order.quantity) * 100;
  return Math.max(0, Math.min(dueE4, order.amount_e4) - order.refunded_e4);
}
