/**
 * The values a status-like column may hold: a storage fact, so it lives with the schema, and
 * db/schema.ts types those columns with these unions (a column cannot hold a value the code does
 * not know). What the values mean, and which moves between them are allowed, is the order
 * model's business: core/orders/status.ts re-exports these lists next to its rules, and the rest
 * of core/ imports them from there.
 */

/** orders.order_status: the spec's order statuses; a new, unpaid order is Pending. */
export const ORDER_STATUSES = ['Completed', 'In Progress', 'Partial', 'Processing', 'Canceled', 'Pending'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/**
 * orders.payment_status. created: waiting for the buyer to pay; paid: money taken (exactly once);
 * fail: the buyer's payment attempt failed (a later payment can still succeed); expired: abandoned,
 * never paid.
 */
export const PAYMENT_STATUSES = ['created', 'paid', 'fail', 'expired'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/**
 * orders.fulfilment_state: where the latest submission to the supplier stands. none: not sent
 * yet; submitting: `add` is in flight (found after a crash it means "unknown", never resent
 * automatically); submitted: the supplier has it; retry: refused for now (balance, rate limit),
 * the job tries again; needs_review: ambiguous, a person decides; failed: refused for good;
 * queued: paid, waiting for the order ahead of it on the same link to finish (decision 057).
 */
export const FULFILMENT_STATES = [
  'none',
  'submitting',
  'submitted',
  'retry',
  'needs_review',
  'failed',
  'queued',
] as const;
export type FulfilmentState = (typeof FULFILMENT_STATES)[number];

/** orders.pending_action: an admin action queued for an order and not finished yet (decision 012). */
export const PENDING_ACTIONS = ['reorder', 'apply-service'] as const;
export type PendingAction = (typeof PENDING_ACTIONS)[number];

/** order_events.kind: the entries of an order's timeline (core/orders/timeline.ts writes them). */
export const ORDER_EVENT_KINDS = [
  'order.created',
  'payment.paid',
  'payment.duplicate',
  'payment.failed',
  'payment.expired',
  'payment.mismatch',
  'payment.refunded',
  'payment.refund_requested',
  'payment.refund_failed',
  'payment.underpaid',
  // Money for an order that had expired: never applied, refunded (core/orders/late-payment.ts).
  'payment.after_expiry',
  'payment.disputed',
  'payment.method_changed',
  'supplier.submitted',
  'supplier.error',
  'supplier.needs_review',
  'supplier.cancel_requested',
  'supplier.cancel_refused',
  // Paid, waiting for another order on the same link (decision 057).
  'supplier.queued',
  'supplier.final',
  'status.changed',
  'admin.reorder',
  'admin.apply_service',
  'admin.reorder_refused',
  'admin.action_done',
  'admin.action_failed',
  // Refills (core/fulfilment/refills.ts, decision 040).
  'refill.requested',
  'refill.accepted',
  'refill.rejected',
  'refill.status_changed',
] as const;
export type OrderEventKind = (typeof ORDER_EVENT_KINDS)[number];

/** jobs.status: the states of a row in the jobs table (core/jobs/queue.ts moves them). */
export const JOB_STATUSES = ['pending', 'running', 'done', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** order_payments.role: `applied` paid the order; `extra` arrived for an order already paid (to refund). */
export const ORDER_PAYMENT_ROLES = ['applied', 'extra'] as const;
export type OrderPaymentRole = (typeof ORDER_PAYMENT_ROLES)[number];

/** refunds.origin: the undelivered remains (automatic), the owner's decision, a second payment. */
export const REFUND_ORIGINS = ['remains', 'owner', 'extra'] as const;
export type RefundOrigin = (typeof REFUND_ORIGINS)[number];

/**
 * refunds.status. pending: asked of the provider, answer not recorded yet (a retry with the same
 * key finishes it); awaiting_address: a crypto refund waiting for the customer's wallet address;
 * done: the provider made it; failed: the provider refused it (the amount is free again).
 */
export const REFUND_STATUSES = ['pending', 'awaiting_address', 'done', 'failed'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/**
 * services.kind and orders.kind: what a service sells (decision 057). package: a quantity
 * delivered once; automatic_likes: a panel subscription, likes on each new post for a period;
 * daily_followers: a drip-feed, followers every day for a period.
 */
export const SERVICE_KINDS = ['package', 'automatic_likes', 'daily_followers'] as const;
export type ServiceKind = (typeof SERVICE_KINDS)[number];

/**
 * subscriptions.end_reason: why a subscription stopped. expired: its period ran out; panel: the
 * supplier ended it by itself (no new posts for about 30 days); customer / owner: cancelled.
 */
export const SUBSCRIPTION_END_REASONS = ['expired', 'panel', 'customer', 'owner'] as const;
export type SubscriptionEndReason = (typeof SUBSCRIPTION_END_REASONS)[number];
