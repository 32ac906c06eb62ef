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
