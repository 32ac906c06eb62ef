/**
 * What the admin order screens share: the API's row shape, display formats, the status tag and
 * the row actions (reorder, apply service) with the spec's toasts (section 8).
 */
import { useCallback, useRef, useState } from 'react';
import { formatMoney } from '../../core/money/money.ts';
import { statusTag } from '../components/StatusTag.tsx';
import { adminFetch, isUnauthorized, jsonPost } from './token.ts';
import { useToasts } from './toasts.tsx';

/** A row of `GET /api/order/all-orders` (and the `order` of the detail call). */
export interface AdminOrderRow {
  razorPayOrderId: string;
  orderId: string;
  orderDate: string;
  email: string;
  serviceName: string;
  /** The target: username, video or post URL. */
  name: string;
  quantity: number;
  price: number;
  currency: string;
  paymentStatus: string;
  orderStatus: string;
  supplierOrderId: string | null;
  errorMessage: string | null;
  needsReview: boolean;
  reviewReason: string | null;
  fulfilmentState: string;
  /** Paid, not Completed or Canceled, and not being sent to the supplier right now. */
  canReorder: boolean;
  /** Paid and not at the supplier yet, or flagged for review. */
  canApplyService?: boolean;
}

/** The detail call's order: the row plus the facts only the detail shows (all optional here). */
export interface AdminOrderFacts extends AdminOrderRow {
  provider?: string;
  clientOrderId?: string;
  planType?: string;
  comment?: string | null;
  paymentId?: string | null;
  paidAt?: string | null;
  updatedAt?: string | null;
  fulfilmentAttempts?: number;
  startCount?: number | null;
  remains?: number | null;
  supplierCharge?: number | null;
  statusSyncedAt?: string | null;
  refunded?: number;
}

export interface AdminTimelineEntry {
  at: string;
  kind: string;
  detail: unknown;
}

export interface AdminOrderEmail {
  to?: string | null;
  subject: string | null;
  status: string;
  attempts: number;
  lastError: string | null;
  createdAt: string;
}

export interface AdminOrderDetail {
  order: AdminOrderFacts;
  timeline: AdminTimelineEntry[];
  emails: AdminOrderEmail[];
}

/** Spec section 9, "Admin status filter". */
export const ADMIN_STATUS_FILTERS = [
  'Completed',
  'In Progress',
  'Partial',
  'Processing',
  'Canceled',
  'Pending',
] as const;

/** Spec section 4: no reorder (a dash instead) for these. */
const NO_ACTION_STATUSES = new Set(['completed', 'canceled', 'cancelled']);

export const ORDER_MESSAGES = {
  reordered: 'Successfully reordered !',
  failed: 'Getting error',
  exception: 'An error occured',
} as const;

export const PAYMENT_STYLES: Record<string, string> = {
  paid: 'text-green-800',
  created: 'text-gray-700',
  fail: 'text-red-800',
  expired: 'text-gray-700',
};

/** "14/03/2025, 09:05" (en-GB date and 24-hour time, the browser's time zone). */
export function formatAdminDate(iso: string, seconds = false): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString('en-GB', {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    ...(seconds ? { second: '2-digit' } : {}),
  });
}

/** Spec section 9: "$" and 2 decimals (orders are charged in USD); another currency keeps its own sign. */
export function formatAdminPrice(price: number, currency = 'USD'): string {
  return formatMoney(price, currency);
}

export type RowAction = 'none' | 'reorder' | 'apply-service' | 'unavailable';

/**
 * The action column (spec section 4): a dash for Completed and Canceled; "Apply service" for an
 * order waiting for review; "Reorder" when the server allows it (`canReorder`: paid, and not
 * being sent right now); otherwise the reason there is no action (an unpaid order).
 */
export function rowAction(row: Pick<AdminOrderRow, 'orderStatus' | 'needsReview' | 'canReorder'>): RowAction {
  if (NO_ACTION_STATUSES.has(row.orderStatus.trim().toLowerCase())) return 'none';
  if (row.needsReview) return 'apply-service';
  if (row.canReorder === false) return 'unavailable';
  return 'reorder';
}

function unavailableReason(row: Pick<AdminOrderRow, 'paymentStatus' | 'fulfilmentState'>): string {
  if (row.paymentStatus !== 'paid') return 'Not paid';
  if (row.fulfilmentState === 'submitting') return 'Being sent';
  return 'Unavailable';
}

export const APPLY_SERVICE_CONFIRM =
  'Send this order to the supplier again?\n\nIt was flagged because the store could not tell whether the supplier received it. Check the supplier panel first: if the order exists there, it would be delivered (and paid) twice.';

/**
 * Reorder and apply-service for one row at a time per order: `busy` holds the order ids whose
 * call is running (their row shows a spinner until it ends). `onDone` runs after a success.
 */
export type RunnableAction = Extract<RowAction, 'reorder' | 'apply-service'>;

export function useOrderActions(onDone: () => void) {
  const toasts = useToasts();
  const [busy, setBusy] = useState<ReadonlySet<string>>(() => new Set());
  const running = useRef(new Set<string>());

  const run = useCallback(
    async (row: AdminOrderRow, action: RunnableAction) => {
      const key = row.razorPayOrderId;
      if (running.current.has(key)) return;
      if (action === 'apply-service' && !window.confirm(APPLY_SERVICE_CONFIRM)) return;
      running.current.add(key);
      setBusy(new Set(running.current));
      try {
        const path = action === 'reorder' ? '/api/order/reorder' : '/api/order/apply-service';
        const reply = await adminFetch(path, jsonPost({ razorpay_order_id: row.razorPayOrderId }));
        if (reply.isSuccessful) {
          toasts.show(action === 'reorder' ? ORDER_MESSAGES.reordered : reply.message || 'Service applied', 'success');
          onDone();
        } else {
          toasts.show(ORDER_MESSAGES.failed, 'error', reply.message || undefined);
        }
      } catch (error) {
        // A 401 has already cleared the token: the layout is taking the visitor to /login.
        if (!isUnauthorized(error)) {
          console.error(`${action} ${row.razorPayOrderId} failed`, error);
          toasts.show(ORDER_MESSAGES.exception, 'error');
        }
      } finally {
        running.current.delete(key);
        setBusy(new Set(running.current));
      }
    },
    [onDone, toasts],
  );

  return { busy, run };
}

export function ButtonSpinner({ className = 'border-current/30 border-t-current' }: { className?: string }) {
  return <span aria-hidden="true" className={`inline-block h-4 w-4 animate-spin rounded-full border-2 ${className}`} />;
}

export function RowActionCell({
  row,
  busy,
  onRun,
}: {
  row: AdminOrderRow;
  busy: boolean;
  onRun: (row: AdminOrderRow, action: RunnableAction) => void;
}) {
  const action = rowAction(row);
  if (action === 'none') {
    return (
      <span
        data-testid="row-no-action"
        title={`No action for ${statusTag(row.orderStatus)} orders`}
        className="text-gray-700"
      >
        –
      </span>
    );
  }
  if (action === 'unavailable') {
    return (
      <span data-testid="row-unavailable" className="text-xs font-semibold whitespace-nowrap text-gray-700">
        {unavailableReason(row)}
      </span>
    );
  }
  const label = action === 'reorder' ? 'Reorder' : 'Apply service';
  const style =
    action === 'reorder'
      ? 'bg-brand-700 text-white hover:bg-brand-800 disabled:bg-gray-500'
      : 'border-2 border-amber-700 bg-white text-amber-900 hover:bg-amber-50 disabled:border-gray-500 disabled:text-gray-700';
  return (
    <button
      type="button"
      data-testid={action === 'reorder' ? 'row-reorder' : 'row-apply-service'}
      onClick={() => onRun(row, action)}
      disabled={busy}
      aria-busy={busy}
      aria-label={`${label} order ${row.orderId}`}
      className={`inline-flex items-center gap-2 rounded-lg px-3 py-1.5 text-xs font-bold whitespace-nowrap focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-wait ${style}`}
    >
      {busy ? <ButtonSpinner /> : null}
      {label}
      {busy ? (
        <span data-testid="row-action-spinner" className="sr-only">
          {' '}
          (working…)
        </span>
      ) : null}
    </button>
  );
}
