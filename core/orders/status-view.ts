/** What the confirmation page shows about one order. */
import type { OrderStatusView } from './contracts.ts';
import { orderPath } from '../catalogue/order-path.ts';
import { e4ToNumber } from '../money/money.ts';
import { PAYMENT_METHODS, isPaymentMethodId } from '../payments/methods.ts';
import { type OrderServiceDeps, findOrderByReference } from './order-deps.ts';
import { OrderError, PAYMENT_MESSAGES } from './order-error.ts';
import { maskEmail, publicOrderId } from './types.ts';
import { loadSubscriptionRows, subscriptionViewOf } from './subscription-view.ts';
import { latePaymentView } from './late-payment.ts';

export async function orderStatusView(deps: OrderServiceDeps, orderId: string): Promise<OrderStatusView> {
  const order = await findOrderByReference(deps, orderId.trim());
  if (!order) throw new OrderError(PAYMENT_MESSAGES.orderNotFound, 404);
  const subscriptionRow =
    order.kind === 'package' ? undefined : (await loadSubscriptionRows(deps.db, [order.id])).get(order.id);
  const latePayment = await latePaymentView(deps.db, order);
  return {
    razorPayOrderId: order.provider_order_id,
    orderId: publicOrderId(order.provider_order_id),
    email: maskEmail(order.email),
    serviceName: order.service_name,
    quantity: order.quantity,
    target: order.target,
    amount: e4ToNumber(order.amount_e4),
    price: e4ToNumber(order.price_e4),
    adjustment: e4ToNumber(order.adjustment_e4),
    paymentMethod: isPaymentMethodId(order.payment_method) ? PAYMENT_METHODS[order.payment_method].label : 'Card',
    testMode: order.provider === 'sandbox',
    refunded: e4ToNumber(order.refunded_e4),
    refundedAt: order.refunded_at,
    orderPath: orderPath(order.service_slug, order.quantity, order.plan_type),
    currency: order.currency,
    orderStatus: order.order_status,
    paymentStatus: order.payment_status,
    createdAt: order.created_at,
    // Open to anyone with the link: the words only, never the proof /client's buttons send.
    ...(subscriptionRow ? { subscription: subscriptionViewOf(order, subscriptionRow, deps.now(), null) } : {}),
    ...(latePayment ? { latePayment } : {}),
    ...(order.payment_status === 'expired' ? { placeAgainPath: placeAgainPath(order) } : {}),
  };
}

/**
 * The order page for the same package and account (the `target` a renewal link fills in too): the
 * page prices it from today's catalogue, so an expired order is placed again, never paid as it was.
 */
function placeAgainPath(order: { service_slug: string; quantity: number; plan_type: string; target: string }): string {
  return `${orderPath(order.service_slug, order.quantity, order.plan_type)}&target=${encodeURIComponent(order.target)}`;
}
