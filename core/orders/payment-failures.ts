/**
 * The codes a failed payment is reported with, and the order's message for each, without zod so
 * that the order page's payment window can use them without downloading the schema library
 * (decision 037). ./contracts.ts re-exports them for the API. Browser-safe.
 */

/**
 * `POST /api/order/payment-failed`'s reason: Razorpay Standard Checkout's `error.reason` codes
 * (the `payment.failed` event), and `other` for anything else. A code from this list, never the
 * caller's text, is what the order records (decision 017).
 */
export const PAYMENT_FAILURE_REASONS = [
  'payment_failed',
  'payment_cancelled',
  'payment_timed_out',
  'authentication_failed',
  'card_declined',
  'insufficient_funds',
  'incorrect_otp',
  'invalid_card_details',
  'bank_technical_error',
  'other',
] as const;
export type PaymentFailureReason = (typeof PAYMENT_FAILURE_REASONS)[number];

/** The order's error message for each code (shown in the order history and the admin). */
export const PAYMENT_FAILURE_MESSAGES: Record<PaymentFailureReason, string> = {
  payment_failed: 'Payment failed',
  payment_cancelled: 'Payment cancelled',
  payment_timed_out: 'Payment timed out',
  authentication_failed: 'Payment authentication failed',
  card_declined: 'Card declined',
  insufficient_funds: 'Insufficient funds',
  incorrect_otp: 'Incorrect one-time password',
  invalid_card_details: 'Invalid card details',
  bank_technical_error: 'Bank technical error',
  other: 'Payment failed',
};

const isPaymentFailureReason = (value: unknown): value is PaymentFailureReason =>
  PAYMENT_FAILURE_REASONS.includes(value as PaymentFailureReason);

/** The code the browser reports for the payment window's error (Razorpay's `error.reason`). */
export function paymentFailureReasonOf(reason: string | undefined): PaymentFailureReason {
  return isPaymentFailureReason(reason) ? reason : 'other';
}
