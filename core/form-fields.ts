/**
 * Field schemas every form of the store shares (order form, order history, admin login), with
 * the caller's wording, and the one rule for characters a text field may hold. They sit
 * outside any domain folder so core/orders and core/auth can both use them without importing
 * each other. Browser-safe.
 */
import { z } from 'zod';
import { isEmail, normaliseEmail } from './email.ts';

// The character rule lives in ./text-rules.ts, without zod, for checks that run in the browser (decision 036).
import { UNSAFE_TEXT_MESSAGE, hasUnsafeCharacters } from './text-rules.ts';

export { UNSAFE_TEXT_CHARACTERS, UNSAFE_TEXT_MESSAGE, hasUnsafeCharacters } from './text-rules.ts';

/** Any text field of a payload: at most `max` characters, none of them unsafe (single-line unless said). */
export function safeText(max: number, options: { multiline?: boolean } = {}) {
  return z
    .string()
    .max(max)
    .refine((value) => !hasUnsafeCharacters(value, options), { error: UNSAFE_TEXT_MESSAGE });
}

/**
 * A required text field: missing, not a string or blank all give `message`; later checks run
 * only on a non-blank value, so each field shows one message at a time.
 */
export function requiredText(message: string, options: { multiline?: boolean } = {}) {
  return z
    .string({ error: message })
    .trim()
    .min(1, { error: message, abort: true })
    .refine((value) => !hasUnsafeCharacters(value, options), { error: UNSAFE_TEXT_MESSAGE, abort: true });
}

/**
 * A required e-mail address in the store's one syntax (core/email.ts), with the caller's
 * wording for "invalid" (the order form and the order history differ); its domain is lowercased.
 */
export function requiredEmail(messages: { required: string; invalid: string }) {
  return requiredText(messages.required).refine(isEmail, { error: messages.invalid }).transform(normaliseEmail);
}

/** A 6-digit one-time code; a number is taken as its digits (leading zeros are then lost, and refused). */
export function oneTimeCodeField(messages: { required: string; format: string }) {
  return z
    .union([z.string().max(100), z.number()], { error: messages.required })
    .transform((value) => String(value).replace(/\s+/g, ''))
    .pipe(requiredText(messages.required).regex(/^\d{6}$/, { error: messages.format }));
}

/**
 * The largest value of a 32-bit INTEGER column (every id and count column on PostgreSQL): a
 * number past it would make the database, not the validation, refuse the request.
 */
export const MAX_INTEGER_COLUMN = 2_147_483_647;

/**
 * A row id from a path, a query or a body: a whole number from 1 to the column's largest value,
 * `message` for anything else (so an id no row can have answers like one no row has).
 */
export function rowId(message: string) {
  return z.coerce.number({ error: message }).int(message).min(1, message).max(MAX_INTEGER_COLUMN, message);
}
