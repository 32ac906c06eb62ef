/**
 * The free-followers preview (spec "Static mock-ups"; docs/decisions/028-mock-up-pages.md):
 * the package list it shows and the rules its form checks. The store gives no followers away,
 * so nothing here reaches an order; the page only validates and says so. Browser-safe.
 */
import { parseInstagramUsername } from '../verification/parse.ts';

/** The spec's "placeholder 10-350000": the whole numbers the quantity field takes. */
export const FREE_FOLLOWERS_MIN = 10;
export const FREE_FOLLOWERS_MAX = 350_000;

interface FreeTrialPackage {
  qty: number;
  /** What the package would cost, in whole rupees (the spec prices this list in rupees). */
  priceInr: number;
}

/** The spec's package list, 100 to 15000 followers, each shown as a free trial of its rupee price. */
export const FREE_TRIAL_PACKAGES: readonly FreeTrialPackage[] = [
  { qty: 100, priceInr: 99 },
  { qty: 250, priceInr: 199 },
  { qty: 500, priceInr: 349 },
  { qty: 1000, priceInr: 599 },
  { qty: 2500, priceInr: 1299 },
  { qty: 5000, priceInr: 2399 },
  { qty: 10_000, priceInr: 4499 },
  { qty: 15_000, priceInr: 6499 },
];

export const FREE_FOLLOWERS_MESSAGES = {
  usernameRequired: 'Username is required',
  usernameInvalid: 'Enter an Instagram username: letters, numbers, periods and underscores, up to 30 characters',
  quantityRequired: 'Followers quantity is required',
  quantityWhole: 'Enter the number of followers as a whole number, e.g. 500',
  quantityRange: `Enter between ${FREE_FOLLOWERS_MIN} and ${FREE_FOLLOWERS_MAX.toLocaleString('en-US')} followers`,
} as const;

/** Digits only, with an optional thousands separator as people type them ("15,000" or "15 000"). */
const WHOLE_NUMBER = /^\d{1,3}(?:[, ]?\d{3})*$|^\d+$/;

export interface FreeFollowersValue {
  /** The username as Instagram shows it (lowercase, no @). */
  username: string;
  quantity: number;
}

export type FreeFollowersField = 'username' | 'quantity';

type FreeFollowersCheck =
  { ok: true; value: FreeFollowersValue } | { ok: false; errors: Partial<Record<FreeFollowersField, string>> };

/**
 * The form's rules, one message per field: required, then the username's shape (an @ and a
 * profile URL are taken too), then a whole number, then the range. Plain code rather than a zod
 * schema: the page checks in the browser, and zod would put it over its first-load JavaScript
 * budget (decision 036).
 */
export function checkFreeFollowers(values: Readonly<Record<FreeFollowersField, string>>): FreeFollowersCheck {
  const errors: Partial<Record<FreeFollowersField, string>> = {};
  const usernameText = values.username.trim();
  const username = usernameText === '' ? undefined : parseInstagramUsername(usernameText)?.username;
  if (usernameText === '') errors.username = FREE_FOLLOWERS_MESSAGES.usernameRequired;
  else if (!username) errors.username = FREE_FOLLOWERS_MESSAGES.usernameInvalid;

  const quantityText = values.quantity.trim();
  const quantity = Number(quantityText.replace(/[, ]/g, ''));
  if (quantityText === '') errors.quantity = FREE_FOLLOWERS_MESSAGES.quantityRequired;
  else if (!WHOLE_NUMBER.test(quantityText)) errors.quantity = FREE_FOLLOWERS_MESSAGES.quantityWhole;
  else if (quantity < FREE_FOLLOWERS_MIN || quantity > FREE_FOLLOWERS_MAX)
    errors.quantity = FREE_FOLLOWERS_MESSAGES.quantityRange;

  return username && !errors.quantity ? { ok: true, value: { username, quantity } } : { ok: false, errors };
}

/** Indian grouping and the rupee sign, as the package list shows prices ("₹1,299"). */
export function formatRupees(amount: number): string {
  return `₹${amount.toLocaleString('en-IN')}`;
}
