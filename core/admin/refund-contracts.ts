/**
 * The owner's refunds over HTTP, once: `POST /api/admin/orders/{orderId}/refunds` and the order
 * detail's payments and refunds (core/admin/order-refunds.ts builds them). Browser-safe: the
 * order detail page bundles it.
 */
import { z } from 'zod';
import { requiredText } from '../form-fields.ts';
import { REFUND_FORM_MESSAGES, REFUND_REASON_MAX_LENGTH, REFUND_STATE_TEXT } from '../orders/refund-rules.ts';
import { integerColumn } from '../integer-columns.ts';

const REFUND_STATES = Object.keys(REFUND_STATE_TEXT) as [
  keyof typeof REFUND_STATE_TEXT,
  ...(keyof typeof REFUND_STATE_TEXT)[],
];

/** The most one request may ask back: far above any order, low enough that no sum overflows. */
const MAX_REFUND_CENTS = 100_000_000;

export const AdminRefundBodySchema = z.object({
  amountCents: z
    .number({ error: REFUND_FORM_MESSAGES.amountInvalid })
    .int(REFUND_FORM_MESSAGES.amountInvalid)
    .min(1, REFUND_FORM_MESSAGES.amountInvalid)
    .max(MAX_REFUND_CENTS, REFUND_FORM_MESSAGES.amountInvalid),
  reason: requiredText(REFUND_FORM_MESSAGES.reasonRequired).max(
    REFUND_REASON_MAX_LENGTH,
    REFUND_FORM_MESSAGES.reasonTooLong,
  ),
  // Made by the dialog when it opens: its retries and double clicks are the same refund.
  idempotencyKey: z
    .string({ error: REFUND_FORM_MESSAGES.keyInvalid })
    .regex(/^[A-Za-z0-9-]{16,64}$/, REFUND_FORM_MESSAGES.keyInvalid),
  /** The payment to give back; absent: the one that paid the order. */
  orderPaymentId: integerColumn('must be a payment id', 1).optional(),
});
export type AdminRefundBody = z.input<typeof AdminRefundBodySchema>;

/** What the refund came to: its state (in words in the reply's message) and amount. */
export const AdminRefundResultSchema = z.object({
  refundId: z.number().int(),
  state: z.enum(REFUND_STATES),
  /** The state in words ("Refunded", "Refused by the provider"). */
  stateText: z.string(),
  amount: z.number(),
  currency: z.string(),
  /** The provider's reason when it refused or could not be reached; null otherwise. */
  failure: z.string().nullable(),
});
export type AdminRefundResult = z.infer<typeof AdminRefundResultSchema>;

/** One payment received for the order, with what can still be given back. */
export const OrderPaymentEntrySchema = z.object({
  id: z.number().int(),
  /** "Solidgate", "Cryptomus", "Test payments". */
  providerLabel: z.string(),
  /** "Card, Apple Pay or Google Pay", "Crypto". */
  methodLabel: z.string(),
  /** Where a refund of it goes, for the owner's confirmation: "the buyer's card", "the buyer's crypto wallet". */
  destination: z.string(),
  amount: z.number(),
  currency: z.string(),
  /** Paid this order (it is the order's payment), or an extra one to settle. */
  kind: z.enum(['applied', 'second', 'underpaid']),
  /** "Paid this order", "Second payment: refund it", "Underpaid". */
  roleText: z.string(),
  refunded: z.number(),
  /** Not refunded and not being refunded: the most a new refund may ask. */
  left: z.number(),
  /**
   * How the provider gives money back: any amount (more than once), or only the whole payment to
   * a wallet address the customer gives (crypto); null when that provider is no longer configured.
   */
  refunds: z.enum(['any', 'whole-to-address']).nullable(),
  paymentId: z.string(),
  createdAt: z.string(),
});
export type OrderPaymentEntry = z.infer<typeof OrderPaymentEntrySchema>;

/** One refund of the order: automatic, the owner's, or a second payment's. */
export const OrderRefundEntrySchema = z.object({
  id: z.number().int(),
  amount: z.number(),
  currency: z.string(),
  reason: z.string(),
  /** The admin's e-mail, or "Automatic" for the refund of what was not delivered. */
  by: z.string(),
  state: z.enum(REFUND_STATES),
  /** The state in words, with the provider's reason when it refused. */
  stateText: z.string(),
  /** The payment it gives back (OrderPaymentEntry.id); null when that payment is gone. */
  paymentId: z.number().int().nullable(),
  /**
   * An owner's refund the provider has not confirmed: the key its dialog made, so "Try again"
   * asks for that same refund (never a second one); null otherwise.
   */
  retryKey: z.string().nullable(),
  createdAt: z.string(),
  settledAt: z.string().nullable(),
});
export type OrderRefundEntry = z.infer<typeof OrderRefundEntrySchema>;

/** The order detail's money section. */
export const OrderMoneySchema = z.object({
  payments: z.array(OrderPaymentEntrySchema),
  /** Newest first. */
  refunds: z.array(OrderRefundEntrySchema),
  /** A live order at the supplier (In Progress, Processing): the refund dialog offers its cancel first. */
  runningAtSupplier: z.boolean(),
  /** Whether the admin reading the detail may refund (the API refuses the others with 403). */
  canRefund: z.boolean(),
});
export type OrderMoney = z.infer<typeof OrderMoneySchema>;
