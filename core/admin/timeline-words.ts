/**
 * An order's timeline in the owner's words: each event's name ("Sent to the supplier", not
 * `supplier.submitted`) and each detail as a labelled value ("Supplier order ID: 123", not
 * `supplierOrderId`). Browser-safe: the order detail bundles it.
 */
import { ORDER_EVENT_KINDS, type OrderEventKind } from '../../db/column-values.ts';
import { paymentStatusWords } from './payment-words.ts';

export const ORDER_EVENT_WORDS: Readonly<Record<OrderEventKind, string>> = {
  'order.created': 'Order placed',
  'payment.paid': 'Payment received',
  'payment.duplicate': 'A second payment arrived for this order',
  'payment.failed': 'Payment failed',
  'payment.expired': 'Abandoned: never paid',
  'payment.mismatch': 'Payment did not match the order',
  'payment.after_expiry': 'Paid after it expired: refunded automatically',
  'payment.refunded': 'Refunded',
  'payment.refund_requested': 'Refund requested',
  'payment.refund_failed': 'Refund failed',
  'payment.underpaid': 'Paid less than the price',
  'payment.disputed': 'Payment disputed (chargeback)',
  'payment.method_changed': 'Payment method changed',
  'supplier.submitted': 'Sent to the supplier',
  'supplier.error': 'The supplier refused or did not answer',
  'supplier.needs_review': 'Needs a person to check the supplier',
  'supplier.cancel_requested': 'Cancellation asked of the supplier',
  'supplier.cancel_refused': 'The supplier refused to cancel',
  'supplier.queued': 'Waiting for another order on the same account',
  'supplier.final': 'The supplier finished the order',
  'status.changed': 'Status changed',
  'admin.reorder': 'Sent again by an owner',
  'admin.apply_service': 'Moved to another supplier service by an owner',
  'admin.reorder_refused': 'Sending again was refused',
  'admin.action_done': 'Owner action done',
  'admin.action_failed': 'Owner action failed',
  'refill.requested': 'Refill requested',
  'refill.accepted': 'Refill accepted by the supplier',
  'refill.rejected': 'Refill refused',
  'refill.status_changed': 'Refill status changed',
};

function isOrderEventKind(kind: string): kind is OrderEventKind {
  return (ORDER_EVENT_KINDS as readonly string[]).includes(kind);
}

/** An event's name in words; a kind no version knows is shown as stored rather than hidden. */
export function orderEventWords(kind: string): string {
  return isOrderEventKind(kind) ? ORDER_EVENT_WORDS[kind] : kind;
}

/** The labels of the detail fields the order modules write (core/orders/transitions). */
const DETAIL_LABELS: Readonly<Record<string, string>> = {
  action: 'Action',
  adminId: 'Owner',
  amount: 'Amount',
  attempt: 'Attempt',
  by: 'By',
  cause: 'Cause',
  detail: 'Details',
  failure: 'Why it failed',
  from: 'From',
  id: 'Reference',
  kind: 'Kind',
  message: 'Message',
  method: 'Payment method',
  noAnswer: 'No answer',
  note: 'Note',
  orderId: 'Order',
  outcome: 'Outcome',
  paymentId: 'Payment ID',
  provider: 'Payment provider',
  providerOrderId: 'Provider order ID',
  quantity: 'Quantity',
  reason: 'Reason',
  refill: 'Refill',
  refillId: 'Refill ID',
  refusal: 'Refusal',
  remains: 'Remaining',
  retry: 'Will try again',
  source: 'Source',
  state: 'State',
  status: 'Status',
  supplierOrderId: 'Supplier order ID',
  to: 'To',
  verified: 'Verified',
  waitingFor: 'Waiting for',
  waitingForOrderId: 'Waiting for order',
};

/** `supplierOrderId` → "Supplier order id" for a field written after this table. */
function humanise(key: string): string {
  const words = key
    .replace(/_/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function detailLabel(key: string): string {
  return DETAIL_LABELS[key] ?? humanise(key);
}

/** A detail value as text: yes/no for flags, payment states in words, lists and objects flattened. */
export function detailValueText(key: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'string')
    return key === 'from' || key === 'to' || key === 'state' ? paymentStatusWords(value) : value;
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return value.map((item) => detailValueText(key, item)).join(', ');
  if (typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>)
      .filter(([, inner]) => inner !== null && inner !== undefined && inner !== '')
      .map(([innerKey, inner]) => `${detailLabel(innerKey)}: ${detailValueText(innerKey, inner)}`)
      .join('; ');
  }
  return typeof value === 'bigint' ? value.toString() : '—';
}

export interface TimelineFact {
  label: string;
  value: string;
}

/** An event's detail as labelled values (a plain text detail is one "Details" value). */
export function timelineFacts(detail: unknown): TimelineFact[] {
  if (detail === null || detail === undefined || detail === '') return [];
  if (typeof detail !== 'object' || Array.isArray(detail))
    return [{ label: 'Details', value: detailValueText('detail', detail) }];
  return Object.entries(detail as Record<string, unknown>)
    .filter(([, value]) => value !== null && value !== undefined && value !== '')
    .map(([key, value]) => ({ label: detailLabel(key), value: detailValueText(key, value) }));
}
