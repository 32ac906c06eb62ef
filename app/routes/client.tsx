import { type FormEvent, Suspense, lazy, useEffect, useId, useRef, useState } from 'react';
import { useFetcher } from 'react-router';
import { Link } from '../components/Link.tsx';
import { formatMoney } from '../../core/money/money.ts';
import { PROCESSING_FEE_LABEL, describeRefund, paymentState, processingFee } from '../../core/orders/charges.ts';
// Types only: the schemas stay on the server; the page checks with the plain rules (decision 037).
import type { HistoryCodePayload, HistoryLookupPayload, HistoryRow } from '../../core/orders/contracts.ts';
import { checkHistoryCodeForm, checkHistoryLookupForm } from '../../core/orders/history-form-check.ts';
import { publicOrderId } from '../../core/orders/types.ts';
import type { Route } from './+types/client';
import { ApiError, type FieldError, api, messageOf } from '../api/client.ts';
import { CacheStrategy } from '../cache.ts';
import { StatusTag } from '../components/StatusTag.tsx';
import { RefillRequest } from '../components/order/RefillRequest.tsx';
import { privatePageMeta } from '../seo/meta.ts';
import { ButtonSpinner, ErrorBanner, TextField, linkButton, primaryButton } from '../components/form.tsx';
import { type FieldErrors, useFormCheck } from '../components/use-form-check.ts';

/**
 * The client page (spec "Client page"): an e-mail, then that customer's orders, read-only.
 * Anyone can type anyone's e-mail, so the page first asks for a 6-digit code sent to that
 * address (core/orders/history.ts) and only then shows the orders. The rows exist only in this
 * browser's memory after a successful lookup: nothing personal is server-rendered or cached.
 *
 * Both steps post to this route's `clientAction` (in the browser) through a fetcher, so pending
 * and error states come from the router; the forms check with the API's rules in plain code
 * (core/orders/history-form-check.ts, held to the payload schemas by a property test; decision
 * 037), and the server's refusals come back per field or, when not about a field, as the red
 * banner.
 */

export const meta: Route.MetaFunction = () => privatePageMeta('My orders');

/** Only a lookup with a running subscription shows its buttons: their code is fetched then. */
const SubscriptionControls = lazy(() =>
  import('../components/order/SubscriptionControls.tsx').then((module) => ({ default: module.SubscriptionControls })),
);

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': CacheStrategy.none });

const CLIENT_MESSAGES = {
  loading: 'Loading orders...',
  empty: 'You have no orders yet.',
} as const;

/** The server's resend throttle (core/auth/one-time-codes.ts, `resendIntervalMs`). */
const RESEND_COOLDOWN_MS = 60_000;

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

const INTENT = { requestCode: 'request-code', lookUp: 'look-up' } as const;

type HistoryField = 'email' | 'code';

/** A refusal: each field's message, and the red banner's when it is not about a field. */
interface Refusal {
  errors: FieldErrors<HistoryField>;
  formError?: string;
}

type ActionData =
  | ({
      intent: typeof INTENT.requestCode;
      /** Set when a code was sent: to whom, the server's notice, and when (epoch ms; the resend countdown starts then). */
      sent?: { to: string; notice: string; at: number };
    } & Refusal)
  | ({ intent: typeof INTENT.lookUp; rows?: HistoryRow[] } & Refusal);

/** The server's refusal: under its fields, or (no field) as the form's banner. */
function refusal(error: unknown): Refusal {
  const fieldErrors: readonly FieldError[] = error instanceof ApiError ? error.fieldErrors : [];
  const named = fieldErrors.filter((fieldError) => fieldError.field !== '');
  if (named.length === 0) return { errors: {}, formError: messageOf(error) };
  const errors: FieldErrors<HistoryField> = {};
  for (const { field, message } of named) {
    if (field === 'email' || field === 'code') errors[field] ??= message;
  }
  // A refusal about a field this form does not show still needs saying.
  return Object.keys(errors).length > 0 ? { errors } : { errors: {}, formError: named[0]?.message ?? messageOf(error) };
}

export async function clientAction({ request }: Route.ClientActionArgs): Promise<ActionData> {
  const formData = await request.formData();
  const text = (name: string) => {
    const value = formData.get(name);
    return typeof value === 'string' ? value : '';
  };
  if (text('intent') === INTENT.lookUp) {
    const check = checkHistoryLookupForm({ email: text('email'), code: text('code') });
    if (!check.ok) return { intent: INTENT.lookUp, errors: check.errors };
    try {
      const rows = await api.patch<HistoryRow[], HistoryLookupPayload>('/api/order/order-history', check.value, {
        signal: request.signal,
      });
      return { intent: INTENT.lookUp, errors: {}, rows: rows ?? [] };
    } catch (error) {
      return { intent: INTENT.lookUp, ...refusal(error) };
    }
  }

  const check = checkHistoryCodeForm({ email: text('email') });
  if (!check.ok) return { intent: INTENT.requestCode, errors: check.errors };
  const email = check.value.email.toLowerCase();
  try {
    const reply = await api.send<{ message: string }, HistoryCodePayload>('POST', '/api/order/order-history/code', {
      body: { email },
      signal: request.signal,
    });
    return { intent: INTENT.requestCode, errors: {}, sent: { to: email, notice: reply.message, at: Date.now() } };
  } catch (error) {
    return { intent: INTENT.requestCode, ...refusal(error) };
  }
}

const EMAIL_FIELDS = ['email'] as const;
const LOOKUP_FIELDS = ['email', 'code'] as const;

type Step = 'email' | 'code' | 'orders';

export default function ClientPage() {
  const ids = useId();
  const emailId = `${ids}-email`;
  const codeId = `${ids}-code`;
  const codeHintId = `${ids}-code-hint`;
  const resultsHeadingId = `${ids}-results`;

  const fetcher = useFetcher<ActionData>();
  const [step, setStep] = useState<Step>('email');
  /** The e-mail the code was sent to (what the lookup uses, whatever the field said). */
  const [sentTo, setSentTo] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  const [rows, setRows] = useState<HistoryRow[]>([]);
  const [cooldownUntil, setCooldownUntil] = useState(0);
  const [clock, setClock] = useState(0);
  /** The replies already acted on, and which one each form shows (a new step starts clean). */
  const [handled, setHandled] = useState<ActionData | undefined>(undefined);
  const [shownResult, setShownResult] = useState<ActionData | undefined>(undefined);
  /** Bumped to start a step's form afresh (a new code, another e-mail). */
  const [attempt, setAttempt] = useState(0);

  const emailCheck = useFormCheck({ fields: EMAIL_FIELDS, check: checkHistoryCodeForm, validateOn: 'submit' });
  const codeCheck = useFormCheck({ fields: LOOKUP_FIELDS, check: checkHistoryLookupForm, validateOn: 'submit' });

  // A reply moves the page on; done while rendering, once per reply, so no frame shows the old step.
  const reply = fetcher.data;
  if (reply && reply !== handled) {
    setHandled(reply);
    setShownResult(reply);
    if (reply.intent === INTENT.requestCode && reply.sent) {
      setSentTo(reply.sent.to);
      setNotice(reply.sent.notice);
      setClock(reply.sent.at);
      setCooldownUntil(reply.sent.at + RESEND_COOLDOWN_MS);
      setStep('code');
      setAttempt((count) => count + 1);
      codeCheck.reset();
    } else if (reply.intent === INTENT.lookUp && reply.rows) {
      setRows(reply.rows);
      setStep('orders');
    } else if (Object.keys(reply.errors).length > 0) {
      // A refusal shows under its fields on the step's form (a resend's too, on the code step).
      (step === 'email' ? emailCheck : codeCheck).refuse(reply.errors);
    }
  }

  const pendingIntent = fetcher.state === 'idle' ? null : fetcher.formData?.get('intent');
  const sending = pendingIntent === INTENT.requestCode;
  const loading = pendingIntent === INTENT.lookUp;

  const emailInput = useRef<HTMLInputElement>(null);
  const codeInput = useRef<HTMLInputElement>(null);
  const resultsHeading = useRef<HTMLHeadingElement>(null);

  // The resend countdown ticks once a second while it runs.
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

  /** A form is sent only when its check passes; the last refusal's banner goes with the new try. */
  const sendIf = (check: { submit: (form: HTMLFormElement) => unknown }) => (event: FormEvent<HTMLFormElement>) => {
    if (check.submit(event.currentTarget) === null) event.preventDefault();
    else setShownResult(undefined);
  };

  // Each step puts the keyboard where the customer continues (again when a new code starts the
  // code form afresh, which remounts its field).
  useEffect(() => {
    if (step === 'code') codeInput.current?.focus();
    else if (step === 'orders') resultsHeading.current?.focus();
  }, [step, attempt]);

  const resend = () => {
    void fetcher.submit({ intent: INTENT.requestCode, email: sentTo }, { method: 'post' });
  };

  const startOver = () => {
    setStep('email');
    setNotice(null);
    setRows([]);
    setShownResult(undefined);
    setAttempt((count) => count + 1);
    emailCheck.reset();
    // Let the field render before focusing it.
    requestAnimationFrame(() => emailInput.current?.focus());
  };

  const emailError = emailCheck.errorOf('email');
  const codeError = codeCheck.errorOf('code');
  // Only refusals are shown on a form: a success has already moved the page on.
  const banner = shownResult?.formError;
  const emailBanner = step === 'email' && shownResult?.intent === INTENT.requestCode ? banner : undefined;
  const codeBanner = step === 'code' ? banner : undefined;

  return (
    // The page grid's width (max-w-7xl), so the orders table's ten columns fit a desktop without scrolling.
    <section aria-labelledby={`${ids}-title`} className="mx-auto max-w-7xl px-4 py-12">
      <h1 id={`${ids}-title`} className="text-3xl font-extrabold text-gray-900">
        My orders
      </h1>

      {step === 'email' ? (
        <div className="mt-6 max-w-md rounded-2xl border border-gray-200 bg-white p-6 shadow-sm sm:p-8">
          <p className="text-gray-700">
            Enter the e-mail address you ordered with. We will e-mail you a 6-digit code to show your orders.
          </p>
          <fetcher.Form
            method="post"
            id={`${ids}-email-form`}
            noValidate
            onSubmit={sendIf(emailCheck)}
            onInput={emailCheck.onInput}
            className="mt-6 space-y-4"
          >
            <input type="hidden" name="intent" value={INTENT.requestCode} />
            <TextField
              id={emailId}
              ref={emailInput}
              label="Email"
              field={{ name: 'email', key: `email-${attempt}`, initialValue: sentTo }}
              error={emailError}
              errorId={`${emailId}-error`}
              errorTestId="email-error"
              type="email"
              inputMode="email"
              autoComplete="email"
              placeholder="you@example.com"
            />
            {emailBanner ? <ErrorBanner message={emailBanner} testId="history-error" /> : null}
            <button type="submit" disabled={sending} className={primaryButton}>
              {sending ? <ButtonSpinner /> : null}
              Send code
            </button>
          </fetcher.Form>
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
          <fetcher.Form
            method="post"
            id={`${ids}-code-form`}
            noValidate
            onSubmit={sendIf(codeCheck)}
            onInput={codeCheck.onInput}
            className="mt-6 space-y-4"
          >
            <input type="hidden" name="intent" value={INTENT.lookUp} />
            <input type="hidden" name="email" value={sentTo} />
            <TextField
              id={codeId}
              ref={codeInput}
              label="6-digit code"
              field={{ name: 'code', key: `code-${attempt}`, initialValue: undefined }}
              error={codeError}
              errorId={`${codeId}-error`}
              errorTestId="code-error"
              describedBy={codeHintId}
              controlClassName="font-mono text-lg tracking-[0.4em]"
              type="text"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]*"
              maxLength={6}
              hint={
                <p id={codeHintId} className="mt-1.5 text-xs text-gray-700">
                  Sent to{' '}
                  <span className="font-semibold text-gray-900" data-testid="code-sent-to">
                    {sentTo}
                  </span>
                  . Check your spam folder if it does not arrive.
                </p>
              }
            />
            {codeBanner ? <ErrorBanner message={codeBanner} testId="history-error" /> : null}
            <button type="submit" disabled={loading || sending} className={primaryButton}>
              {loading ? <ButtonSpinner /> : null}
              Show my orders
            </button>
            {loading ? (
              <p role="status" data-testid="orders-loading" className="text-center text-gray-700">
                {CLIENT_MESSAGES.loading}
              </p>
            ) : null}
          </fetcher.Form>
          <div className="mt-6 flex flex-wrap items-center justify-between gap-3 text-sm">
            <button
              type="button"
              onClick={resend}
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
              className="min-w-0 text-xl font-bold [overflow-wrap:anywhere] text-gray-900 focus:outline-none"
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

/** A fact's name in a phone's card, where the table's column headers are not shown. */
function CardLabel({ children }: { children: string }) {
  return (
    <span className="block text-xs font-semibold tracking-wide text-gray-700 uppercase md:hidden">{children}</span>
  );
}

/**
 * One markup, two layouts (as the admin's orders list, decision 034): from the `md` breakpoint a
 * table, one row per order; below it (a phone, where nine columns scrolled sideways and hid the
 * status, price and actions) the same rows are cards, the status tag first, each fact with its
 * own label, the actions last at full tap size. CSS only, so the first render is the final one.
 * The status cell is moved first with `order`, not in the markup: the table keeps its columns
 * and the row header stays the order ID; only text moves, so the focus order is unchanged.
 */
function OrdersTable({ rows, labelledBy }: { rows: HistoryRow[]; labelledBy: string }) {
  return (
    // Focusable so keyboard users can scroll a table wider than its column (md and up).
    <div
      role="region"
      aria-labelledby={labelledBy}
      tabIndex={0}
      className="mt-4 focus-visible:outline-2 focus-visible:outline-brand-700 md:overflow-x-auto md:rounded-2xl md:border md:border-gray-200 md:bg-white md:shadow-sm"
    >
      <table
        className="block w-full text-left text-sm md:table md:min-w-full md:divide-y md:divide-gray-200"
        data-testid="orders-table"
      >
        <caption className="sr-only">Your orders, newest first</caption>
        <thead className="hidden bg-gray-50 text-xs font-semibold tracking-wide text-gray-700 uppercase md:table-header-group">
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
            <th scope="col" className="px-4 py-3">
              Actions
            </th>
          </tr>
        </thead>
        <tbody className="flex flex-col gap-3 md:table-row-group md:divide-y md:divide-gray-100">
          {rows.map((row) => {
            const id = publicOrderId(row.razorPayOrderId);
            const fee = processingFee(row.packagePrice, row.price);
            const refund = describeRefund(
              { charged: row.price, refunded: row.refunded, refundedAt: row.refundedAt },
              row.currency,
            );
            const subscriptionActions = row.subscription?.canCancel && row.subscription.token ? row.subscription : null;
            return (
              <tr
                key={row.razorPayOrderId}
                data-testid="order-row"
                data-order-id={id}
                className="grid grid-cols-2 gap-x-4 gap-y-3 rounded-2xl border border-gray-200 bg-white p-4 shadow-sm md:table-row md:rounded-none md:border-0 md:p-0 md:shadow-none"
              >
                <th
                  scope="row"
                  className="order-1 min-w-0 text-right font-mono font-semibold text-gray-900 md:order-none md:px-4 md:py-3 md:text-left"
                >
                  <span className="sr-only md:hidden">Order ID </span>
                  <span data-testid="row-order-id">{id}</span>
                </th>
                <td className="order-2 min-w-0 text-gray-900 md:order-none md:px-4 md:py-3">
                  <CardLabel>Service</CardLabel>
                  <span className="block" data-testid="row-service">
                    {row.serviceName}
                    {row.subscription ? (
                      <span
                        className="block text-xs text-gray-700 md:max-w-64 md:min-w-48"
                        data-testid="row-subscription"
                      >
                        <span className="block" data-testid="row-coverage">
                          {row.subscription.coverage}
                        </span>
                        <span className="block font-semibold text-gray-900" data-testid="row-progress">
                          {row.subscription.progress}
                        </span>
                      </span>
                    ) : null}
                  </span>
                </td>
                <td className="order-4 col-span-2 min-w-0 text-gray-900 md:order-none md:max-w-56 md:px-4 md:py-3">
                  <CardLabel>Target</CardLabel>
                  {/* Breaks only where a line cannot hold it (a long link), never a name mid-word. */}
                  <span className="block [overflow-wrap:anywhere]" data-testid="row-target">
                    {row.name}
                  </span>
                </td>
                <td className="order-3 min-w-0 text-right text-gray-900 tabular-nums md:order-none md:px-4 md:py-3">
                  <CardLabel>Quantity</CardLabel>
                  <span data-testid="row-quantity">{row.quantity.toLocaleString('en-US')}</span>
                </td>
                <td className="order-5 min-w-0 font-semibold text-gray-900 tabular-nums md:order-none md:px-4 md:py-3 md:text-right">
                  <CardLabel>Price</CardLabel>
                  <span className="block" data-testid="row-price">
                    {formatHistoryPrice(row.price, row.currency)}
                    {fee > 0 ? (
                      <span className="block text-xs font-normal whitespace-nowrap text-gray-700" data-testid="row-fee">
                        incl. {PROCESSING_FEE_LABEL.toLowerCase()} {formatMoney(fee, row.currency)}
                      </span>
                    ) : null}
                  </span>
                </td>
                {/* A phone's card starts with the status: what the customer opened the page to see. */}
                <td className="order-first min-w-0 md:order-none md:px-4 md:py-3">
                  <span className="sr-only md:hidden">Status </span>
                  <StatusTag status={row.orderStatus} paymentStatus={row.paymentStatus} testId="row-status" />
                </td>
                <td className="order-6 min-w-0 text-right text-gray-900 md:order-none md:px-4 md:py-3 md:text-left">
                  <CardLabel>Payment</CardLabel>
                  <span className="block" data-testid="row-payment">
                    {paymentState(row.paymentStatus, row.price, row.refunded)}
                    {refund ? (
                      <span className="block text-xs whitespace-nowrap text-gray-700" data-testid="row-refund">
                        {refund}
                      </span>
                    ) : null}
                  </span>
                </td>
                <td className="order-7 min-w-0 text-gray-900 tabular-nums md:order-none md:px-4 md:py-3 md:whitespace-nowrap">
                  <CardLabel>Date</CardLabel>
                  <span data-testid="row-date">{formatHistoryDate(row.orderDate)}</span>
                </td>
                {/* A phone's card names an error only when there is one. */}
                <td
                  className={`order-8 col-span-2 min-w-0 text-red-800 md:order-none md:px-4 md:py-3 ${row.errorMessage ? '' : 'max-md:hidden'}`}
                >
                  <CardLabel>Error</CardLabel>
                  <span className="block" data-testid="row-error">
                    {row.errorMessage ?? <span className="text-gray-700">—</span>}
                  </span>
                </td>
                <td
                  className={`order-9 col-span-2 min-w-0 md:order-none md:px-4 md:py-3 ${row.refill || subscriptionActions ? '' : 'max-md:hidden'}`}
                >
                  <RefillRequest orderId={row.razorPayOrderId} refill={row.refill} />
                  {subscriptionActions ? (
                    <Suspense fallback={null}>
                      <SubscriptionControls orderId={row.razorPayOrderId} subscription={subscriptionActions} />
                    </Suspense>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
