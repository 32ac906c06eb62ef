/**
 * Money is stored and computed as integers in ten-thousandths of the currency unit ("e4"):
 * $2.99 is 29_900. The spec shows prices with up to four decimals, supplier panels report
 * charges with four, and payment providers take whole cents; one integer scale covers all
 * three without floats. See docs/decisions/003-money.md.
 */
export type AmountE4 = number;

export const E4_PER_UNIT = 10_000;
export const E4_PER_CENT = 100;

const DECIMAL = /^(\d{1,12})(?:\.(\d{1,4}))?$/;

/** Parses a decimal string such as "2.99" or "0.0199" exactly; throws on anything else. */
export function parseAmountE4(text: string): AmountE4 {
  const match = DECIMAL.exec(text.trim());
  if (!match) throw new Error(`Not a decimal amount with at most 4 decimals: "${text}"`);
  const [, whole, fraction = ''] = match;
  return Number(whole) * E4_PER_UNIT + Number(fraction.padEnd(4, '0'));
}

/** Converts to a JSON number for the API (the spec's `price` is a number). */
export function e4ToNumber(amount: AmountE4): number {
  return amount / E4_PER_UNIT;
}

/** Converts a number such as 2.99 to e4, rounding to the nearest ten-thousandth. */
export function numberToE4(value: number): AmountE4 {
  return Math.round(value * E4_PER_UNIT);
}

/** Rounds half up to whole cents, the unit payment providers charge in. */
export function e4ToCents(amount: AmountE4): number {
  return Math.floor((amount + E4_PER_CENT / 2) / E4_PER_CENT);
}

/** Formats with a fixed number of decimals (0–4) without going through floating point. */
export function formatAmountE4(amount: AmountE4, decimals: 0 | 1 | 2 | 3 | 4): string {
  const step = 10 ** (4 - decimals);
  const rounded = Math.floor((Math.abs(amount) + step / 2) / step) * step;
  const whole = Math.floor(rounded / E4_PER_UNIT);
  const fraction = String(rounded % E4_PER_UNIT)
    .padStart(4, '0')
    .slice(0, decimals);
  const sign = amount < 0 && rounded !== 0 ? '-' : '';
  return decimals === 0 ? `${sign}${whole}` : `${sign}${whole}.${fraction}`;
}

const CURRENCY_SIGNS: Readonly<Record<string, string>> = { USD: '$', EUR: '€', GBP: '£', INR: '₹' };

/**
 * The one way every screen and e-mail writes an amount: the currency's sign and 2 decimals
 * ("$2.99"), or 4 where the spec asks for them (order history); a currency without a known sign
 * is written after the number ("2.99 CHF"). `amount` is the API's number (e.g. 2.99).
 */
export function formatMoney(amount: number, currency = 'USD', decimals: 2 | 4 = 2): string {
  const code = (currency || 'USD').toUpperCase();
  const text = formatAmountE4(Math.abs(numberToE4(amount)), decimals);
  const minus = amount < 0 && /[1-9]/.test(text) ? '-' : '';
  const sign = CURRENCY_SIGNS[code];
  return sign ? `${minus}${sign}${text}` : `${minus}${text} ${code}`;
}
