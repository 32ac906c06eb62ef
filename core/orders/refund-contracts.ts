/**
 * `POST /api/refunds/address`: the customer's wallet address for a crypto refund, with the token
 * of the e-mailed single-use link (in the body, never the path, so no request log carries it).
 * The rules are ./refund-rules.ts's, which the page checks without zod. Browser-safe.
 */
import { z } from 'zod';
import { UNSAFE_TEXT_MESSAGE, hasUnsafeCharacters } from '../text-rules.ts';
import {
  REFUND_ADDRESS_MAX_LENGTH,
  REFUND_ADDRESS_MIN_LENGTH,
  REFUND_ADDRESS_PATTERN,
  REFUND_FORM_MESSAGES,
} from './refund-rules.ts';

export const RefundAddressBodySchema = z.object({
  token: z
    .string({ error: REFUND_FORM_MESSAGES.tokenInvalid })
    .min(20, REFUND_FORM_MESSAGES.tokenInvalid)
    .max(100, REFUND_FORM_MESSAGES.tokenInvalid),
  address: z
    .string({ error: REFUND_FORM_MESSAGES.addressRequired })
    .trim()
    .min(1, { error: REFUND_FORM_MESSAGES.addressRequired, abort: true })
    .refine((value) => !hasUnsafeCharacters(value), { error: UNSAFE_TEXT_MESSAGE, abort: true })
    .min(REFUND_ADDRESS_MIN_LENGTH, { error: REFUND_FORM_MESSAGES.addressTooShort, abort: true })
    .max(REFUND_ADDRESS_MAX_LENGTH, { error: REFUND_FORM_MESSAGES.addressTooLong, abort: true })
    .regex(REFUND_ADDRESS_PATTERN, REFUND_FORM_MESSAGES.addressCharacters),
});
export type RefundAddressBody = z.input<typeof RefundAddressBodySchema>;

/** What the customer is told once the address is in. */
export const RefundAddressReplySchema = z.object({
  /** Sent: the provider took it. Pending: it is on its way (the provider answers later). */
  sent: z.boolean(),
  amountText: z.string(),
});
export type RefundAddressReply = z.infer<typeof RefundAddressReplySchema>;

export const REFUND_ADDRESS_MESSAGES = {
  sent: 'Thank you: your refund is on its way to that address.',
  pending: 'Thank you: we have your address and will send the refund shortly.',
  refused: 'The payment provider could not send the refund to that address. Please contact us.',
} as const;
