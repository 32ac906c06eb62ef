/**
 * Field schemas every form of the store shares (order form, order history, admin login), with
 * the caller's wording. They sit outside any domain folder so core/orders and core/auth can
 * both use them without importing each other. Browser-safe.
 */
import { z } from 'zod';
import { isEmail } from './email.ts';

/**
 * A required text field: missing, not a string or blank all give `message`; later checks run
 * only on a non-blank value, so each field shows one message at a time.
 */
export function requiredText(message: string) {
  return z.string({ error: message }).trim().min(1, { error: message, abort: true });
}

/** A required e-mail address, with the caller's wording for "invalid" (the order form and the order history differ). */
export function requiredEmail(messages: { required: string; invalid: string }) {
  return requiredText(messages.required).refine(isEmail, { error: messages.invalid });
}

/** A 6-digit one-time code; a number is taken as its digits (leading zeros are then lost, and refused). */
export function oneTimeCodeField(messages: { required: string; format: string }) {
  return z
    .union([z.string().max(100), z.number()], { error: messages.required })
    .transform((value) => String(value).replace(/\s+/g, ''))
    .pipe(requiredText(messages.required).regex(/^\d{6}$/, { error: messages.format }));
}
