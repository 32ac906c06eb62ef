import { useCallback, useEffect, useState } from 'react';
import { data, useRevalidator } from 'react-router';
import { Link } from '../components/Link.tsx';
import { formatMoney } from '../../core/money/money.ts';
import { PROCESSING_FEE_LABEL, describeRefund, paymentState, processingFee } from '../../core/orders/charges.ts';
import type { OrderStatusView } from '../../core/orders/contracts.ts';
import type { Route } from './+types/order-confirm';
import { CacheStrategy } from '../cache.ts';
import { StatusTag } from '../components/StatusTag.tsx';
import { isRefusal, requestContext } from '../context.ts';
import { privatePageMeta } from '../seo/meta.ts';

export const meta: Route.MetaFunction = ({ loaderData }) =>
  privatePageMeta(loaderData?.order ? 'Order confirmation' : 'Order not found');

/** Per order and changing (payment, delivery): never stored by any cache. */
export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': CacheStrategy.none });

/** The order's status, read on the server for every request (the e-mail is masked). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { services } = context.get(requestContext);
  try {
    return { order: await services.orderStatus(params.orderId), error: null };
  } catch (error) {
    // An unknown order is the buyer's message (spec section 8), not a broken page.
    // Answered with its own status (404 for an unknown order), so nothing treats it as a page.
    if (isRefusal(error)) return data({ order: null, error: error.message }, { status: error.statusCode });
    throw error;
  }
}

/**
 * A buyer back from a hosted payment page may arrive before the provider has told us (crypto waits
 * for confirmations): the page asks again every few seconds, for a while, then leaves it to a button.
 */
const RECHECK_EVERY_MS = 5_000;
const RECHECK_FOR_MS = 10 * 60_000;

/**
 * Asks the store to ask the payment providers about the order now (their webhook may be slow or
 * lost); a failure changes nothing, the page simply reads the order again.
 */
function askProviders(orderId: string): Promise<unknown> {
  return fetch('/api/order/check-payment', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ orderId }),
  }).catch(() => undefined);
}

/** Re-reads the order while its payment is awaited (from mount); `stopped` once the while has passed. */
function usePaymentWatch(orderId: string) {
  const { revalidate, state } = useRevalidator();
  const [stopped, setStopped] = useState(false);
  const recheck = useCallback(() => askProviders(orderId).then(() => revalidate()), [orderId, revalidate]);
  useEffect(() => {
    if (stopped) return;
    void recheck();
    let checks = 0;
    const timer = window.setInterval(() => {
      checks += 1;
      if (checks * RECHECK_EVERY_MS > RECHECK_FOR_MS) {
        window.clearInterval(timer);
        setStopped(true);
        return;
      }
      void recheck();
    }, RECHECK_EVERY_MS);
    return () => window.clearInterval(timer);
  }, [stopped, recheck]);
  const checkAgain = () => {
    setStopped(false);
    void recheck();
  };
  return { stopped, checking: state === 'loading', checkAgain };
}

export default function OrderConfirmPage({ loaderData, params }: Route.ComponentProps) {
  const { order, error } = loaderData;
  return (
    <section aria-live="polite" className="mx-auto max-w-2xl px-4 py-12">
      {error !== null ? (
        <div role="alert" className="rounded-2xl border border-red-200 bg-red-50 px-6 py-5 text-red-800">
          <p className="font-semibold">Error: {error}</p>
          <p className="mt-2 text-sm">
            <Link to="/client" className="font-semibold underline">
              Look up your orders
            </Link>{' '}
            or{' '}
            <Link to={`/contact?order=${encodeURIComponent(params.orderId)}`} className="font-semibold underline">
              contact support
            </Link>
            .
          </p>
        </div>
      ) : order.paymentStatus === 'fail' ? (
        <OrderFailed order={order} />
      ) : order.paymentStatus === 'expired' ? (
        <OrderExpired order={order} />
      ) : (
        <OrderThanks order={order} />
      )}
    </section>
  );
}

function ViewAllOrders() {
  return (
    <Link
      to="/client"
      className="inline-flex items-center justify-center rounded-xl bg-brand-700 px-6 py-3 font-bold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
    >
      View all orders
    </Link>
  );
}

function OrderFailed({ order }: { order: OrderStatusView }) {
  return (
    <div className="rounded-2xl border border-gray-200 bg-white p-8 text-center shadow-sm">
      <p
        aria-hidden="true"
        className="mx-auto flex h-16 w-16 items-center justify-center rounded-full bg-red-100 text-3xl font-bold text-red-700"
      >
        !
      </p>
      <h1 className="mt-4 text-3xl font-extrabold text-gray-900">Order not fulfill</h1>
      <p className="mt-3 text-gray-700">
        Your payment for order <span className="font-semibold text-gray-900">{order.orderId}</span> did not go through,
        so we have not started it. Please try again with another card or payment method.
      </p>
      <div className="mt-6 flex flex-col items-center justify-center gap-3 sm:flex-row">
        {/* Back to the same package; the form comes back as it was typed (order-draft.ts). */}
        <Link
          to={order.orderPath}
          data-testid="try-again"
          className="inline-flex items-center justify-center rounded-xl border-2 border-brand-700 px-6 py-2.5 font-bold text-brand-800 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
        >
          Try again
        </Link>
        <ViewAllOrders />
      </div>
    </div>
  );
}

/**
 * An order nobody paid in time. Its price is stale, so it is never paid as it is: the buyer places
 * it again at today's price, with the same package and account filled in. Money that still arrived
 * for it is being given back, and the page says where that stands.
 */
function OrderExpired({ order }: { order: OrderStatusView }) {
  return (
    <div className="rounded-2xl border border-gray-200 bg-white p-8 text-center shadow-sm">
      <p
        aria-hidden="true"
        className="mx-auto flex h-16 w-16 items-center justify-center rounded-full bg-amber-100 text-3xl font-bold text-amber-800"
      >
        !
      </p>
      <h1 className="mt-4 text-3xl font-extrabold text-gray-900">This order has expired</h1>
      {order.latePayment ? (
        <div
          data-testid="late-payment"
          className="mt-4 rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-left text-sm text-amber-900"
        >
          <p className="font-semibold">{order.latePayment.message}</p>
          <p className="mt-1">
            {order.latePayment.refund === 'refunded'
              ? 'The money is back with the card, wallet or account you paid from; your bank may take a few days to show it.'
              : order.latePayment.refund === 'awaiting_address'
                ? 'Open the link in that e-mail and give the wallet address; we send the refund as soon as we have it.'
                : 'You do not need to do anything: the refund goes back the way you paid.'}{' '}
            We have not started this order.
          </p>
        </div>
      ) : (
        <p className="mt-3 text-gray-700" data-testid="expired-note">
          Order <span className="font-semibold text-gray-900">{order.orderId}</span> was not paid in time, so nothing
          was charged and we have not started it.
        </p>
      )}
      <p className="mt-3 text-gray-700">
        Prices can change, so an expired order is not paid at its old price: place it again to pay today&rsquo;s price.
      </p>
      <div className="mt-6 flex flex-col items-center justify-center gap-3 sm:flex-row">
        {order.placeAgainPath ? (
          <Link
            to={order.placeAgainPath}
            data-testid="place-again"
            className="inline-flex items-center justify-center rounded-xl bg-brand-700 px-6 py-3 font-bold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
          >
            Place it again at today&rsquo;s price
          </Link>
        ) : null}
        <Link
          to={`/contact?order=${encodeURIComponent(order.orderId)}`}
          className="inline-flex items-center justify-center rounded-xl border-2 border-brand-700 px-6 py-2.5 font-bold text-brand-800 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
        >
          Contact support
        </Link>
      </div>
    </div>
  );
}

/** "Waiting for your payment to be confirmed…", then, after a while, a button to ask again. */
function AwaitingPayment({ method, orderId }: { method: string; orderId: string }) {
  const watch = usePaymentWatch(orderId);
  return (
    <div
      data-testid="awaiting-payment"
      className="mt-6 rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900"
    >
      {watch.stopped ? (
        <>
          <p className="font-semibold">We have not heard about your payment by {method} yet.</p>
          <p className="mt-1">
            Some payments take longer to confirm. If you paid, this page will show it once the payment is confirmed; if
            you did not, nothing was charged.
          </p>
          <button
            type="button"
            onClick={watch.checkAgain}
            disabled={watch.checking}
            className="mt-3 rounded-xl border-2 border-brand-700 bg-white px-4 py-2 font-bold text-brand-800 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:opacity-60"
          >
            Check again
          </button>
        </>
      ) : (
        <p className="flex items-center gap-2 font-semibold">
          <span
            aria-hidden="true"
            className="h-4 w-4 shrink-0 animate-spin rounded-full border-2 border-amber-200 border-t-amber-800"
          />
          Waiting for your payment to be confirmed…
        </p>
      )}
    </div>
  );
}

function OrderThanks({ order }: { order: OrderStatusView }) {
  const paid = order.paymentStatus === 'paid';
  const fee = processingFee(order.price, order.amount - order.adjustment);
  /** The package price is its own line when a fee or the method's change is added to it. */
  const itemised = fee > 0 || order.adjustment !== 0;
  const adjustmentLine =
    order.adjustment !== 0
      ? [
          `${order.paymentMethod} ${order.adjustment < 0 ? 'discount' : 'surcharge'}`,
          `${order.adjustment < 0 ? '−' : '+'}${formatMoney(Math.abs(order.adjustment), order.currency)}`,
          'order-adjustment',
        ]
      : null;
  const refund = describeRefund(
    { charged: order.amount, refunded: order.refunded, refundedAt: order.refundedAt },
    order.currency,
  );
  return (
    <div className="rounded-2xl border border-gray-200 bg-white p-8 shadow-sm">
      <div className="text-center">
        <p
          aria-hidden="true"
          className="mx-auto flex h-16 w-16 items-center justify-center rounded-full bg-green-100 text-3xl font-bold text-green-800"
        >
          ✓
        </p>
        <h1 className="mt-4 text-3xl font-extrabold text-gray-900">Thank you</h1>
        <p className="mt-2 text-gray-700">Your order has been placed.</p>
      </div>
      {order.paymentStatus === 'created' ? (
        <AwaitingPayment method={order.paymentMethod} orderId={order.orderId} />
      ) : null}
      <dl
        className="mt-6 divide-y divide-gray-200 rounded-xl border border-gray-200 text-sm"
        data-testid="order-summary"
      >
        {[
          ['Order number', order.orderId, 'order-number'],
          ['Service', order.serviceName, 'order-service'],
          ['Quantity', order.quantity.toLocaleString('en-US'), 'order-quantity'],
          ['Target', order.target, 'order-target'],
          ...(order.subscription
            ? [
                ['Covers', order.subscription.coverage, 'order-coverage'],
                ['Progress', order.subscription.progress, 'order-progress'],
              ]
            : []),
          ...(itemised ? [['Package price', formatMoney(order.price, order.currency), 'order-package-price']] : []),
          ...(fee > 0 ? [[PROCESSING_FEE_LABEL, formatMoney(fee, order.currency), 'order-fee']] : []),
          ...(adjustmentLine ? [adjustmentLine] : []),
          [itemised ? 'Total' : 'Amount', formatMoney(order.amount, order.currency), 'order-amount'],
          ['Payment method', order.paymentMethod, 'order-method'],
          ['Payment', paymentState(order.paymentStatus, order.amount, order.refunded), 'order-payment'],
          ...(refund ? [['Refund', refund, 'order-refund']] : []),
          ['E-mail', order.email, 'order-email'],
        ].map(([label, value, testId]) => (
          <div key={label} className="flex items-start justify-between gap-4 px-4 py-3">
            <dt className="text-gray-700">{label}</dt>
            <dd data-testid={testId} className="text-right font-semibold [overflow-wrap:anywhere] text-gray-900">
              {value}
            </dd>
          </div>
        ))}
        <div className="flex items-center justify-between gap-4 px-4 py-3">
          <dt className="text-gray-700">Status</dt>
          <dd>
            <StatusTag status={order.orderStatus} paymentStatus={order.paymentStatus} testId="order-status" />
          </dd>
        </div>
      </dl>
      {order.testMode ? (
        <p
          data-testid="confirm-test-mode"
          className="mt-6 rounded-lg bg-amber-50 px-3 py-2 text-center text-sm text-amber-900"
        >
          Test mode: payments in this store are simulated, so no money moved for this order.
        </p>
      ) : null}
      <p className="mt-6 text-center text-sm text-gray-700" data-testid="receipt-note">
        {paid
          ? `A receipt has been e-mailed to ${order.email}.`
          : `We will e-mail a receipt to ${order.email} as soon as your payment is confirmed.`}
      </p>
      <div className="mt-6 text-center">
        <ViewAllOrders />
      </div>
    </div>
  );
}
