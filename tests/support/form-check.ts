/**
 * The property tests that hold each browser form check (core/…/form-check.ts, decisions 036 and
 * 037) to its API schema share these: the schema's verdict as the pages used to get it (the first
 * message per field), and the generators of awkward text, e-mails and lengths around a limit.
 */
import fc from 'fast-check';
import type { z } from 'zod';

/** conform's parseWithZod, which the pages used before, reads an empty field as absent. */
export function emptyAsAbsent(values: Record<string, string>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [name, value === '' ? undefined : value]));
}

/**
 * The schema's verdict: its value, or the first message of each field (only of `fields` when
 * given: a field the page does not show has no place for a message).
 */
export function schemaVerdict<Field extends string>(
  schema: z.ZodType,
  input: unknown,
  fields?: readonly Field[],
): { ok: true; value: unknown } | { ok: false; errors: Partial<Record<Field, string>> } {
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, value: result.data };
  const errors: Partial<Record<Field, string>> = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0]) as Field;
    if (!fields || fields.includes(field)) errors[field] ??= issue.message;
  }
  return { ok: false, errors };
}

/** Letters, digits, separators, white space of every kind, control and bidi characters, words. */
export const FORM_TEXT_PIECES: readonly string[] = [
  'a',
  'Z',
  '0',
  '1',
  '7',
  '.',
  '@',
  '-',
  '_',
  ' ',
  '\n',
  '\t',
  '\u00A0',
  '\u0000',
  '\u202E',
  'é',
  'example',
  'com',
  'xn--p1ai',
  '123456',
  'abcde',
];

/** Up to `maxLength` of the pieces, joined: the odd characters a form must survive. */
export function textOf(pieces: readonly string[], maxLength = 12): fc.Arbitrary<string> {
  return fc.array(fc.constantFrom(...pieces), { maxLength }).map((parts) => parts.join(''));
}

/** Text, text shaped like an address, real addresses, and any more shapes a suite adds. */
export function emailOf(text: fc.Arbitrary<string>, ...more: fc.Arbitrary<string>[]): fc.Arbitrary<string> {
  return fc.oneof(
    text,
    fc.tuple(text, text).map(([local, domain]) => `${local}@${domain}.com`),
    fc.emailAddress(),
    ...more,
  );
}

/** Text two characters either side of a length limit, padded with spaces, letters or line breaks. */
export function aroundLimit(limit: number): fc.Arbitrary<string> {
  return fc
    .integer({ min: limit - 2, max: limit + 2 })
    .chain((length) =>
      fc.constantFrom(' ', 'x', '\n').map((padding) => `x${padding.repeat(Math.max(0, length - 2))}x`),
    );
}
