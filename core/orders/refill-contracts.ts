/**
 * What the refill API and pages exchange (decision 040), apart from core/fulfilment/refills.ts so
 * the browser bundles only these schemas, never the supplier client or node:crypto. It lives in
 * core/orders because the order history's contracts carry a refill: core/fulfilment imports
 * core/orders, never the other way round.
 */
import { z } from 'zod';

/** A refill's state as the panel's `refill_status` reports it, normalised (core/fulfilment/supplier.ts). */
export const REFILL_STATES = ['Pending', 'In progress', 'Completed', 'Rejected'] as const;
export type RefillState = (typeof REFILL_STATES)[number];

/** The customer-facing texts; the tests and the pages read them from here. */
export const REFILL_MESSAGES = {
  notCompleted: 'Only completed orders can be refilled.',
  noSupplierOrder: 'This order was not delivered through the supplier, so it cannot be refilled there.',
  notSupported: 'This service has no refill at the supplier.',
  servicesUnknown: 'Refills cannot be checked right now. Please try again later.',
  alreadyOpen: 'A refill is already in progress for this order.',
  windowEnded: (date: string) => `Refill window ended on ${date}.`,
  badToken: 'This page has expired. Look up your orders again to request a refill.',
  notFound: 'Order not found',
  unreachable: (detail: string) => `Not sent: the supplier could not be reached (${detail}). Please try again later.`,
  noAnswer: 'The supplier did not answer the refill request. Please try again.',
  requested: 'Refill requested',
  cancelRefused: 'Nothing to cancel: the order is not running at the supplier.',
  cancelPending: 'A cancel is already requested for this order.',
  cancelActionPending: 'An admin action is running on this order; wait for it to finish.',
  cancelNotSupported: 'This service cannot be cancelled at the supplier.',
  notPaid: 'The order is not paid.',
} as const;

/** The state a refill shows: the panel's refill status, or Requested while our call is in flight. */
export const REFILL_VIEW_STATES = ['Requested', ...REFILL_STATES] as const;
export type RefillViewState = (typeof REFILL_VIEW_STATES)[number];

/** One refill of an order (timeline, /client, admin panel). */
export const RefillEntrySchema = z.object({
  state: z.enum(REFILL_VIEW_STATES),
  /** The panel's refill id; null while asking and when the panel refused. */
  supplierRefillId: z.string().nullable(),
  requestedBy: z.enum(['customer', 'admin']),
  requestedAt: z.string(),
  updatedAt: z.string(),
  /** Why it was rejected (the panel's words), or the last polling error. */
  note: z.string().nullable(),
});
export type RefillEntry = z.infer<typeof RefillEntrySchema>;

/** A completed order's refill section in /client (history rows carry it as `refill`). */
export const CustomerRefillSchema = z.object({
  /** The latest refill, if any. */
  latest: RefillEntrySchema.nullable(),
  /** Whether "Request refill" is offered. */
  canRequest: z.boolean(),
  /** Why not, when it helps the customer (e.g. "Refill window ended on …"); null otherwise. */
  reason: z.string().nullable(),
  /** ISO-8601 end of the refill window; null when unknown. */
  windowEndsAt: z.string().nullable(),
  /** Proof that this browser read the order list with the e-mailed code; only when canRequest. */
  token: z.string().nullable(),
});
export type CustomerRefill = z.infer<typeof CustomerRefillSchema>;

export const CustomerRefillRequestSchema = z.object({
  orderId: z.string().trim().min(1, 'orderId is required').max(100),
  token: z.string().trim().min(1, 'token is required').max(300),
});
export type CustomerRefillRequest = z.input<typeof CustomerRefillRequestSchema>;

/** What an admin may do at the supplier for one order, and why not. */
export const SupplierActionsSchema = z.object({
  refill: z.object({ allowed: z.boolean(), reason: z.string().nullable() }),
  cancel: z.object({ allowed: z.boolean(), reason: z.string().nullable() }),
  refills: z.array(RefillEntrySchema),
});
export type SupplierActions = z.infer<typeof SupplierActionsSchema>;

/** The panel's answer to an admin action, shown as a toast (and on the timeline). */
export const SupplierActionResultSchema = z.object({
  accepted: z.boolean(),
  /** The panel's answer in words ("Refill 24501 requested", "Order cannot be canceled"). */
  answer: z.string(),
  actions: SupplierActionsSchema,
});
export type SupplierActionResult = z.infer<typeof SupplierActionResultSchema>;
