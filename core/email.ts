/**
 * The one e-mail address check of the store (order form, order history, admin accounts). It sits
 * outside any domain folder so that core/auth and core/orders can both use it without importing
 * each other.
 */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A plausible address: something@domain.tld, no spaces, at most 254 characters (RFC 5321). */
export function isEmail(value: string): boolean {
  return value.length <= 254 && EMAIL.test(value);
}
