/**
 * Whether an order may be refilled, and why not: pure rules over an order row, shared by the
 * customer's /client view, the customer's request and the admin's actions (decision 040).
 */
import type { Selectable } from 'kysely';
import type { OrdersTable, RefillsTable } from '../../../db/schema.ts';
import { REFILL_MESSAGES, type RefillEntry, type RefillViewState } from '../../orders/refill-contracts.ts';
import { REFILL_STATES, type RefillState } from '../supplier.ts';

type OrderRow = Selectable<OrdersTable>;
export type RefillRow = Selectable<RefillsTable>;

export const DEFAULT_REFILL_WINDOW_DAYS = 30;
const DAY_MS = 86_400_000;

/** A refusal for the customer or admin: the API answers with its status and message. */
export class RefillError extends Error {
  /** Read by the API's error handler. */
  readonly expose = true;
  constructor(
    message: string,
    readonly statusCode: 400 | 403 | 404 | 409,
  ) {
    super(message);
    this.name = 'RefillError';
  }
}

/** "12 Dec 2026", in UTC (the same on the server and in the report). */
export function formatRefillDate(ms: number): string {
  return new Date(ms).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
}

/**
 * Whether an order may be refilled, and why not. `supportsRefill` is the panel's flag for the
 * order's service (null: the list could not be read).
 */
export function refillEligibility(input: {
  order: Pick<OrderRow, 'order_status' | 'payment_status' | 'completed_at' | 'supplier_order_id'>;
  supportsRefill: boolean | null;
  openRefill: boolean;
  nowMs: number;
  windowDays: number;
  /** Admins are not held to the window: support may honour a late claim. */
  enforceWindow: boolean;
}): { allowed: boolean; reason: string | null; windowEndsAt: string | null } {
  const { order } = input;
  const completedMs = order.completed_at ? Date.parse(order.completed_at) : Number.NaN;
  const windowEndsMs = Number.isNaN(completedMs) ? null : completedMs + input.windowDays * DAY_MS;
  const windowEndsAt = windowEndsMs === null ? null : new Date(windowEndsMs).toISOString();
  const no = (reason: string) => ({ allowed: false, reason, windowEndsAt });
  if (order.payment_status !== 'paid' || order.order_status !== 'Completed') return no(REFILL_MESSAGES.notCompleted);
  if (!order.supplier_order_id) return no(REFILL_MESSAGES.noSupplierOrder);
  if (input.openRefill) return no(REFILL_MESSAGES.alreadyOpen);
  if (input.enforceWindow && windowEndsMs !== null && input.nowMs > windowEndsMs) {
    return no(REFILL_MESSAGES.windowEnded(formatRefillDate(windowEndsMs)));
  }
  if (input.supportsRefill === null) return no(REFILL_MESSAGES.servicesUnknown);
  if (!input.supportsRefill) return no(REFILL_MESSAGES.notSupported);
  return { allowed: true, reason: null, windowEndsAt };
}

/** A refill row as the customer and the admin see it. */
export function refillEntryOf(row: RefillRow): RefillEntry {
  const state: RefillViewState = (REFILL_STATES as readonly string[]).includes(row.state)
    ? (row.state as RefillState)
    : 'Requested';
  return {
    state,
    supplierRefillId: row.supplier_refill_id,
    requestedBy: row.requested_by,
    requestedAt: row.created_at,
    updatedAt: row.updated_at,
    note: row.error_message,
  };
}
