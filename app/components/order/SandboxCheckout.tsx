import { useEffect, useId, useRef, useState } from 'react';
import { formatMoney } from '../../../core/money/money.ts';
import { PROCESSING_FEE_LABEL } from '../../../core/orders/charges.ts';
import { Spinner } from '../Spinner.tsx';

/** Cents → "$12.99" (the order API gives amounts in the smallest unit). */
export function formatCents(cents: number, currency = 'USD'): string {
  return formatMoney(cents / 100, currency);
}

export interface SandboxCheckoutProps {
  /** The total to pay. */
  amountCents: number;
  /** The package price the total includes; the difference is the processing fee (decision 033). */
  packageCents: number;
  /** The package's price before a sale, when a sale reduced it (decision 038): shown struck through. */
  listCents?: number | undefined;
  currency: string;
  email: string;
  serviceName: string;
  /** The payment method being simulated ("Crypto"). */
  methodLabel: string;
  /** The method's price change included in the total (negative: a discount), in cents. */
  adjustmentCents: number;
  /** Pay pressed; resolves when the payment was handled (the page navigates), rejects with a message to show. */
  onPay: () => Promise<void>;
  onFail: () => Promise<void>;
  /** Closed without paying; the order stays created. */
  onClose: () => void;
}

/**
 * The keyless sandbox's payment window: a modal dialog standing in for the chosen method's
 * provider (its window, or its hosted page for crypto and 3-D Secure cards).
 * Native `<dialog>` opened with showModal() keeps focus inside and closes on Escape.
 */
export function SandboxCheckout({
  amountCents,
  packageCents,
  listCents,
  currency,
  email,
  serviceName,
  methodLabel,
  adjustmentCents,
  onPay,
  onFail,
  onClose,
}: SandboxCheckoutProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const noteId = useId();
  const [busy, setBusy] = useState<'pay' | 'fail' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const amount = formatCents(amountCents, currency);
  const feeCents = Math.max(0, amountCents - adjustmentCents - packageCents);
  /** The package price, the fee or the method's change make the total more than one line. */
  const itemised = feeCents > 0 || adjustmentCents !== 0;
  const onSale = listCents !== undefined && listCents > packageCents;
  /** The package price; during a sale the list price struck through before it, as on the cards. */
  const packagePrice = onSale ? (
    <>
      <del data-testid="sandbox-list-price" className="mr-1.5 font-normal text-gray-600">
        <span className="sr-only">Was </span>
        {formatCents(listCents, currency)}
      </del>
      <ins data-testid="sandbox-package-price" className="no-underline">
        <span className="sr-only">now </span>
        {formatCents(packageCents, currency)}
      </ins>
    </>
  ) : (
    <span data-testid="sandbox-package-price">{formatCents(packageCents, currency)}</span>
  );

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => {
      if (element?.open) element.close();
    };
  }, []);

  const run = async (kind: 'pay' | 'fail') => {
    if (busy) return;
    setBusy(kind);
    setError(null);
    try {
      await (kind === 'pay' ? onPay() : onFail());
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(null);
    }
  };

  return (
    <dialog
      ref={dialog}
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={noteId}
      aria-busy={busy ? 'true' : undefined}
      onCancel={(event) => {
        // Escape: the native dialog would close itself; keep it open while a payment is running.
        event.preventDefault();
        if (!busy) onClose();
      }}
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-2xl bg-white p-0 text-gray-900 shadow-2xl backdrop:bg-gray-900/60"
    >
      <div className="flex items-start justify-between gap-4 border-b border-gray-200 px-6 py-4">
        <div>
          <h2 id={titleId} className="text-lg font-bold">
            Sandbox checkout
          </h2>
          <p className="text-sm text-gray-700">{serviceName}</p>
        </div>
        <button
          type="button"
          aria-label="Close"
          disabled={busy !== null}
          onClick={onClose}
          className="flex h-9 w-9 items-center justify-center rounded-full text-gray-700 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:opacity-50"
        >
          <svg
            aria-hidden="true"
            viewBox="0 0 24 24"
            className="h-5 w-5"
            fill="none"
            stroke="currentColor"
            strokeWidth={2}
          >
            <path strokeLinecap="round" d="M6 6l12 12M18 6L6 18" />
          </svg>
        </button>
      </div>
      <div className="space-y-4 px-6 py-5">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
          <dt className="text-gray-700">Method</dt>
          <dd data-testid="sandbox-method" className="text-right font-semibold">
            {methodLabel}
          </dd>
          {itemised || onSale ? (
            <>
              <dt className="text-gray-700">{onSale ? 'Sale price' : 'Package price'}</dt>
              <dd className="text-right">{packagePrice}</dd>
            </>
          ) : null}
          {feeCents > 0 ? (
            <>
              <dt className="text-gray-700">{PROCESSING_FEE_LABEL}</dt>
              <dd data-testid="sandbox-fee" className="text-right">
                {formatCents(feeCents, currency)}
              </dd>
            </>
          ) : null}
          {adjustmentCents !== 0 ? (
            <>
              <dt className="text-gray-700">{adjustmentCents < 0 ? 'Method discount' : 'Method surcharge'}</dt>
              <dd data-testid="sandbox-adjustment" className="text-right">
                {adjustmentCents < 0 ? '−' : '+'}
                {formatCents(Math.abs(adjustmentCents), currency)}
              </dd>
            </>
          ) : null}
          <dt className="text-gray-700">{itemised ? 'Total' : 'Amount'}</dt>
          <dd data-testid="sandbox-amount" className="text-right text-lg font-extrabold">
            {amount}
          </dd>
          <dt className="text-gray-700">E-mail</dt>
          <dd data-testid="sandbox-email" className="text-right break-all">
            {email}
          </dd>
        </dl>
        <p id={noteId} className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
          Test mode: no money moves. This window stands in for paying by {methodLabel}; choose how the payment should
          end.
        </p>
        {error ? (
          <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm font-medium text-red-800">
            {error}
          </p>
        ) : null}
        {busy ? (
          <Spinner label={busy === 'pay' ? 'Processing payment' : 'Recording the failed payment'} className="py-2" />
        ) : null}
        <div className="flex flex-col gap-3">
          <button
            type="button"
            disabled={busy !== null}
            onClick={() => void run('pay')}
            className="rounded-xl bg-brand-700 px-6 py-3 text-lg font-bold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:opacity-60"
          >
            Pay {amount}
          </button>
          <button
            type="button"
            disabled={busy !== null}
            onClick={() => void run('fail')}
            className="rounded-xl border-2 border-gray-300 px-6 py-2.5 font-semibold text-gray-800 hover:border-red-700 hover:text-red-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:opacity-60"
          >
            Simulate a failed payment
          </button>
        </div>
      </div>
    </dialog>
  );
}
