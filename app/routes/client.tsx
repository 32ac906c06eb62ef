import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { formatMoney } from '../../core/money/money.ts';
import { publicOrderId } from '../../core/orders/types.ts';
import { isEmail } from '../../core/orders/validation.ts';
import type { OrderHistoryRow } from '../../core/orders/history.ts';
import type { Route } from './+types/client';
import { CacheStrategy } from '../cache.ts';
import { ApiError, type Envelope, NETWORK_ERROR_MESSAGE, isAbort, messageOf } from '../components/order/api.ts';
import { StatusTag } from '../components/StatusTag.tsx';
import { ButtonSpinner, ErrorBanner, inputClass, linkButton, primaryButton } from '../components/form.tsx';

/**
 * The client page (spec "Client page"): an e-mail, then that customer's orders, read-only.
 * Anyone can type anyone's e-mail, so the page first asks for a 6-digit code sent to that
 * address (core/orders/history.ts) and only then shows the orders. The rows exist only in this
 * browser's memory after a successful lookup: nothing personal is server-rendered or cached.
 */

export const meta: Route.MetaFunction = () => [
  { title: 'My orders | Boostly' },
  { name: 'robots', content: 'noindex' },
];

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': CacheStrategy.none });

const CLIENT_MESSAGES = {
  emailRequired: 'Email is required',
  emailInvalid: 'Invalid email',
  codeRequired: 'Code is required',
  codeFormat: 'The code has 6 digits',
  loading: 'Loading orders...',
  empty: 'You have no orders yet.',
} as const;

/** The server's resend throttle (core/auth/one-time-codes.ts, `resendIntervalMs`). */
const RESEND_COOLDOWN_MS = 60_000;

const PAYMENT_LABELS: Record<string, string> = {
  paid: 'paid',
  created: 'unpaid',
  fail: 'failed',
  expired: 'expired',
};

/**
 * Spec section 9 says history prices have 4 decimals "prefixed by a rupee sign", but orders are
 * charged in USD (section 9, "Order currency USD") and every other price is shown with "$".
 * A rupee sign in front of a dollar amount would misstate what the customer paid, so each row
 * shows its own currency: "$2.9900" for USD, with the spec's 4 decimals.
 */
const formatHistoryPrice = (price: number, currency: string) => formatMoney(price, currency, 4);

/** The spec's history dates are en-GB (dd/mm/yyyy); rows only render in the browser. */
function formatHistoryDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleDateString('en-GB');
}

/** PATCH and POST with the envelope kept whole (the screens show the server's own messages). */
async function send<T>(
  method: 'POST' | 'PATCH',
  path: string,
  payload: unknown,
  signal?: AbortSignal,
): Promise<Envelope<T>> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify(payload),
      signal: signal ?? null,
    });
  } catch (error) {
    if (isAbort(error)) throw error;
    console.error(`${method} ${path} failed`, error);
    throw new ApiError(NETWORK_ERROR_MESSAGE, 0);
  }
  let body: Envelope<T> | null = null;
  try {
    body = (await response.json()) as Envelope<T>;
  } catch (error) {
    if (isAbort(error)) throw error;
  }
  if (!body || typeof body !== 'object') {
    throw new ApiError(
      `The store answered with an unexpected reply (HTTP ${response.status}). Please try again.`,
      response.status,
    );
  }
  if (!response.ok || !body.isSuccessful)
    throw new ApiError(body.message || `Request failed (HTTP ${response.status})`, response.status);
  return body;
}

type Step = 'email' | 'code' | 'orders';

function validateEmail(value: string): string | null {
  const email = value.trim();
  if (!email) return CLIENT_MESSAGES.emailRequired;
  if (!isEmail(email)) return CLIENT_MESSAGES.emailInvalid;
  return null;
}

function validateCode(value: string): string | null {
  const code = value.trim();
  if (!code) return CLIENT_MESSAGES.codeRequired;
  if (!/^\d{6}$/.test(code)) return CLIENT_MESSAGES.codeFormat;
  return null;
}

export default function ClientPage() {
  const ids = useId();
  const emailId = `${ids}-email`;
  const emailErrorId = `${ids}-email-error`;
  const codeId = `${ids}-code`;
  const codeErrorId = `${ids}-code-error`;
  const codeHintId = `${ids}-code-hint`;
  const resultsHeadingId = `${ids}-results`;

  const [step, setStep] = useState<Step>('email');
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [banner, setBanner] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [loading, setLoading] = useState(false);
  const [rows, setRows] = useState<OrderHistoryRow[]>([]);
  /** The e-mail the code was sent to (what the lookup uses, whatever the field says). */
  const [sentTo, setSentTo] = useState('');
  const [cooldownUntil, setCooldownUntil] = useState(0);
  const [clock, setClock] = useState(0);

  const emailInput = useRef<HTMLInputElement>(null);
  const codeInput = useRef<HTMLInputElement>(null);
  const resultsHeading = useRef<HTMLHeadingElement>(null);
  const pending = useRef<AbortController | null>(null);

  useEffect(() => () => pending.current?.abort(), []);

  // The resend countdown ticks once a second while it runs (`requestCode` sets `clock` as it starts one).
  useEffect(() => {
    if (cooldownUntil <= Date.now()) return undefined;
    const timer = setInterval(() => {
      const now = Date.now();
      setClock(now);
      if (now >= cooldownUntil) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [cooldownUntil]);
  const cooldownSeconds = Math.max(0, Math.ceil((cooldownUntil - clock) / 1000));

  // Each step puts the keyboard where the customer continues.
  useEffect(() => {
    if (step === 'code') codeInput.current?.focus();
    else if (step === 'orders') resultsHeading.current?.focus();
  }, [step]);

  const startRequest = () => {
    pending.current?.abort();
    const controller = new AbortController();
    pending.current = controller;
    return controller;
  };

  const requestCode = async (address: string) => {
    const controller = startRequest();
    setSending(true);
    setBanner(null);
    try {
      const reply = await send<never>('POST', '/api/order/order-history/code', { email: address }, controller.signal);
      if (controller.signal.aborted) return false;
      setSentTo(address);
      setNotice(reply.message);
      const now = Date.now();
      setClock(now);
      setCooldownUntil(now + RESEND_COOLDOWN_MS);
      return true;
    } catch (error) {
      if (!controller.signal.aborted && !isAbort(error)) setBanner(messageOf(error));
      return false;
    } finally {
      if (!controller.signal.aborted) setSending(false);
    }
  };

  const submitEmail = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problem = validateEmail(email);
    setEmailError(problem);
    if (problem) {
      setBanner(null);
      emailInput.current?.focus();
      return;
    }
    if (await requestCode(email.trim().toLowerCase())) {
      setCode('');
      setCodeError(null);
      setStep('code');
    }
  };

  const resend = async () => {
    setCode('');
    setCodeError(null);
    if (await requestCode(sentTo)) codeInput.current?.focus();
  };

  const submitCode = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problem = validateCode(code);
    setCodeError(problem);
    if (problem) {
      setBanner(null);
      codeInput.current?.focus();
      return;
    }
    const controller = startRequest();
    setLoading(true);
    setBanner(null);
    try {
      const reply = await send<OrderHistoryRow[]>(
        'PATCH',
        '/api/order/order-history',
        { email: sentTo, code: code.trim() },
        controller.signal,
      );
      if (controller.signal.aborted) return;
      setRows(reply.data ?? []);
      setStep('orders');
    } catch (error) {
      if (controller.signal.aborted || isAbort(error)) return;
      setBanner(messageOf(error));
      codeInput.current?.focus();
    } finally {
      if (!controller.signal.aborted) setLoading(false);
    }
  };

  const startOver = () => {
    pending.current?.abort();
    setSending(false);
    setLoading(false);
    setStep('email');
    setCode('');
    setCodeError(null);
    setBanner(null);
    setNotice(null);
    setRows([]);
    // Let the field render before focusing it.
    requestAnimationFrame(() => emailInput.current?.focus());
  };

  return (
    <section aria-labelledby={`${ids}-title`} className="mx-auto max-w-5xl px-4 py-12">
      <h1 id={`${ids}-title`} className="text-3xl font-extrabold text-gray-900">
        My orders
      </h1>

      {step === 'email' ? (
        <div className="mt-6 max-w-md rounded-2xl border border-gray-200 bg-white p-6 shadow-sm sm:p-8">
          <p className="text-gray-700">
            Enter the e-mail address you ordered with. We will e-mail you a 6-digit code to show your orders.
          </p>
          <form noValidate onSubmit={(event) => void submitEmail(event)} className="mt-6 space-y-4">
            <div>
              <label htmlFor={emailId} className="mb-1.5 block font-semibold text-gray-900">
                Email
              </label>
              <input
                id={emailId}
                ref={emailInput}
                name="email"
                type="email"
                inputMode="email"
                autoComplete="email"
                placeholder="you@example.com"
                value={email}
                onChange={(event) => {
                  setEmail(event.target.value);
                  if (emailError) setEmailError(null);
                }}
                aria-invalid={!!emailError}
                aria-describedby={emailError ? emailErrorId : undefined}
                className={inputClass(!!emailError)}
              />
              {emailError ? (
                <p id={emailErrorId} data-testid="email-error" className="mt-1.5 text-sm font-medium text-red-800">
                  {emailError}
                </p>
              ) : null}
            </div>
            {banner ? <ErrorBanner message={banner} testId="history-error" /> : null}
            <button type="submit" disabled={sending} className={primaryButton}>
              {sending ? <ButtonSpinner /> : null}
              Send code
            </button>
          </form>
        </div>
      ) : null}

      {step === 'code' ? (
        <div className="mt-6 max-w-md rounded-2xl border border-gray-200 bg-white p-6 shadow-sm sm:p-8">
          {notice ? (
            <p
              role="status"
              data-testid="code-notice"
              className="rounded-xl border border-green-200 bg-green-50 px-4 py-3 text-sm font-medium text-green-900"
            >
              {notice}
            </p>
          ) : null}
          <form noValidate onSubmit={(event) => void submitCode(event)} className="mt-6 space-y-4">
            <div>
              <label htmlFor={codeId} className="mb-1.5 block font-semibold text-gray-900">
                6-digit code
              </label>
              <input
                id={codeId}
                ref={codeInput}
                name="code"
                type="text"
                inputMode="numeric"
                autoComplete="one-time-code"
                pattern="[0-9]*"
                maxLength={6}
                placeholder="123456"
                value={code}
                onChange={(event) => {
                  setCode(event.target.value.replace(/\s+/g, ''));
                  if (codeError) setCodeError(null);
                }}
                aria-invalid={!!codeError}
                aria-describedby={codeError ? `${codeErrorId} ${codeHintId}` : codeHintId}
                className={`${inputClass(!!codeError)} font-mono text-lg tracking-[0.4em]`}
              />
              {codeError ? (
                <p id={codeErrorId} data-testid="code-error" className="mt-1.5 text-sm font-medium text-red-800">
                  {codeError}
                </p>
              ) : null}
              <p id={codeHintId} className="mt-1.5 text-xs text-gray-700">
                Sent to{' '}
                <span className="font-semibold text-gray-900" data-testid="code-sent-to">
                  {sentTo}
                </span>
                . Check your spam folder if it does not arrive.
              </p>
            </div>
            {banner ? <ErrorBanner message={banner} testId="history-error" /> : null}
            <button type="submit" disabled={loading || sending} className={primaryButton}>
              {loading ? <ButtonSpinner /> : null}
              Show my orders
            </button>
            {loading ? (
              <p role="status" data-testid="orders-loading" className="text-center text-gray-700">
                {CLIENT_MESSAGES.loading}
              </p>
            ) : null}
          </form>
          <div className="mt-6 flex flex-wrap items-center justify-between gap-3 text-sm">
            <button
              type="button"
              onClick={() => void resend()}
              disabled={sending || loading || cooldownSeconds > 0}
              className={linkButton}
            >
              Send a new code
              {cooldownSeconds > 0 ? <span data-testid="resend-cooldown"> (in {cooldownSeconds} s)</span> : null}
            </button>
            <button type="button" onClick={startOver} className={linkButton}>
              Use another e-mail
            </button>
          </div>
        </div>
      ) : null}

      {step === 'orders' ? (
        <div className="mt-6">
          <div className="flex flex-wrap items-baseline justify-between gap-3">
            <h2
              id={resultsHeadingId}
              ref={resultsHeading}
              tabIndex={-1}
              className="text-xl font-bold text-gray-900 focus:outline-none"
            >
              Orders for <span data-testid="orders-email">{sentTo}</span>
            </h2>
            <button type="button" onClick={startOver} className={`${linkButton} text-sm`}>
              Use another e-mail
            </button>
          </div>
          {rows.length === 0 ? (
            <p
              data-testid="orders-empty"
              className="mt-6 rounded-2xl border border-gray-200 bg-white px-6 py-10 text-center text-gray-700"
            >
              {CLIENT_MESSAGES.empty}{' '}
              <Link to="/" className="font-semibold text-brand-700 underline">
                Browse our packages
              </Link>
            </p>
          ) : (
            <OrdersTable rows={rows} labelledBy={resultsHeadingId} />
          )}
          <p className="mt-4 text-sm text-gray-700">
            Something wrong with an order?{' '}
            <Link to="/contact" className="font-semibold text-brand-700 underline">
              Contact support
            </Link>{' '}
            with its order ID.
          </p>
        </div>
      ) : null}
    </section>
  );
}

function OrdersTable({ rows, labelledBy }: { rows: OrderHistoryRow[]; labelledBy: string }) {
  return (
    // Focusable so keyboard users can scroll a table wider than a phone screen.
    <div
      role="region"
      aria-labelledby={labelledBy}
      tabIndex={0}
      className="mt-4 overflow-x-auto rounded-2xl border border-gray-200 bg-white shadow-sm focus-visible:outline-2 focus-visible:outline-brand-700"
    >
      <table className="min-w-full divide-y divide-gray-200 text-left text-sm" data-testid="orders-table">
        <caption className="sr-only">Your orders, newest first</caption>
        <thead className="bg-gray-50 text-xs font-semibold tracking-wide text-gray-700 uppercase">
          <tr>
            <th scope="col" className="px-4 py-3">
              Order ID
            </th>
            <th scope="col" className="px-4 py-3">
              Service
            </th>
            <th scope="col" className="px-4 py-3">
              Target
            </th>
            <th scope="col" className="px-4 py-3 text-right">
              Quantity
            </th>
            <th scope="col" className="px-4 py-3 text-right">
              Price
            </th>
            <th scope="col" className="px-4 py-3">
              Status
            </th>
            <th scope="col" className="px-4 py-3">
              Payment
            </th>
            <th scope="col" className="px-4 py-3">
              Date
            </th>
            <th scope="col" className="px-4 py-3">
              Error
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-gray-100">
          {rows.map((row) => {
            const id = publicOrderId(row.razorPayOrderId);
            return (
              <tr key={row.razorPayOrderId} data-testid="order-row" data-order-id={id}>
                <th scope="row" className="px-4 py-3 font-mono font-semibold text-gray-900" data-testid="row-order-id">
                  {id}
                </th>
                <td className="px-4 py-3 text-gray-900" data-testid="row-service">
                  {row.serviceName}
                </td>
                <td className="max-w-56 px-4 py-3 break-all text-gray-900" data-testid="row-target">
                  {row.name}
                </td>
                <td className="px-4 py-3 text-right text-gray-900 tabular-nums" data-testid="row-quantity">
                  {row.quantity.toLocaleString('en-US')}
                </td>
                <td className="px-4 py-3 text-right font-semibold text-gray-900 tabular-nums" data-testid="row-price">
                  {formatHistoryPrice(row.price, row.currency)}
                </td>
                <td className="px-4 py-3">
                  <StatusTag status={row.orderStatus} testId="row-status" />
                </td>
                <td className="px-4 py-3 text-gray-900" data-testid="row-payment">
                  {PAYMENT_LABELS[row.paymentStatus] ?? row.paymentStatus}
                </td>
                <td className="px-4 py-3 whitespace-nowrap text-gray-900 tabular-nums" data-testid="row-date">
                  {formatHistoryDate(row.orderDate)}
                </td>
                <td className="px-4 py-3 text-red-800" data-testid="row-error">
                  {row.errorMessage ?? <span className="text-gray-700">—</span>}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
