/**
 * What the admin order screens share: display formats, the row's action cell and the route
 * action behind it (reorder, apply service; spec sections 4 and 8), and the polling that follows
 * a queued action to its result. Row and detail shapes are the API's contracts
 * (core/admin/contracts.ts).
 */
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { type ClientActionFunctionArgs, useFetcher, useNavigation, useRevalidator } from 'react-router';
import type { ConsoleRow, OrderActionAccepted, OrderActionBody } from '../../core/admin/contracts.ts';
import { formatMoney } from '../../core/money/money.ts';
import { type PaymentStatus, type PendingAction, isFinalStatus } from '../../core/orders/status.ts';
import { ApiError, type Envelope } from '../api/client.ts';
import { statusTag } from '../components/StatusTag.tsx';
import { ConfirmDialog } from './blog/ConfirmDialog.tsx';
import { ButtonSpinner } from './spinner.tsx';
import { adminApi } from './token.ts';
import { useToasts } from './toasts.tsx';

/** Spec section 8's reorder toasts. */
export const ORDER_MESSAGES = {
  reordered: 'Successfully reordered !',
  failed: 'Getting error',
  exception: 'An error occured',
} as const;

export const PAYMENT_STYLES: Record<PaymentStatus, string> = {
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

/** How often a screen showing a queued action asks the server again (the job runs in seconds). */
export const PENDING_POLL_MS = 2000;

export type RowAction = 'none' | 'pending' | PendingAction | 'unavailable';

/**
 * The action column. The server decides (the row's `canApplyService` / `canReorder`): the console
 * never offers what it would refuse. A queued action shows as pending until its result is on the
 * row; a finished order (Completed, Partial, Canceled) shows the spec's dash; anything else says
 * why there is no action. Apply service comes first: for an order not at the supplier yet it is
 * the plain "send it now".
 */
export function rowAction(
  row: Pick<ConsoleRow, 'orderStatus' | 'pendingAction' | 'canReorder' | 'canApplyService'>,
): RowAction {
  if (row.pendingAction) return 'pending';
  if (row.canApplyService) return 'apply-service';
  if (row.canReorder) return 'reorder';
  if (isFinalStatus(row.orderStatus)) return 'none';
  return 'unavailable';
}

function unavailableReason(row: Pick<ConsoleRow, 'paymentStatus' | 'fulfilmentState'>): string {
  if (row.paymentStatus !== 'paid') return 'Not paid';
  if (row.fulfilmentState === 'submitting') return 'Being sent';
  if (row.fulfilmentState === 'queued') return 'Queued';
  return 'Unavailable';
}

const ACTION_LABELS: Record<PendingAction, { button: string; pending: string; path: string }> = {
  reorder: { button: 'Reorder', pending: 'Reordering…', path: '/api/order/reorder' },
  'apply-service': { button: 'Apply service', pending: 'Sending…', path: '/api/order/apply-service' },
};

/**
 * What each action does before it runs, in the dialog that asks first: both spend money at the
 * supplier, and a reorder cancels the supplier order that is running.
 */
export const ACTION_QUESTIONS: Record<PendingAction | 'review', { title: string; text: string; confirm: string }> = {
  reorder: {
    title: 'Reorder at the supplier?',
    text: 'If the supplier is still working on this order, that supplier order is cancelled first. Then what is still undelivered is sent to the supplier again as a new order, which the supplier charges to your balance again. The buyer pays nothing more.',
    confirm: 'Cancel and send again',
  },
  'apply-service': {
    title: 'Send to the supplier now?',
    text: 'The paid order is sent to its supplier service now, and the supplier charges it to your balance.',
    confirm: 'Send to the supplier',
  },
  review: {
    title: 'Send this order to the supplier again?',
    text: 'It was flagged because the store could not tell whether the supplier received it. Check the supplier panel first: if the order exists there, it would be delivered (and paid for) twice.',
    confirm: 'Send it again',
  },
};

/** What an action submission came to, for the row's toast. */
export type OrderActionOutcome =
  | { outcome: 'accepted'; action: PendingAction; message: string }
  /** The server answered and said no (its message is the toast's detail). */
  | { outcome: 'refused'; message: string }
  /** No usable answer (network, a reply that is not the envelope). */
  | { outcome: 'exception' }
  /** The token was refused: the layout is taking the visitor to /login. */
  | { outcome: 'unauthorized' };

function isPendingAction(value: unknown): value is PendingAction {
  return value === 'reorder' || value === 'apply-service';
}

/**
 * The route action of the screens with order actions (the list and the detail): a form with
 * `action` (reorder | apply-service) and `razorpay_order_id`. The router revalidates the page's
 * loaders afterwards, so the row comes back showing the queued action.
 */
export async function orderActionClientAction({ request }: ClientActionFunctionArgs): Promise<OrderActionOutcome> {
  const form = await request.formData();
  const action = form.get('action');
  const orderId = form.get('razorpay_order_id');
  if (!isPendingAction(action) || typeof orderId !== 'string') return { outcome: 'refused', message: 'Unknown action' };
  try {
    const reply = await adminApi.send<Envelope<OrderActionAccepted>, OrderActionBody>(
      'POST',
      ACTION_LABELS[action].path,
      { body: { razorpay_order_id: orderId }, signal: request.signal },
    );
    return { outcome: 'accepted', action, message: reply.message };
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return { outcome: 'unauthorized' };
    // A refusal is an envelope from the server; anything else never really answered.
    if (error instanceof ApiError && error.reply !== null) return { outcome: 'refused', message: error.message };
    console.error(`${action} ${orderId} failed`, error);
    return { outcome: 'exception' };
  }
}

/**
 * Asks the route's loaders again every PENDING_POLL_MS while `active` (a row shows a queued
 * action), between navigations and revalidations, so the row reaches its result on its own.
 */
export function useRevalidateWhile(active: boolean): void {
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const settled = revalidator.state === 'idle' && navigation.state === 'idle';
  const revalidate = useEffectEvent(() => void revalidator.revalidate());
  useEffect(() => {
    if (!active || !settled) return undefined;
    const timer = setTimeout(revalidate, PENDING_POLL_MS);
    return () => clearTimeout(timer);
  }, [active, settled]);
}

export { ButtonSpinner };

/** The toast for each finished submission of this fetcher, once. */
function useOutcomeToast(data: OrderActionOutcome | undefined, settled: boolean) {
  const toasts = useToasts();
  const shown = useRef<OrderActionOutcome | undefined>(undefined);
  useEffect(() => {
    if (!settled || !data || shown.current === data) return;
    shown.current = data;
    if (data.outcome === 'accepted')
      toasts.show(data.action === 'reorder' ? ORDER_MESSAGES.reordered : data.message, 'success');
    else if (data.outcome === 'refused') toasts.show(ORDER_MESSAGES.failed, 'error', data.message || undefined);
    else if (data.outcome === 'exception') toasts.show(ORDER_MESSAGES.exception, 'error');
  }, [data, settled, toasts]);
}

/**
 * One order's action: a button while the server would accept it (spinner while the call runs),
 * then the queued action's pending label until its result is on the row.
 */
export function RowActionCell({ row }: { row: ConsoleRow }) {
  const fetcher = useFetcher<OrderActionOutcome>();
  const busy = fetcher.state !== 'idle';
  /** The dialog that asks before the action runs. */
  const [asking, setAsking] = useState(false);
  useOutcomeToast(fetcher.data, !busy);
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
  if (action === 'pending' && !busy) {
    const pending = row.pendingAction ? ACTION_LABELS[row.pendingAction].pending : 'Working…';
    return (
      <span
        data-testid="row-pending"
        data-action={row.pendingAction ?? undefined}
        title="Queued: the result shows here when the supplier has answered"
        className="inline-flex items-center gap-2 text-xs font-semibold whitespace-nowrap text-brand-800"
      >
        <ButtonSpinner />
        {pending}
      </span>
    );
  }
  // While the call runs the row keeps the button it was started from (disabled, with a spinner).
  const shown: PendingAction = action === 'pending' ? (row.pendingAction ?? 'reorder') : action;
  const { button: label } = ACTION_LABELS[shown];
  const style =
    shown === 'reorder'
      ? 'bg-brand-700 text-white hover:bg-brand-800 disabled:bg-gray-500'
      : 'border-2 border-amber-700 bg-white text-amber-900 hover:bg-amber-50 disabled:border-gray-500 disabled:text-gray-700';
  const question = ACTION_QUESTIONS[shown === 'apply-service' && row.needsReview ? 'review' : shown];
  const run = () => {
    setAsking(false);
    if (busy) return;
    void fetcher.submit({ action: shown, razorpay_order_id: row.razorPayOrderId }, { method: 'post' });
  };
  return (
    <>
      <ConfirmDialog
        open={asking}
        title={question.title}
        text={`Order ${row.orderId}: ${question.text}`}
        confirmLabel={question.confirm}
        cancelLabel="Cancel"
        destructive={shown === 'reorder' || row.needsReview}
        onConfirm={run}
        onCancel={() => setAsking(false)}
        testId={`confirm-${shown}`}
      />
      <button
        type="button"
        data-testid={shown === 'reorder' ? 'row-reorder' : 'row-apply-service'}
        onClick={() => {
          if (!busy) setAsking(true);
        }}
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
    </>
  );
}
