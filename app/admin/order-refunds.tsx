import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useRevalidator } from 'react-router';
import type {
  AdminRefundBody,
  AdminRefundResult,
  OrderMoney,
  OrderPaymentEntry,
  OrderRefundEntry,
} from '../../core/admin/refund-contracts.ts';
import { REFUND_REASON_MAX_LENGTH } from '../../core/orders/refund-rules.ts';
import { ApiError, type Envelope, messageOf } from '../api/client.ts';
import { adminFieldClass, adminPrimaryButtonClass, adminSecondaryButtonClass } from './list-parts.tsx';
import { ButtonSpinner, formatAdminDate, formatAdminPrice } from './orders.tsx';
import { adminApi } from './token.ts';
import { useToasts } from './toasts.tsx';

/**
 * The order detail's "Payments and refunds" section: each payment the order received (who took
 * it, how, what it is for, what is left to give back) and every refund made, in words. The owner
 * refunds from here through a dialog that makes one idempotency key when it opens, so a double
 * click or a retry is one refund, and that asks before any money moves. A crypto payment is
 * refunded whole, to a wallet address the customer is e-mailed to give. While the order is still
 * running at the supplier, the dialog offers the cancel first: what is not delivered is then
 * refunded on its own.
 */

const SECOND_PAYMENT_REASON = 'You paid this order twice: this is your second payment back.';

/** "4.99" → 499; anything that is not an amount of whole cents → null. */
function centsOf(text: string): number | null {
  const match = /^\s*(\d{1,9})(?:[.,](\d{1,2}))?\s*$/.exec(text);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

interface DialogTarget {
  payment: OrderPaymentEntry;
  /** The second payment's one-click refund: straight to the confirmation, whole and with a reason. */
  oneClick: boolean;
}

/** Asks for a refund; the reply's message says what it came to. */
function postRefund(orderId: string, body: AdminRefundBody): Promise<Envelope<AdminRefundResult>> {
  return adminApi.send<Envelope<AdminRefundResult>, AdminRefundBody>(
    'POST',
    `/api/admin/orders/${encodeURIComponent(orderId)}/refunds`,
    { body },
  );
}

/** 32 random hex digits; getRandomValues works on plain-HTTP origins too, where randomUUID does not exist. */
function newIdempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** `orderId`: the public id the refund route takes; `reference`: the `order_…` id the supplier cancel takes. */
export function OrderRefundsPanel({
  orderId,
  reference,
  money,
}: {
  orderId: string;
  reference: string;
  money: OrderMoney;
}) {
  const [target, setTarget] = useState<DialogTarget | null>(null);
  const applied = money.payments.find((p) => p.kind === 'applied');
  const refundable = applied && applied.left > 0 && applied.refunds !== null;

  return (
    <section
      aria-labelledby="order-money-title"
      data-testid="order-money"
      className="mt-6 rounded-2xl border border-gray-200 bg-white p-6 shadow-sm"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="order-money-title" className="text-lg font-bold text-gray-900">
          Payments and refunds
        </h2>
        {money.canRefund ? (
          refundable ? (
            <button
              type="button"
              className={adminSecondaryButtonClass}
              data-testid="refund-button"
              onClick={() => setTarget({ payment: applied, oneClick: false })}
            >
              Refund
            </button>
          ) : null
        ) : money.payments.length > 0 ? (
          <p className="text-sm text-gray-700" data-testid="refund-owner-only">
            Only the store owner can refund.
          </p>
        ) : null}
      </div>

      {money.payments.length === 0 ? (
        <p className="mt-3 text-sm text-gray-700" data-testid="order-payments-empty">
          No payment received for this order yet.
        </p>
      ) : (
        <ul className="mt-4 divide-y divide-gray-100" data-testid="order-payments">
          {money.payments.map((payment) => (
            <li
              key={payment.id}
              data-testid="order-payment"
              className="flex flex-wrap items-start gap-x-6 gap-y-2 py-3"
            >
              <div className="min-w-0 flex-1">
                <p className="font-semibold text-gray-900">
                  {formatAdminPrice(payment.amount, payment.currency)}{' '}
                  <span className="font-normal text-gray-700">
                    by {payment.methodLabel} through {payment.providerLabel}
                  </span>
                </p>
                <p
                  data-testid="order-payment-role"
                  className={`text-sm font-semibold ${payment.kind === 'applied' ? 'text-green-800' : 'text-amber-800'}`}
                >
                  {payment.roleText}
                </p>
                <p className="text-sm text-gray-700">
                  {formatAdminDate(payment.createdAt)} ·{' '}
                  <span className="font-mono break-all">{payment.paymentId}</span>
                </p>
              </div>
              <dl className="grid grid-cols-2 gap-x-4 text-sm">
                <dt className="text-gray-700">Refunded</dt>
                <dd className="text-right text-gray-900 tabular-nums">
                  {formatAdminPrice(payment.refunded, payment.currency)}
                </dd>
                <dt className="text-gray-700">Left to refund</dt>
                <dd className="text-right font-semibold text-gray-900 tabular-nums" data-testid="order-payment-left">
                  {formatAdminPrice(payment.left, payment.currency)}
                </dd>
              </dl>
              {money.canRefund && payment.kind !== 'applied' && payment.left > 0 && payment.refunds !== null ? (
                <button
                  type="button"
                  className={adminSecondaryButtonClass}
                  data-testid="refund-extra-button"
                  onClick={() => setTarget({ payment, oneClick: payment.kind === 'second' })}
                >
                  {payment.kind === 'second' ? 'Refund this second payment' : 'Refund this payment'}
                </button>
              ) : null}
              {payment.refunds === null && payment.left > 0 ? (
                <p className="w-full text-sm text-gray-700">
                  The provider that took this payment is no longer configured: refund it from its own dashboard.
                </p>
              ) : null}
            </li>
          ))}
        </ul>
      )}

      {money.refunds.length > 0 ? (
        <>
          <h3 className="mt-5 text-sm font-semibold tracking-wide text-gray-700 uppercase">Refunds</h3>
          <ul className="mt-2 space-y-3" data-testid="order-refunds">
            {money.refunds.map((refund) => (
              <li key={refund.id} data-testid="order-refund" className="text-sm text-gray-900">
                <p className="flex flex-wrap gap-x-3">
                  <span className="font-semibold tabular-nums">{formatAdminPrice(refund.amount, refund.currency)}</span>
                  <span
                    data-testid="order-refund-state"
                    className={
                      refund.state === 'done'
                        ? 'text-green-800'
                        : refund.state === 'failed'
                          ? 'text-red-800'
                          : 'text-amber-800'
                    }
                  >
                    {refund.stateText}
                  </span>
                  <span className="text-gray-700">
                    {refund.by === 'Automatic' ? 'Automatic' : `by ${refund.by}`}, {formatAdminDate(refund.createdAt)}
                  </span>
                </p>
                <p className="break-words text-gray-700">{refund.reason}</p>
                {money.canRefund && refund.retryKey ? (
                  <RetryRefundButton orderId={orderId} refund={refund} money={money} retryKey={refund.retryKey} />
                ) : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}

      {target ? (
        <RefundDialog
          key={`${target.payment.id}-${String(target.oneClick)}`}
          orderId={orderId}
          reference={reference}
          target={target}
          runningAtSupplier={money.runningAtSupplier}
          onClose={() => setTarget(null)}
        />
      ) : null}
    </section>
  );
}

/**
 * Asks the provider again for an owner's refund it has not confirmed, with the refund's own key:
 * the same refund, never a second one.
 */
function RetryRefundButton({
  orderId,
  refund,
  money,
  retryKey,
}: {
  orderId: string;
  refund: OrderRefundEntry;
  money: OrderMoney;
  retryKey: string;
}) {
  const toasts = useToasts();
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState(false);
  const payment = money.payments.find((p) => p.id === refund.paymentId);

  async function retry() {
    if (busy) return;
    setBusy(true);
    const body: AdminRefundBody = {
      amountCents: Math.round(refund.amount * 100),
      reason: refund.reason,
      idempotencyKey: retryKey,
      ...(payment && payment.kind !== 'applied' ? { orderPaymentId: payment.id } : {}),
    };
    try {
      const reply = await postRefund(orderId, body);
      toasts.show(reply.message, reply.data?.state === 'done' ? 'success' : 'info');
    } catch (error) {
      toasts.show(messageOf(error), 'error');
    } finally {
      setBusy(false);
      void revalidator.revalidate();
    }
  }

  return (
    <button
      type="button"
      className={`mt-2 ${adminSecondaryButtonClass}`}
      disabled={busy}
      data-testid="refund-retry"
      onClick={() => void retry()}
    >
      {busy ? <ButtonSpinner /> : null}
      Ask the provider again
    </button>
  );
}

type Step = 'supplier' | 'form' | 'confirm';

function RefundDialog({
  orderId,
  reference,
  target,
  runningAtSupplier,
  onClose,
}: {
  orderId: string;
  reference: string;
  target: DialogTarget;
  runningAtSupplier: boolean;
  onClose: () => void;
}) {
  const { payment } = target;
  const ids = useId();
  const toasts = useToasts();
  const revalidator = useRevalidator();
  const dialog = useRef<HTMLDialogElement>(null);
  // One key per opened dialog: every click and retry from it is the same refund.
  const [idempotencyKey] = useState(newIdempotencyKey);
  const wholeOnly = payment.refunds === 'whole-to-address';
  const leftCents = Math.round(payment.left * 100);
  const [step, setStep] = useState<Step>(
    runningAtSupplier && payment.kind === 'applied' ? 'supplier' : target.oneClick ? 'confirm' : 'form',
  );
  const [amountText, setAmountText] = useState((leftCents / 100).toFixed(2));
  const [reason, setReason] = useState(target.oneClick ? SECOND_PAYMENT_REASON : '');
  const [errors, setErrors] = useState<{ amount?: string | undefined; reason?: string | undefined; form?: string }>({});
  const [busy, setBusy] = useState<'refund' | 'cancel' | null>(null);

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);

  const amountCents = wholeOnly ? leftCents : centsOf(amountText);
  const amountShown = formatAdminPrice((amountCents ?? 0) / 100, payment.currency);

  function check(event: FormEvent) {
    event.preventDefault();
    const found: typeof errors = {};
    if (amountCents === null || amountCents <= 0) found.amount = 'Enter an amount such as 4.99';
    else if (amountCents > leftCents)
      found.amount = `At most ${formatAdminPrice(payment.left, payment.currency)} is left to refund`;
    if (reason.trim() === '') found.reason = 'Say why you are refunding: the customer reads it';
    setErrors(found);
    if (Object.keys(found).length === 0) setStep('confirm');
  }

  async function cancelAtSupplier() {
    setBusy('cancel');
    try {
      const result = await adminApi.post<{ accepted: boolean; answer: string }>('/api/order/cancel-at-supplier', {
        razorpay_order_id: reference,
      });
      toasts.show(
        result.answer,
        result.accepted ? 'success' : 'error',
        result.accepted ? 'What was not delivered is refunded once the supplier confirms.' : undefined,
      );
      if (result.accepted) onClose();
    } catch (error) {
      toasts.show(messageOf(error), 'error');
    } finally {
      setBusy(null);
      void revalidator.revalidate();
    }
  }

  async function refund() {
    if (busy || amountCents === null) return;
    setBusy('refund');
    const body: AdminRefundBody = {
      amountCents,
      reason: reason.trim(),
      idempotencyKey,
      ...(payment.kind === 'applied' ? {} : { orderPaymentId: payment.id }),
    };
    try {
      const reply = await postRefund(orderId, body);
      toasts.show(reply.message, reply.data?.state === 'done' ? 'success' : 'info');
      onClose();
      void revalidator.revalidate();
    } catch (error) {
      // 200 with isSuccessful false: the provider refused this refund; a new one needs a new dialog.
      if (error instanceof ApiError && error.status === 200) {
        toasts.show(error.message, 'error');
        onClose();
        void revalidator.revalidate();
        return;
      }
      const fieldMessage = error instanceof ApiError ? error.fieldErrors[0]?.message : undefined;
      setErrors({ form: fieldMessage ?? messageOf(error) });
      setStep(target.oneClick ? 'confirm' : 'form');
    } finally {
      setBusy(null);
    }
  }

  const question = `Refund ${amountShown} to ${payment.destination} through ${payment.providerLabel}?`;

  return (
    <dialog
      ref={dialog}
      aria-labelledby={`${ids}-title`}
      data-testid="refund-dialog"
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onClose();
      }}
      className="m-auto w-[min(32rem,calc(100vw-2rem))] rounded-2xl border border-gray-200 bg-white p-6 text-gray-900 shadow-xl backdrop:bg-gray-900/50"
    >
      <h2 id={`${ids}-title`} className="text-xl font-bold">
        {target.oneClick ? 'Refund the second payment' : 'Refund'}
      </h2>
      <p className="mt-1 text-sm text-gray-700">
        {formatAdminPrice(payment.amount, payment.currency)} by {payment.methodLabel} through {payment.providerLabel}
        {' · '}
        {formatAdminPrice(payment.left, payment.currency)} left to refund
      </p>

      {errors.form ? (
        <p
          role="alert"
          data-testid="refund-error"
          className="mt-4 rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800"
        >
          {errors.form}
        </p>
      ) : null}

      {step === 'supplier' ? (
        <div data-testid="refund-supplier-running">
          <p className="mt-4 rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
            This order is still running at the supplier. Cancel it there first: once the supplier confirms, what was not
            delivered is refunded automatically. Refunding now leaves the delivery running.
          </p>
          <div className="mt-6 flex flex-wrap gap-3">
            <button
              type="button"
              className={adminPrimaryButtonClass}
              disabled={busy !== null}
              data-testid="refund-cancel-at-supplier"
              onClick={() => void cancelAtSupplier()}
            >
              {busy === 'cancel' ? <ButtonSpinner /> : null}
              Cancel at supplier
            </button>
            <button
              type="button"
              className={adminSecondaryButtonClass}
              disabled={busy !== null}
              onClick={() => setStep('form')}
            >
              Refund anyway
            </button>
            <button type="button" className={adminSecondaryButtonClass} disabled={busy !== null} onClick={onClose}>
              Close
            </button>
          </div>
        </div>
      ) : null}

      {step === 'form' ? (
        <form noValidate onSubmit={check} className="mt-4 space-y-4">
          {wholeOnly ? (
            <p className="rounded-xl border border-brand-200 bg-brand-50 px-4 py-3 text-sm text-brand-900">
              Crypto payments are refunded whole: {formatAdminPrice(payment.left, payment.currency)}. The customer is
              e-mailed a link to give the wallet address to send it to, and the refund goes out when they do.
            </p>
          ) : null}
          <div>
            <label htmlFor={`${ids}-amount`} className="block text-sm font-semibold">
              Amount ({payment.currency})
            </label>
            <input
              id={`${ids}-amount`}
              name="amount"
              inputMode="decimal"
              autoComplete="off"
              readOnly={wholeOnly}
              value={wholeOnly ? (leftCents / 100).toFixed(2) : amountText}
              onChange={(event) => {
                setAmountText(event.target.value);
                setErrors((e) => ({ ...e, amount: undefined }));
              }}
              aria-invalid={errors.amount ? true : undefined}
              aria-describedby={errors.amount ? `${ids}-amount-error` : `${ids}-amount-hint`}
              data-testid="refund-amount"
              className={`mt-1 w-40 ${adminFieldClass} ${wholeOnly ? 'bg-gray-100' : ''}`}
            />
            {errors.amount ? (
              <p id={`${ids}-amount-error`} className="mt-1 text-sm font-medium text-red-800">
                {errors.amount}
              </p>
            ) : (
              <p id={`${ids}-amount-hint`} className="mt-1 text-sm text-gray-700">
                At most {formatAdminPrice(payment.left, payment.currency)}.
              </p>
            )}
          </div>
          <div>
            <label htmlFor={`${ids}-reason`} className="block text-sm font-semibold">
              Reason
            </label>
            <textarea
              id={`${ids}-reason`}
              name="reason"
              rows={3}
              maxLength={REFUND_REASON_MAX_LENGTH}
              value={reason}
              onChange={(event) => {
                setReason(event.target.value);
                setErrors((e) => ({ ...e, reason: undefined }));
              }}
              aria-invalid={errors.reason ? true : undefined}
              aria-describedby={errors.reason ? `${ids}-reason-error` : `${ids}-reason-hint`}
              data-testid="refund-reason"
              className={`mt-1 w-full ${adminFieldClass}`}
            />
            {errors.reason ? (
              <p id={`${ids}-reason-error`} className="mt-1 text-sm font-medium text-red-800">
                {errors.reason}
              </p>
            ) : (
              <p id={`${ids}-reason-hint`} className="mt-1 text-sm text-gray-700">
                The customer reads it in the refund e-mail.
              </p>
            )}
          </div>
          <div className="flex flex-wrap gap-3">
            <button type="submit" className={adminPrimaryButtonClass} data-testid="refund-continue">
              Continue
            </button>
            <button type="button" className={adminSecondaryButtonClass} onClick={onClose}>
              Cancel
            </button>
          </div>
        </form>
      ) : null}

      {step === 'confirm' ? (
        <div>
          <p className="mt-4 font-semibold" data-testid="refund-question">
            {question}
          </p>
          {wholeOnly ? (
            <p className="mt-2 text-sm text-gray-700">
              The customer is e-mailed to give a wallet address; the refund goes out when they do.
            </p>
          ) : null}
          <p className="mt-2 text-sm break-words text-gray-700">Reason: {reason.trim()}</p>
          <p className="mt-2 text-sm text-gray-700">A refund cannot be taken back.</p>
          <div className="mt-6 flex flex-wrap gap-3">
            <button
              type="button"
              className={adminPrimaryButtonClass}
              disabled={busy !== null}
              data-testid="refund-confirm"
              onClick={() => void refund()}
            >
              {busy === 'refund' ? <ButtonSpinner /> : null}
              {busy === 'refund' ? 'Refunding…' : `Refund ${amountShown}`}
            </button>
            <button
              type="button"
              className={adminSecondaryButtonClass}
              disabled={busy !== null}
              onClick={() => (target.oneClick ? onClose() : setStep('form'))}
            >
              {target.oneClick ? 'Cancel' : 'Back'}
            </button>
          </div>
        </div>
      ) : null}
    </dialog>
  );
}
