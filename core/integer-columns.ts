/**
 * The range of each kind of integer column, and the zod fields that hold a request to it. A
 * number outside its column's range can name nothing that exists; PostgreSQL refuses it with an
 * error rather than an empty result, so every id, count or page a request carries is checked
 * here first and answers 4xx. The bounds also reach the published OpenAPI document
 * (minimum/maximum), so a client can know them. Browser-safe.
 */
import { z } from 'zod';

/** PostgreSQL's `integer` (ids, quantities, counts): 32 bits, signed. */
export const INTEGER_COLUMN_MAX = 2_147_483_647;
/** PostgreSQL's `bigint` (money in ten-thousandths): 64 bits, of which JavaScript holds 53 exactly. */
export const BIGINT_COLUMN_MAX = Number.MAX_SAFE_INTEGER;

/** Whether `value` can be the id of a row (ids start at 1 and live in an `integer` column). */
export function isRowId(value: number): boolean {
  return Number.isInteger(value) && value >= 1 && value <= INTEGER_COLUMN_MAX;
}

/**
 * A row id from a path or query parameter (text, coerced), or a body field: a whole number from
 * 1 to the `integer` column's maximum; anything else gives `message`.
 */
export function idParam(message = 'must be an id (a whole number from 1 to 2147483647)') {
  return z.coerce.number({ error: message }).int(message).min(1, message).max(INTEGER_COLUMN_MAX, message);
}

/** A whole number stored in an `integer` column, from `min` (default 0) to the column's maximum. */
export function integerColumn(message: string, min = 0) {
  return z.number({ error: message }).int(message).min(min, message).max(INTEGER_COLUMN_MAX, message);
}

/** A whole number stored in a `bigint` column, from `min` (default 0) to the largest safe integer. */
export function bigintColumn(message: string, min = 0) {
  return z.number({ error: message }).int(message).min(min, message).max(BIGINT_COLUMN_MAX, message);
}
