/**
 * The one e-mail address syntax of the store (order form, order history, admin accounts), so
 * the address stored is exactly the address mailed. It sits outside any domain folder so that
 * core/auth and core/orders can both use it without importing each other. Browser-safe.
 *
 * Accepted: `local@domain`, at most 254 characters (RFC 5321's path limit less the brackets),
 * where
 * - the local part (at most 64) is an RFC 5322 dot-atom: atext characters
 *   (letters, digits and ! # $ % & ' * + / = ? ^ _ ` { | } ~ -) in dot-separated runs, no
 *   leading, trailing or double dot. Quoted local parts, spaces, `<`, `>`, `"`, `(`, `,`, `;`,
 *   `\`, control and bidirectional characters are refused: a mailer could read them as another
 *   address, and a person could not check them by eye;
 * - the domain is two or more DNS labels (letters, digits, inner hyphens, at most 63 each) with
 *   an alphabetic top-level label: no IP literals, and internationalised domains in their
 *   ASCII (xn--) form.
 */
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const TOP_LEVEL_LABEL = /^(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59})$/;

const MAX_EMAIL_LENGTH = 254;
const MAX_LOCAL_PART_LENGTH = 64;

/** Whether `value`, exactly as given (callers trim first), is an address in the store's syntax. */
export function isEmail(value: string): boolean {
  if (value.length > MAX_EMAIL_LENGTH) return false;
  const at = value.lastIndexOf('@');
  if (at <= 0) return false;
  const local = value.slice(0, at);
  const labels = value.slice(at + 1).split('.');
  const topLevel = labels.at(-1);
  return (
    local.length <= MAX_LOCAL_PART_LENGTH &&
    LOCAL_PART.test(local) &&
    labels.length >= 2 &&
    labels.every((label) => DOMAIN_LABEL.test(label)) &&
    topLevel !== undefined &&
    TOP_LEVEL_LABEL.test(topLevel)
  );
}

/** The stored form of a valid address: trimmed, with its domain lowercased (domains are case-blind). */
export function normaliseEmail(value: string): string {
  const trimmed = value.trim();
  const at = trimmed.lastIndexOf('@');
  return at <= 0 ? trimmed : `${trimmed.slice(0, at)}@${trimmed.slice(at + 1).toLowerCase()}`;
}
