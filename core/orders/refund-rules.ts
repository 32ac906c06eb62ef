/**
 * The refund rules the pages and the API share, without zod (the customer's refund page keeps to
 * the first-load budget, decision 036): the owner's reason, the wallet address a customer gives
 * for a crypto refund, and the words a refund's state is shown in. ./refund-contracts.ts builds
 * the API's schemas on them. Browser-safe.
 */
import { UNSAFE_TEXT_MESSAGE, hasUnsafeCharacters } from '../text-rules.ts';

export const REFUND_REASON_MAX_LENGTH = 300;

/**
 * A wallet address: long enough to be a real one (the shortest common ones, such as Bitcoin's,
 * are 26 characters; 20 leaves room for others), short enough for any chain, and only the
 * characters addresses are written in (letters, digits, and the `:` `_` `-` `.` of prefixed
 * forms such as `bitcoincash:` or names such as `alice.eth`). Anything else is a typo or a paste
 * of more than the address, and money sent to a wrong address cannot be called back.
 */
export const REFUND_ADDRESS_MIN_LENGTH = 20;
export const REFUND_ADDRESS_MAX_LENGTH = 120;
export const REFUND_ADDRESS_PATTERN = /^[A-Za-z0-9:_.-]+$/;

export const REFUND_FORM_MESSAGES = {
  addressRequired: 'Enter the wallet address to send your refund to',
  addressTooShort: `A wallet address has at least ${REFUND_ADDRESS_MIN_LENGTH} characters: check that you copied all of it`,
  addressTooLong: `A wallet address has at most ${REFUND_ADDRESS_MAX_LENGTH} characters: copy only the address`,
  addressCharacters:
    'A wallet address has only letters, digits and the characters : _ - . (no spaces): copy only the address',
  tokenInvalid: 'This refund link is not valid any more. Please contact us.',
  reasonRequired: 'Say why you are refunding: the customer reads it',
  reasonTooLong: `Keep the reason to ${REFUND_REASON_MAX_LENGTH} characters`,
  amountInvalid: 'Enter an amount in cents, a whole number above 0',
  keyInvalid: 'idempotencyKey must be 16 to 64 letters, digits or dashes (a UUID)',
} as const;

/** The address field's first problem, as the API's schema words it; undefined when it is fine. */
export function refundAddressError(value: string): string | undefined {
  const trimmed = value.trim();
  if (trimmed === '') return REFUND_FORM_MESSAGES.addressRequired;
  if (hasUnsafeCharacters(trimmed)) return UNSAFE_TEXT_MESSAGE;
  // Counted as zod counts (code points), so the page and the API agree on an emoji.
  const length = [...trimmed].length;
  if (length < REFUND_ADDRESS_MIN_LENGTH) return REFUND_FORM_MESSAGES.addressTooShort;
  if (length > REFUND_ADDRESS_MAX_LENGTH) return REFUND_FORM_MESSAGES.addressTooLong;
  return REFUND_ADDRESS_PATTERN.test(trimmed) ? undefined : REFUND_FORM_MESSAGES.addressCharacters;
}

/** What became of a refund, as the owner reads it (the console and the API's replies). */
export const REFUND_STATE_TEXT = {
  done: 'Refunded',
  awaiting_address: "Waiting for the customer's wallet address",
  pending: 'Sent to the provider, not confirmed yet',
  failed: 'Refused by the provider',
} as const;
export type RefundStateName = keyof typeof REFUND_STATE_TEXT;
