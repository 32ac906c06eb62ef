/**
 * Readers for the loosely typed values of "SMM panel API v2" replies, where one panel sends a
 * number and the next the same number as a string: the store's client reads replies with them,
 * and the simulated panels read their own service list (min, max, refill, cancel) the same way.
 */

/** "123", 123 → "123"; anything else → null. */
export function idText(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  return null;
}

/** "157", 157, "157.0" → 157; "", null, junk → null. */
export function count(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? Math.trunc(value) : null;
  if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Math.trunc(Number(value));
  return null;
}

/** "0.2782", 0.2782 → "0.2782"; absent → null. */
export function decimalText(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  return null;
}

/** true, 1, "1", "true", "yes" → true; anything else → false. */
export function flag(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'string') return /^(1|true|yes)$/i.test(value.trim());
  return false;
}
