/**
 * The field rules of ./form-fields.ts in plain code, for the checks that run in the browser
 * (decision 037, after 036): zod and conform cost a form page about 40 KB of gzip JavaScript,
 * a third of the 120 KB first-load budget. Each function gives a field's first problem worded
 * as the schema words it, or undefined; the schemas stay the API's rules, and the property tests
 * in tests/unit/form-checks.test.ts hold each plain check to its schema. Browser-safe.
 */
import { isEmail, normaliseEmail } from './email.ts';
import { UNSAFE_TEXT_MESSAGE, hasUnsafeCharacters } from './text-rules.ts';

/** A check's result: the value the schema would give, or each field's first message. */
export type FormCheck<Field extends string, Value> =
  { ok: true; value: Value } | { ok: false; errors: Partial<Record<Field, string>> };

/** zod's own wording for a string over `.max(max)` where the schema gives none. */
export const tooLongMessage = (max: number) => `Too big: expected string to have <=${max} characters`;

/** `requiredText(message, options)`: blank (after trimming) → `message`; then the character rule. */
export function requiredTextError(value: string, message: string, options: { multiline?: boolean } = {}) {
  const trimmed = value.trim();
  if (trimmed === '') return message;
  return hasUnsafeCharacters(trimmed, options) ? UNSAFE_TEXT_MESSAGE : undefined;
}

/** `safeText(max, options)` on a value that is there (an optional one is absent when empty). */
export function safeTextError(value: string, max: number, options: { multiline?: boolean } = {}) {
  if (value.length > max) return tooLongMessage(max);
  return hasUnsafeCharacters(value, options) ? UNSAFE_TEXT_MESSAGE : undefined;
}

/** `requiredEmail(messages)`: required, the character rule, then the store's e-mail syntax. */
export function requiredEmailError(value: string, messages: { required: string; invalid: string }) {
  const problem = requiredTextError(value, messages.required);
  if (problem) return problem;
  return isEmail(value.trim()) ? undefined : messages.invalid;
}

/** What `requiredEmail` makes of an accepted address. */
export const acceptedEmail = (value: string) => normaliseEmail(value.trim());

/**
 * A code field (`oneTimeCodeField` and the admin login's second factor): over 100 characters is
 * zod's length message; then white space anywhere is dropped, and the rest must be there, pass
 * the character rule and match `pattern`.
 */
export function codeError(value: string, pattern: RegExp, messages: { required: string; format: string }) {
  if (value.length > 100) return tooLongMessage(100);
  const digits = value.replace(/\s+/g, '');
  const problem = requiredTextError(digits, messages.required);
  if (problem) return problem;
  return pattern.test(digits.trim()) ? undefined : messages.format;
}

/** The code as the schema passes it on: white space dropped. */
export const acceptedCode = (value: string) => value.replace(/\s+/g, '').trim();

/** Builds a check's result from each field's problem (in the form's order) and the value to send. */
export function checkResult<Field extends string, Value>(
  problems: ReadonlyArray<readonly [Field, string | undefined]>,
  value: () => Value,
): FormCheck<Field, Value> {
  const errors: Partial<Record<Field, string>> = {};
  for (const [field, problem] of problems) if (problem) errors[field] = problem;
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, value: value() };
}
