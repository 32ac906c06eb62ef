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

const HIDDEN = '•••';

/**
 * "john.doe@gmail.com" → "jo•••@g•••.com": the confirmation page is open to anyone with its link,
 * so it shows only enough for the buyer to recognise their address (the first letters and the
 * top-level domain), never the provider, the length or the rest. The one masking of an e-mail for
 * a customer's eyes.
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0 || at === email.length - 1) return HIDDEN;
  // Code points, so an emoji or an accented letter is never cut in half.
  const local = Array.from(email.slice(0, at));
  const domain = email.slice(at + 1);
  const dot = domain.lastIndexOf('.');
  const host = Array.from(dot > 0 ? domain.slice(0, dot) : domain);
  const topLevel = dot > 0 ? domain.slice(dot) : '';
  const shown = local.slice(0, local.length >= 4 ? 2 : 1).join('');
  return `${shown}${HIDDEN}@${host[0] ?? ''}${HIDDEN}${topLevel}`;
}
