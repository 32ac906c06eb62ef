import { useEffect, useState } from 'react';
import { useRevalidator } from 'react-router';
import type { RefillEntry, SupplierActionResult, SupplierActions } from '../../core/orders/refill-contracts.ts';
import { isAbort, messageOf } from '../api/client.ts';
import { ConfirmDialog } from './blog/ConfirmDialog.tsx';
import { adminApi } from './token.ts';
import { useToasts } from './toasts.tsx';
import { formatAdminDate } from './orders.tsx';

/**
 * The order detail's "At the supplier" panel (decision 040): "Request refill" and "Cancel at
 * supplier", each offered only when the server says the order allows it (otherwise the reason is
 * shown instead of a button), and the order's refills. The panel's answer comes back as a toast,
 * and the page reloads so the timeline shows the new entries.
 */

type Action = 'refill' | 'cancel';

const ACTION_PATHS: Record<Action, string> = {
  refill: '/api/order/refill-at-supplier',
  cancel: '/api/order/cancel-at-supplier',
};

/** What each action asks before it runs: both reach the supplier's order, and a cancel moves money. */
const QUESTIONS: Record<Action, { title: string; text: string; confirm: string; cancel: string }> = {
  refill: {
    title: 'Ask the supplier for a refill?',
    text: 'The supplier is asked to top up what dropped since delivery, under its refill guarantee. Only one refill can be open at a time.',
    confirm: 'Ask for a refill',
    cancel: 'Cancel',
  },
  cancel: {
    title: 'Cancel at the supplier?',
    text: 'The supplier is asked to stop this order. Once it has stopped, whatever it did not deliver is refunded to the buyer automatically, and the order cannot be resumed.',
    confirm: 'Yes, cancel at the supplier',
    cancel: 'Keep it running',
  },
};

const buttonClass =
  'rounded-xl border-2 border-brand-700 px-4 py-2 text-sm font-bold text-brand-700 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-not-allowed disabled:border-gray-500 disabled:text-gray-700';

function RefillRow({ refill }: { refill: RefillEntry }) {
  return (
    <li data-testid="supplier-refill" className="flex flex-wrap gap-x-3 text-sm text-gray-900">
      <span className="font-semibold" data-testid="supplier-refill-state">
        {refill.state}
      </span>
      <span className="text-gray-700">
        {refill.requestedBy === 'admin' ? 'by an admin' : 'by the customer'},{' '}
        {formatAdminDate(refill.requestedAt, true)}
      </span>
      {refill.supplierRefillId ? <span className="font-mono text-gray-700">#{refill.supplierRefillId}</span> : null}
      {refill.note ? <span className="w-full break-words text-gray-700">{refill.note}</span> : null}
    </li>
  );
}

export function SupplierActionsPanel({ orderId, version }: { orderId: string; version: string }) {
  const toasts = useToasts();
  const revalidator = useRevalidator();
  const [actions, setActions] = useState<SupplierActions | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [busy, setBusy] = useState<Action | null>(null);
  /** The action whose question is open. */
  const [asking, setAsking] = useState<Action | null>(null);

  // Reloaded with the order (`version` changes when the detail does).
  useEffect(() => {
    const controller = new AbortController();
    adminApi
      .get<SupplierActions>(`/api/order/supplier-actions/${encodeURIComponent(orderId)}`, {
        signal: controller.signal,
      })
      .then(
        (loaded) => {
          setActions(loaded);
          setLoadError(null);
        },
        (error: unknown) => {
          if (!isAbort(error)) setLoadError(messageOf(error));
        },
      );
    return () => controller.abort();
  }, [orderId, version]);

  async function run(action: Action) {
    setAsking(null);
    if (busy) return;
    setBusy(action);
    try {
      const result = await adminApi.post<SupplierActionResult>(ACTION_PATHS[action], { razorpay_order_id: orderId });
      setActions(result.actions);
      toasts.show(
        result.answer,
        result.accepted ? 'success' : 'error',
        result.accepted ? undefined : 'The supplier refused; see the timeline.',
      );
    } catch (error) {
      toasts.show(messageOf(error), 'error');
    } finally {
      setBusy(null);
      // The timeline has the new entries.
      void revalidator.revalidate();
    }
  }

  return (
    <section
      aria-labelledby="supplier-actions-title"
      data-testid="supplier-actions"
      className="mt-6 rounded-2xl border border-gray-200 bg-white p-6 shadow-sm"
    >
      <h2 id="supplier-actions-title" className="text-lg font-bold text-gray-900">
        At the supplier
      </h2>
      {loadError ? (
        <p role="alert" className="mt-3 text-sm text-red-800">
          {loadError}
        </p>
      ) : !actions ? (
        <p className="mt-3 text-sm text-gray-700">Loading…</p>
      ) : (
        <>
          <div className="mt-4 grid gap-4 sm:grid-cols-2">
            <div>
              {actions.refill.allowed ? (
                <button
                  type="button"
                  className={buttonClass}
                  data-testid="supplier-refill-button"
                  disabled={busy !== null}
                  onClick={() => setAsking('refill')}
                >
                  {busy === 'refill' ? 'Requesting refill…' : 'Request refill'}
                </button>
              ) : (
                <p className="text-sm text-gray-700" data-testid="supplier-refill-reason">
                  Refill: {actions.refill.reason}
                </p>
              )}
            </div>
            <div>
              {actions.cancel.allowed ? (
                <button
                  type="button"
                  className={buttonClass}
                  data-testid="supplier-cancel-button"
                  disabled={busy !== null}
                  onClick={() => setAsking('cancel')}
                >
                  {busy === 'cancel' ? 'Cancelling…' : 'Cancel at supplier'}
                </button>
              ) : (
                <p className="text-sm text-gray-700" data-testid="supplier-cancel-reason">
                  Cancel: {actions.cancel.reason}
                </p>
              )}
            </div>
          </div>
          {actions.refills.length > 0 ? (
            <>
              <h3 className="mt-5 text-sm font-semibold tracking-wide text-gray-700 uppercase">Refills</h3>
              <ul className="mt-2 space-y-2" data-testid="supplier-refills">
                {actions.refills.map((refill) => (
                  <RefillRow key={`${refill.requestedAt}-${refill.supplierRefillId ?? ''}`} refill={refill} />
                ))}
              </ul>
            </>
          ) : null}
        </>
      )}
      <ConfirmDialog
        open={asking !== null}
        title={asking ? QUESTIONS[asking].title : ''}
        text={asking ? `Order ${orderId}: ${QUESTIONS[asking].text}` : ''}
        confirmLabel={asking ? QUESTIONS[asking].confirm : ''}
        cancelLabel={asking ? QUESTIONS[asking].cancel : 'Cancel'}
        destructive={asking === 'cancel'}
        onConfirm={() => {
          if (asking) void run(asking);
        }}
        onCancel={() => setAsking(null)}
        testId="confirm-supplier-action"
      />
    </section>
  );
}
