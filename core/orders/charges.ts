/**
 * What an order charged and gave back, in the words every screen and e-mail uses (decision 033):
 * the package price, the "Processing fee" (spec section 9 adds 1 to prices of 1 or less, see
 * chargeAmountE4), the total, and the refund state ("Refunded $12.99 on 23 Nov 2026").
 *
 * Everything is read from the order's stored amounts (orders.price_e4 and amount_e4 are kept
 * apart since the first orders table; refunded_e4 and the refunds row), never recomputed from
 * today's catalogue, so an order shows what was charged then. Browser-safe: no database here.
 */
import { formatMoney } from '../money/money.ts';
import type { PaymentStatus } from './status.ts';

/** The named line for the spec's +1 on small prices. */
export const PROCESSING_FEE_LABEL = 'Processing fee';

/** The fee an order carries: what was charged beyond the package price (never negative). */
export function processingFee(price: number, charged: number): number {
  // Amounts are exact to 4 decimals (core/money); rounding keeps float noise out of the difference.
  return Math.max(0, Math.round((charged - price) * 10_000) / 10_000);
}

/** How the customer's payment stands, refunds included: the label shown beside the order. */
export type PaymentState = 'Paid' | 'Refunded' | 'Partly refunded' | 'Unpaid' | 'Failed' | 'Expired';

export function paymentState(paymentStatus: PaymentStatus, charged: number, refunded: number): PaymentState {
  if (paymentStatus === 'paid') {
    if (refunded <= 0) return 'Paid';
    return refunded >= charged ? 'Refunded' : 'Partly refunded';
  }
  if (paymentStatus === 'created') return 'Unpaid';
  if (paymentStatus === 'fail') return 'Failed';
  return 'Expired';
}

/** "23 Nov 2026", in UTC so the server's HTML and the browser's render agree. */
export function formatRefundDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
}

/**
 * "Refunded $12.99 on 23 Nov 2026" / "Partly refunded $4.20 on 23 Nov 2026", or null when
 * nothing was refunded.
 */
export function describeRefund(
  refund: { charged: number; refunded: number; refundedAt: string | null },
  currency: string,
): string | null {
  if (refund.refunded <= 0) return null;
  const what = refund.refunded >= refund.charged ? 'Refunded' : 'Partly refunded';
  const when = refund.refundedAt ? ` on ${formatRefundDate(refund.refundedAt)}` : '';
  return `${what} ${formatMoney(refund.refunded, currency)}${when}`;
}
