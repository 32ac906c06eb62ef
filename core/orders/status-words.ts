/**
 * The one status tag an order shows on every screen (the confirmation page, /client, the
 * console's lists and detail). Browser-safe: pages bundle it.
 *
 * The spec's tags (pending, processing, in-progress, completed, partial, canceled) describe the
 * supplier's work, so they apply only once the order is paid. An order never paid has no work
 * to describe: calling it "pending" reads as "on its way", so it names what happened to the
 * payment instead. A paid order still waiting for the supplier says the money arrived.
 */
import type { PaymentStatus } from './status.ts';

export interface OrderStatusTag {
  /** Lowercase and hyphenated, as the spec writes status tags ("in-progress"). */
  tag: string;
  /** A short line shown beside the tag, or null. */
  note: string | null;
}

/** What happened to an order that was never paid, in the customer's words. */
export const UNPAID_TAGS: Readonly<Record<Exclude<PaymentStatus, 'paid'>, string>> = {
  created: 'not-paid',
  fail: 'payment-declined',
  expired: 'abandoned',
};

export const PAYMENT_RECEIVED_NOTE = 'Payment received';

function specTag(orderStatus: string): string {
  const tag = orderStatus
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-');
  return tag && tag !== 'created' && tag !== 'unpaid' ? tag : 'pending';
}

export function orderStatusTag(orderStatus: string, paymentStatus: PaymentStatus): OrderStatusTag {
  if (paymentStatus !== 'paid') return { tag: UNPAID_TAGS[paymentStatus], note: null };
  const tag = specTag(orderStatus);
  return { tag, note: tag === 'pending' ? PAYMENT_RECEIVED_NOTE : null };
}
