/** What an order row means to the rest of the store: its public id, currency, masked e-mail. */

// The status unions and their rules live in status.ts; re-exported for the modules that
// only need the names.
export { type OrderStatus, PAYMENT_STATUSES } from './status.ts';

export const ORDER_CURRENCY = 'USD';

/** "order_Abc123" → "Abc123": the order's public id, its confirmation page's (the spec's shape, whatever the provider). */
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
