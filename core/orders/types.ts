/** Order and payment states (spec section 4) and what an order row means to the rest of the store. */

/** The spec's order statuses; a new, unpaid order is Pending. */
export const ORDER_STATUSES = ['Completed', 'In Progress', 'Partial', 'Processing', 'Canceled', 'Pending'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/**
 * created: waiting for the buyer to pay; paid: money taken (exactly once); fail: the buyer's
 * payment attempt failed (a later payment can still succeed); expired: abandoned, never paid.
 */
export const PAYMENT_STATUSES = ['created', 'paid', 'fail', 'expired'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** Payment states from which a verified payment may still mark the order paid. */
export const PAYABLE_STATUSES: PaymentStatus[] = ['created', 'fail', 'expired'];

export const ORDER_CURRENCY = 'USD';

/** "order_Abc123" → "Abc123": the confirmation page's id (spec: the provider id without its prefix). */
export function publicOrderId(providerOrderId: string): string {
  return providerOrderId.replace(/^order_/, '');
}

export function providerOrderIdFrom(publicId: string): string {
  return publicId.startsWith('order_') ? publicId : `order_${publicId}`;
}

/** "john.doe@example.com" → "j******e@example.com": the confirmation page is open to anyone with the link. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '***';
  const local = email.slice(0, at);
  const masked =
    local.length <= 2 ? `${local[0]}*` : `${local[0]}${'*'.repeat(Math.min(local.length - 2, 6))}${local.at(-1)}`;
  return `${masked}${email.slice(at)}`;
}
