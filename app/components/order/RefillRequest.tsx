import { useState } from 'react';
import type { CustomerRefill } from '../../../core/orders/refill-contracts.ts';
import { api, messageOf } from '../../api/client.ts';

/**
 * A completed order's refill in /client (decision 040): its latest refill's state and, when the
 * order may be refilled, "Request refill". Eligibility, the window and the one-open-refill rule
 * are the server's (core/fulfilment/refills.ts); this only shows them. The button sends the
 * token the verified lookup handed out for this order, so nobody can refill another's order.
 * Types only from the contracts: /client bundles no zod (decision 037).
 */

/** "12 Dec 2026" in UTC, as the server words the window's end. */
function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
}

/** On a phone's order card the button is a whole tap target (44 px tall, the card's width). */
export function RefillRequest({ orderId, refill }: { orderId: string; refill: CustomerRefill | undefined }) {
  const [view, setView] = useState(refill);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!view) return null;
  const { latest } = view;

  async function request(token: string) {
    if (sending) return;
    setSending(true);
    setError(null);
    try {
      setView(await api.post<CustomerRefill>('/api/order/refill', { orderId, token }));
    } catch (failure) {
      setError(messageOf(failure));
      // The refusal may mean the state changed (another tab): stop offering the button.
      setView((current) => (current ? { ...current, canRequest: false, token: null } : current));
    } finally {
      setSending(false);
    }
  }

  return (
    <div className="mt-2 space-y-1 text-xs" data-testid="row-refill">
      {latest ? (
        <p className="text-gray-900" data-testid="row-refill-state">
          Refill: <span className="font-semibold">{latest.state}</span>
          {latest.state === 'Rejected' && latest.note ? (
            <span className="block text-gray-700">{latest.note}</span>
          ) : null}
        </p>
      ) : null}
      {view.canRequest && view.token ? (
        <button
          type="button"
          data-testid="row-refill-request"
          disabled={sending}
          onClick={() => void request(view.token ?? '')}
          className="inline-flex items-center justify-center rounded-lg border-2 border-brand-700 px-2 py-1 font-semibold whitespace-nowrap max-md:min-h-11 max-md:w-full max-md:px-4 max-md:text-sm text-brand-700 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-not-allowed disabled:border-gray-500 disabled:text-gray-700"
        >
          {sending ? 'Requesting…' : 'Request refill'}
        </button>
      ) : view.reason && view.reason !== 'A refill is already in progress for this order.' ? (
        <p className="text-gray-700" data-testid="row-refill-reason">
          {view.reason}
        </p>
      ) : null}
      {view.canRequest && view.windowEndsAt ? (
        <p className="text-gray-700">Refill window ends {formatDate(view.windowEndsAt)}</p>
      ) : null}
      {error ? (
        <p role="alert" className="font-medium text-red-800" data-testid="row-refill-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
