/**
 * The order model in one place (spec section 4): the states an order's payment, its status and
 * its fulfilment can be in, which moves between them are allowed, and what each state means to
 * the rest of the store (final, e-mailed to the customer, open to an admin reorder or
 * apply-service). Plain values and functions of a row, no database: the lists of states are
 * db/column-values.ts's (db/schema.ts types its columns with them), and every other module asks
 * these predicates instead of keeping a list of its own.
 */

import {
  FULFILMENT_STATES,
  ORDER_STATUSES,
  PAYMENT_STATUSES,
  PENDING_ACTIONS,
  type FulfilmentState,
  type OrderStatus,
  type PaymentStatus,
  type PendingAction,
} from '../../db/column-values.ts';

// The values each column may hold are a storage fact (db/column-values.ts says what each one
// means); they are re-exported here so the order model's rules and its states are read together.
export { FULFILMENT_STATES, ORDER_STATUSES, PAYMENT_STATUSES, PENDING_ACTIONS };
export type { FulfilmentState, OrderStatus, PaymentStatus, PendingAction };

/**
 * Payment states from which a verified payment may still mark the order paid. Not `expired`: an
 * expired order's price is stale (the catalogue may have moved since), so money that still
 * arrives for it is refunded (core/orders/late-payment.ts) and the buyer orders again at today's
 * price.
 */
export const PAYABLE_STATUSES: readonly PaymentStatus[] = ['created', 'fail'];

/**
 * Payment moves (compare-and-set in core/orders/transitions/payment.ts): a late authorisation of
 * a failed order is money taken at a price still offered, so it becomes paid; expired and paid
 * are for good.
 */
export const PAYMENT_TRANSITIONS: Readonly<Record<PaymentStatus, readonly PaymentStatus[]>> = {
  created: ['paid', 'fail', 'expired'],
  fail: ['paid', 'expired'],
  expired: [],
  paid: [],
};

/** The supplier has finished with the order: nothing more will be delivered. */
export const FINAL_STATUSES: readonly OrderStatus[] = ['Completed', 'Partial', 'Canceled'];

export function isFinalStatus(status: OrderStatus | null | undefined): boolean {
  return !!status && FINAL_STATUSES.includes(status);
}

/**
 * Order status moves, as the supplier's progress drives them. A final status never changes. In
 * Progress → Processing is an admin reorder: the undelivered rest went to a new supplier order.
 */
export const ORDER_STATUS_TRANSITIONS: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  Pending: ['Processing', 'In Progress', 'Completed', 'Partial', 'Canceled'],
  Processing: ['In Progress', 'Completed', 'Partial', 'Canceled'],
  'In Progress': ['Processing', 'Completed', 'Partial', 'Canceled'],
  Completed: [],
  Partial: [],
  Canceled: [],
};

export function canChangeOrderStatus(from: OrderStatus, to: OrderStatus): boolean {
  return ORDER_STATUS_TRANSITIONS[from].includes(to);
}

/** Statuses the customer hears about by e-mail, once each. */
export const NOTIFIED_STATUSES = ['In Progress', 'Completed', 'Partial', 'Canceled'] as const;
export type NotifiedStatus = (typeof NOTIFIED_STATUSES)[number];

export function isNotifiedStatus(status: OrderStatus): status is NotifiedStatus {
  return (NOTIFIED_STATUSES as readonly OrderStatus[]).includes(status);
}

/** The columns the admin action rules read (an orders row has them all). */
export interface ActionableOrder {
  payment_status: PaymentStatus;
  order_status: OrderStatus;
  fulfilment_state: FulfilmentState;
  supplier_order_id: string | null;
  pending_action: PendingAction | null;
  refunded_e4: number;
}

/** Why an admin action is refused; the API answers 409 with the message. */
export const ORDER_ACTION_REFUSALS = {
  unpaid: 'This order has not been paid',
  pending: 'An action on this order is still running. Wait for its result on the timeline.',
  submitting: 'This order is being sent to the supplier right now. Try again in a minute.',
  completed: 'This order cannot be reordered: the supplier delivered it in full',
  partial: 'This order cannot be reordered: the supplier finished it and the undelivered share was refunded',
  canceled: 'This order cannot be reordered: the supplier canceled it and it was refunded',
  refunded: 'This order cannot be reordered: it was refunded',
  alreadyAtSupplier: 'This order is already with the supplier',
} as const;

/**
 * Why reorder is refused for this order, or null when it is accepted (decision 012). Accepted:
 * a paid order the supplier has not finished (its live supplier order is cancelled first and only
 * the undelivered rest is sent again), or one that never reached the supplier. Refused: unpaid,
 * being sent, an action still running, finished (Completed, Partial, Canceled: the undelivered
 * share has been refunded, so delivering it would give it away), or refunded.
 */
export function reorderRefusal(order: ActionableOrder): string | null {
  if (order.payment_status !== 'paid') return ORDER_ACTION_REFUSALS.unpaid;
  if (order.pending_action !== null) return ORDER_ACTION_REFUSALS.pending;
  if (order.fulfilment_state === 'submitting') return ORDER_ACTION_REFUSALS.submitting;
  if (order.order_status === 'Completed') return ORDER_ACTION_REFUSALS.completed;
  if (order.order_status === 'Partial') return ORDER_ACTION_REFUSALS.partial;
  if (order.order_status === 'Canceled') return ORDER_ACTION_REFUSALS.canceled;
  if (order.refunded_e4 > 0) return ORDER_ACTION_REFUSALS.refunded;
  return null;
}

export function canReorder(order: ActionableOrder): boolean {
  return reorderRefusal(order) === null;
}

/** Fulfilment states from which apply-service sends an order that is not at the supplier yet. */
const APPLY_STATES: readonly FulfilmentState[] = ['none', 'retry', 'failed'];

/**
 * Why apply-service is refused, or null: it sends a paid, unfinished order that is not at the
 * supplier yet (never sent, refused, waiting for a retry) or that is flagged for review (the
 * admin checked the panel), now instead of waiting for the worker.
 */
export function applyServiceRefusal(order: ActionableOrder): string | null {
  if (order.payment_status !== 'paid') return ORDER_ACTION_REFUSALS.unpaid;
  if (order.pending_action !== null) return ORDER_ACTION_REFUSALS.pending;
  if (order.fulfilment_state === 'submitting') return ORDER_ACTION_REFUSALS.submitting;
  if (isFinalStatus(order.order_status) || order.refunded_e4 > 0) return ORDER_ACTION_REFUSALS.alreadyAtSupplier;
  if (order.fulfilment_state === 'needs_review') return null;
  if (APPLY_STATES.includes(order.fulfilment_state) && order.supplier_order_id === null) return null;
  return ORDER_ACTION_REFUSALS.alreadyAtSupplier;
}

export function canApplyService(order: ActionableOrder): boolean {
  return applyServiceRefusal(order) === null;
}
