import { useEffect, useId, useRef, useState } from 'react';
import type { OrderSubscription } from '../../../core/orders/contracts.ts';
import { api, messageOf } from '../../api/client.ts';

/**
 * A subscription's buttons in /client (decision 057): "Cancel subscription", which asks first and
 * says what the recorded rule refunds (the server's words), and the renewal reminders switch. Both
 * send the per-order token the verified lookup handed out, so nobody can act on another's order.
 * Loaded lazily (only a lookup with a subscription shows it); types only from the contracts, no zod.
 */

interface Reply<T> {
  message: string;
  data?: T;
}

/** On a phone's order card a button is a whole tap target (44 px tall, the card's width). */
const outline =
  'inline-flex items-center justify-center rounded-lg border-2 px-2 py-1 font-semibold whitespace-nowrap max-md:min-h-11 max-md:w-full max-md:px-4 max-md:text-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-not-allowed disabled:border-gray-500 disabled:text-gray-700';

export function SubscriptionControls({ orderId, subscription }: { orderId: string; subscription: OrderSubscription }) {
  const ids = useId();
  const [reminders, setReminders] = useState(subscription.reminders);
  const [cancellable, setCancellable] = useState(subscription.canCancel);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState<'cancel' | 'reminders' | null>(null);
  const [result, setResult] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const token = subscription.token;
  if (!token || !subscription.canCancel) return null;

  async function cancel(proof: string) {
    setBusy('cancel');
    setError(null);
    try {
      const reply = await api.send<Reply<{ ended: boolean; message: string }>>(
        'POST',
        '/api/order/subscription/cancel',
        { body: { orderId, token: proof } },
      );
      setResult(reply.data?.message ?? reply.message);
      setCancellable(false);
      setConfirming(false);
    } catch (failure) {
      setError(messageOf(failure));
      setConfirming(false);
    } finally {
      setBusy(null);
    }
  }

  async function switchReminders(proof: string, on: boolean) {
    setBusy('reminders');
    setError(null);
    try {
      const reply = await api.send<Reply<{ reminders: boolean }>>('POST', '/api/order/subscription/reminders', {
        body: { orderId, token: proof, reminders: on },
      });
      setReminders(reply.data?.reminders ?? on);
      setResult(reply.message);
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className="mt-2 space-y-2 text-xs" data-testid="row-subscription-controls">
      <div className="flex items-center gap-2 text-gray-900 max-md:min-h-11 max-md:text-sm">
        <button
          type="button"
          role="switch"
          aria-checked={reminders}
          aria-labelledby={`${ids}-reminders`}
          data-testid="row-reminders"
          disabled={busy !== null || !cancellable}
          onClick={() => void switchReminders(token, !reminders)}
          // The switch is drawn small; its ::after widens what a finger can hit to 44 px on a phone.
          className={`relative inline-flex h-5 w-9 shrink-0 items-center rounded-full transition-colors max-md:after:absolute max-md:after:-inset-x-1 max-md:after:-inset-y-3 max-md:after:content-[''] focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:opacity-60 ${
            reminders ? 'bg-brand-700' : 'bg-gray-400'
          }`}
        >
          <span
            aria-hidden="true"
            className={`inline-block h-4 w-4 rounded-full bg-white shadow transition-transform ${
              reminders ? 'translate-x-4.5' : 'translate-x-0.5'
            }`}
          />
        </button>
        <span id={`${ids}-reminders`} className="whitespace-nowrap">
          Renewal reminders
        </span>
      </div>
      {cancellable ? (
        <button
          type="button"
          data-testid="row-subscription-cancel"
          disabled={busy !== null}
          onClick={() => setConfirming(true)}
          className={`${outline} border-red-700 text-red-800 hover:bg-red-50`}
        >
          Cancel subscription
        </button>
      ) : null}
      {confirming ? (
        <CancelDialog
          refund={subscription.cancelRefund}
          busy={busy === 'cancel'}
          onConfirm={() => void cancel(token)}
          onClose={() => setConfirming(false)}
        />
      ) : null}
      {result ? (
        <p role="status" className="max-w-56 text-gray-900" data-testid="row-subscription-result">
          {result}
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="max-w-56 font-medium text-red-800" data-testid="row-subscription-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The question before a cancel: a modal dialog (Escape or "Keep it" closes it), as the checkout's. */
function CancelDialog({
  refund,
  busy,
  onConfirm,
  onClose,
}: {
  refund: string | null;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const ids = useId();
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => {
      if (element?.open) element.close();
    };
  }, []);
  return (
    <dialog
      ref={dialog}
      aria-modal="true"
      aria-labelledby={`${ids}-title`}
      aria-describedby={`${ids}-body`}
      data-testid="cancel-subscription-dialog"
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onClose();
      }}
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-2xl bg-white p-0 text-gray-900 shadow-2xl backdrop:bg-gray-900/60"
    >
      <div className="space-y-3 px-6 py-5 text-sm">
        <h2 id={`${ids}-title`} className="text-lg font-bold">
          Cancel this subscription?
        </h2>
        <div id={`${ids}-body`} className="space-y-2 text-gray-800">
          <p>We stop it at our supplier now; nothing more is delivered after that.</p>
          {refund ? <p className="font-semibold text-gray-900">{refund}</p> : null}
        </div>
        <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
          <button
            type="button"
            disabled={busy}
            onClick={onClose}
            className="rounded-xl border-2 border-gray-300 px-4 py-2 font-bold text-gray-900 hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
          >
            Keep it
          </button>
          <button
            type="button"
            disabled={busy}
            onClick={onConfirm}
            data-testid="cancel-subscription-confirm"
            className="rounded-xl bg-red-700 px-4 py-2 font-bold text-white hover:bg-red-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-700 disabled:opacity-60"
          >
            {busy ? 'Cancelling…' : 'Cancel subscription'}
          </button>
        </div>
      </div>
    </dialog>
  );
}
