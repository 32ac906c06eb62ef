/**
 * Supplier panels spell order statuses loosely ("In progress", "In Progress", "Cancelled",
 * "CANCELED"): this maps them onto the store's ORDER_STATUSES. What a status means (final,
 * e-mailed) is the order model's business: core/orders/status.ts.
 */
import type { OrderStatus } from '../orders/status.ts';
import type { RefillState } from './supplier.ts';

// A Map, not an object: only these keys match (no inherited ones like "constructor").
const SUPPLIER_STATUSES = new Map<string, OrderStatus>([
  ['completed', 'Completed'],
  ['inprogress', 'In Progress'],
  ['processing', 'Processing'],
  ['pending', 'Pending'],
  ['partial', 'Partial'],
  ['canceled', 'Canceled'],
  ['cancelled', 'Canceled'],
]);

/** Case-insensitive, ignoring spaces, underscores and hyphens; null for anything unknown. */
export function normalizeSupplierStatus(raw: unknown): OrderStatus | null {
  if (typeof raw !== 'string') return null;
  const key = raw
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '');
  return SUPPLIER_STATUSES.get(key) ?? null;
}

// Refill statuses as panels send them: "Pending", "In progress", "Completed", "Rejected"; some
// say "Processing", "Canceled" or "Error" for the same things.
const REFILL_STATUSES = new Map<string, RefillState>([
  ['pending', 'Pending'],
  ['awaiting', 'Pending'],
  ['inprogress', 'In progress'],
  ['processing', 'In progress'],
  ['completed', 'Completed'],
  ['rejected', 'Rejected'],
  ['canceled', 'Rejected'],
  ['cancelled', 'Rejected'],
  ['error', 'Rejected'],
]);

/** Case-insensitive, ignoring spaces, underscores and hyphens; null for anything unknown. */
export function normalizeRefillStatus(raw: unknown): RefillState | null {
  if (typeof raw !== 'string') return null;
  const key = raw
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '');
  return REFILL_STATUSES.get(key) ?? null;
}
