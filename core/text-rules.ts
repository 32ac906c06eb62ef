/**
 * The one rule for characters a text field may hold, without zod, so that checks which run in
 * the browser (core/contact/form-check.ts) can use it without downloading the schema library
 * (decision 036). ./form-fields.ts builds its schemas on it and re-exports it. Browser-safe.
 */

/**
 * Characters no text field takes: C0 controls (NUL breaks PostgreSQL text and SQLite's FTS5),
 * DEL, C1 controls, and the bidirectional embeddings, overrides and isolates (U+202A–U+202E,
 * U+2066–U+2069) that make text read differently from what it is. Tab, line feed and carriage
 * return are left to `SINGLE_LINE_BREAKS`: a textarea may hold them.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is this pattern's purpose
export const UNSAFE_TEXT_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;
/** What a single-line field refuses on top of UNSAFE_TEXT_CHARACTERS. */
const SINGLE_LINE_BREAKS = /[\t\n\r]/;

export const UNSAFE_TEXT_MESSAGE = 'Contains control or text-direction characters';

/** Whether a text holds a character no field takes; single-line fields refuse tabs and line breaks too. */
export function hasUnsafeCharacters(value: string, options: { multiline?: boolean } = {}): boolean {
  return UNSAFE_TEXT_CHARACTERS.test(value) || (!options.multiline && SINGLE_LINE_BREAKS.test(value));
}
