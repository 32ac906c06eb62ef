/**
 * The order service: checkout (checkout.ts), payment outcomes (payments.ts), the reconciler
 * (reconcile.ts) and the confirmation view (status-view.ts) over one set of deps, for the code
 * that holds them (the API, the loaders, the jobs, the tests). Each use case is a plain function
 * that can be imported on its own; this object only binds the deps.
 */
import { type CreateOrderInput, createOrder } from './checkout.ts';
import type { OrderServiceDeps } from './order-deps.ts';
import { handleWebhook, payableOrder, recordCheckoutFailure, verifyCheckoutPayment } from './payments.ts';
import { checkOrderPayment, reconcilePayments } from './reconcile.ts';
import { orderStatusView } from './status-view.ts';
import { laneNotice } from './lane-notice.ts';

export type OrderServiceOptions = Omit<OrderServiceDeps, 'now'> & { now?: (() => Date) | undefined };

export function createOrderService(options: OrderServiceOptions) {
  const deps: OrderServiceDeps = { ...options, now: options.now ?? (() => new Date()) };
  return {
    create: (input: CreateOrderInput) => createOrder(deps, input),
    verifyPayment: (input: Parameters<typeof verifyCheckoutPayment>[1]) => verifyCheckoutPayment(deps, input),
    paymentFailed: (input: Parameters<typeof recordCheckoutFailure>[1]) => recordCheckoutFailure(deps, input),
    status: (orderId: string) => orderStatusView(deps, orderId),
    payableOrder: (providerOrderId: string) => payableOrder(deps, providerOrderId),
    handleWebhook: (providerId: string, rawBody: Buffer, headers: Parameters<typeof handleWebhook>[3]) =>
      handleWebhook(deps, providerId, rawBody, headers),
    reconcile: (limit?: number) => reconcilePayments(deps, limit),
    checkPayment: (orderId: string) => checkOrderPayment(deps, orderId),
    laneNotice: (slug: string, target: string) => laneNotice(deps, slug, target),
  };
}

export type OrderService = ReturnType<typeof createOrderService>;
