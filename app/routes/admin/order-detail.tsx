import type { ReactNode } from 'react';
import { useLocation, useNavigation, useRevalidator } from 'react-router';
import { Link } from '../../components/Link.tsx';
import type { Route } from './+types/order-detail';
import type { OrderDetail } from '../../../core/admin/contracts.ts';
import { orderEventWords, timelineFacts } from '../../../core/admin/timeline-words.ts';
import { CacheStrategy } from '../../cache.ts';
import { StatusTag } from '../../components/StatusTag.tsx';
import { AdminPageHeader, DetailLoadingPage } from '../../admin/list-parts.tsx';
import {
  PAYMENT_STYLES,
  RowActionCell,
  formatAdminDate,
  formatAdminPrice,
  orderActionClientAction,
  useRevalidateWhile,
} from '../../admin/orders.tsx';
import { adminApi, isUnauthorized } from '../../admin/token.ts';
import { OrderRefundsPanel } from '../../admin/order-refunds.tsx';
import { OrderNotePanel } from '../../admin/order-note.tsx';
import { SupplierActionsPanel } from '../../admin/supplier-actions.tsx';
import { SubscriptionPanel } from '../../admin/subscription-panel.tsx';
import { isAbort, messageOf } from '../../api/client.ts';

/**
 * One order for the admin: its facts, its payments and refunds (with the owner's Refund), its
 * timeline (every recorded event: payment, supplier, status changes, admin actions) and the
 * e-mails sent about it. The route's clientLoader fetches it with the admin's token (browser
 * only); while an action on it is queued, it is asked for again every 2 s until the result is in.
 */

export const meta: Route.MetaFunction = ({ params }) => [
  { title: `Order ${params.orderId} | Boostly admin` },
  { name: 'robots', content: 'noindex, nofollow' },
];

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': CacheStrategy.none });

type DetailLoad =
  | { ok: true; detail: OrderDetail }
  /** `unauthorized`: the token was refused and the layout is on its way to /login. */
  | { ok: false; message: string; unauthorized: boolean };

export async function clientLoader({ params, request }: Route.ClientLoaderArgs): Promise<DetailLoad> {
  try {
    const detail = await adminApi.get<OrderDetail>(`/api/order/detail/${encodeURIComponent(params.orderId)}`, {
      signal: request.signal,
    });
    return { ok: true, detail };
  } catch (error) {
    if (isAbort(error)) throw error;
    return { ok: false, message: messageOf(error), unauthorized: isUnauthorized(error) };
  }
}

export const clientAction = orderActionClientAction;

/** Before the order has arrived in the browser (and in the server's HTML). */
export function HydrateFallback() {
  return <DetailLoadingPage label="Loading order..." />;
}

/** A timeline entry's detail as labelled values in words (no field names, no JSON). */
function Detail({ value }: { value: unknown }): ReactNode {
  const facts = timelineFacts(value);
  if (facts.length === 0) return <span className="text-gray-700">—</span>;
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5">
      {facts.map((fact, index) => (
        <div key={`${fact.label}-${index}`} className="contents">
          <dt className="font-semibold text-gray-700">{fact.label}</dt>
          <dd className="break-words text-gray-900">{fact.value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Fact({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-semibold tracking-wide text-gray-700 uppercase">{label}</dt>
      <dd className="mt-1 break-words text-gray-900" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

const dash = <span className="text-gray-700">—</span>;

export default function OrderDetailPage({ params, loaderData: load }: Route.ComponentProps) {
  const { orderId } = params;
  const location = useLocation();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  useRevalidateWhile(load.ok && load.detail.order.pendingAction !== null);
  // Another order's page on its way (a link from the timeline, back/forward).
  const loading = navigation.state === 'loading' && navigation.location.pathname !== location.pathname;

  // Back to the list with the filter, search and page it was opened from.
  const from = (location.state as { from?: unknown } | null)?.from;
  const backTo = `/admin/all-orders${typeof from === 'string' && from.startsWith('?') ? from : ''}`;

  return (
    <section aria-labelledby="order-detail-title" aria-busy={loading || revalidator.state === 'loading'}>
      <AdminPageHeader
        titleId="order-detail-title"
        titleClassName="break-all"
        before={
          <Link
            to={backTo}
            className="inline-flex items-center gap-1 text-sm font-semibold text-brand-700 underline hover:text-brand-800"
          >
            <span aria-hidden="true">←</span> Back to all orders
          </Link>
        }
        title={
          <>
            Order <span className="font-mono">{orderId}</span>
          </>
        }
      />

      {!load.ok && !load.unauthorized ? (
        <div
          role="alert"
          data-testid="order-detail-error"
          className="mt-6 rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm font-medium text-red-800"
        >
          {load.message}
        </div>
      ) : null}

      {load.ok ? <OrderDetailView detail={load.detail} /> : null}
    </section>
  );
}

function OrderDetailView({ detail }: { detail: OrderDetail }) {
  const { order, timeline, emails } = detail;
  return (
    <>
      <div className="mt-6 rounded-2xl border border-gray-200 bg-white p-6 shadow-sm">
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div className="flex flex-wrap items-center gap-3">
            <StatusTag status={order.orderStatus} paymentStatus={order.paymentStatus} testId="detail-status" />
            {order.needsReview ? (
              <span
                data-testid="detail-needs-review"
                className="rounded-full bg-amber-100 px-3 py-1 text-xs font-bold text-amber-900"
              >
                needs review
              </span>
            ) : null}
          </div>
          <RowActionCell row={order} />
        </div>
        {order.needsReview && order.reviewReason ? (
          <p className="mt-4 rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
            {order.reviewReason}
          </p>
        ) : null}
        {order.errorMessage ? (
          <p
            data-testid="detail-error"
            className="mt-4 rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800"
          >
            {order.errorMessage}
          </p>
        ) : null}
        <dl className="mt-6 grid gap-x-6 gap-y-4 sm:grid-cols-2 lg:grid-cols-3">
          <Fact label="Provider order ID" testId="detail-provider-id">
            <span className="font-mono">{order.razorPayOrderId}</span>
          </Fact>
          <Fact label="Date" testId="detail-date">
            {formatAdminDate(order.orderDate)}
          </Fact>
          <Fact label="E-mail" testId="detail-email">
            {order.email}
          </Fact>
          <Fact label="Customer">
            <Link
              to={`/admin/all-orders?email=${encodeURIComponent(order.email)}`}
              state={{ fromOrder: order.orderId }}
              className="font-semibold text-brand-700 underline hover:text-brand-800"
              data-testid="customer-orders-link"
            >
              All orders of this customer
            </Link>
          </Fact>
          <Fact label="Service" testId="detail-service">
            {order.serviceName}
          </Fact>
          <Fact label="Target" testId="detail-target">
            <span className="break-all">{order.name}</span>
          </Fact>
          <Fact label="Quantity" testId="detail-quantity">
            {order.quantity.toLocaleString('en-US')}
          </Fact>
          <Fact label="Price" testId="detail-price">
            {formatAdminPrice(order.price, order.currency)}
          </Fact>
          {/* The spec's +1 on small prices, named as the customer sees it (decision 033). */}
          {order.price > order.listPrice ? (
            <Fact label="Processing fee" testId="detail-fee">
              {formatAdminPrice(order.price - order.listPrice, order.currency)}
            </Fact>
          ) : null}
          <Fact label="Payment" testId="detail-payment">
            <span className={`font-semibold ${PAYMENT_STYLES[order.paymentStatus]}`}>{order.paymentStatus}</span>
          </Fact>
          <Fact label="Fulfilment" testId="detail-fulfilment">
            {order.fulfilmentText}
          </Fact>
          {order.kind !== 'package' ? (
            <Fact label="Kind" testId="detail-kind">
              {order.kindLabel}
            </Fact>
          ) : null}
          <Fact label="Supplier order ID" testId="detail-supplier-id">
            {order.supplierOrderId ? <span className="font-mono">{order.supplierOrderId}</span> : dash}
          </Fact>
          {order.planType ? <Fact label="Plan">{order.planType}</Fact> : null}
          {order.comment ? (
            <Fact label="Comments">
              <span className="whitespace-pre-line">{order.comment}</span>
            </Fact>
          ) : null}
          <Fact label="Payment ID">
            {order.paymentId ? <span className="font-mono">{order.paymentId}</span> : dash}
          </Fact>
          <Fact label="Paid at">{order.paidAt ? formatAdminDate(order.paidAt) : dash}</Fact>
          <Fact label="Start count">{order.startCount ?? dash}</Fact>
          <Fact label="Remains">{order.remains ?? dash}</Fact>
          {order.refunded ? <Fact label="Refunded">{formatAdminPrice(order.refunded, order.currency)}</Fact> : null}
        </dl>
      </div>

      <OrderNotePanel
        key={`${order.orderId}:${detail.note?.updatedAt ?? ''}`}
        orderId={order.orderId}
        note={detail.note}
      />

      {detail.subscription ? (
        <SubscriptionPanel orderId={order.orderId} kindLabel={order.kindLabel} subscription={detail.subscription} />
      ) : null}

      <SupplierActionsPanel orderId={order.razorPayOrderId} version={`${order.orderStatus}:${timeline.length}`} />

      <OrderRefundsPanel orderId={order.orderId} reference={order.razorPayOrderId} money={detail.money} />

      <h2 id="order-timeline" className="mt-10 text-xl font-bold text-gray-900">
        Timeline
      </h2>
      {timeline.length === 0 ? (
        <p className="mt-3 text-gray-700">Nothing recorded yet.</p>
      ) : (
        <ol
          aria-labelledby="order-timeline"
          data-testid="order-timeline"
          className="mt-4 space-y-0 border-l-2 border-brand-200 pl-5"
        >
          {timeline.map((entry, index) => (
            <li key={`${entry.at}-${index}`} data-testid="timeline-entry" className="relative pb-5">
              <span
                aria-hidden="true"
                className="absolute top-1.5 -left-[27px] h-3 w-3 rounded-full border-2 border-white bg-brand-700"
              />
              <div className="flex flex-wrap items-baseline gap-x-3">
                <time dateTime={entry.at} className="text-sm text-gray-700 tabular-nums">
                  {formatAdminDate(entry.at, true)}
                </time>
                <span data-testid="timeline-kind" className="text-sm font-semibold text-gray-900">
                  {orderEventWords(entry.kind)}
                </span>
              </div>
              <div className="mt-1 text-sm">
                <Detail value={entry.detail} />
              </div>
            </li>
          ))}
        </ol>
      )}

      <h2 id="order-emails" className="mt-10 text-xl font-bold text-gray-900">
        E-mails
      </h2>
      {emails.length === 0 ? (
        <p className="mt-3 text-gray-700" data-testid="order-emails-empty">
          No e-mails for this order.
        </p>
      ) : (
        // Focusable so keyboard users can scroll a table wider than the screen.
        <div
          role="region"
          aria-labelledby="order-emails"
          tabIndex={0}
          className="relative mt-4 overflow-x-auto rounded-2xl border border-gray-200 bg-white shadow-sm"
        >
          <table className="min-w-full divide-y divide-gray-200 text-left text-sm" data-testid="order-emails">
            <thead className="bg-gray-50 text-xs font-semibold tracking-wide text-gray-700 uppercase">
              <tr>
                <th scope="col" className="px-3 py-3">
                  Subject
                </th>
                <th scope="col" className="px-3 py-3">
                  Status
                </th>
                <th scope="col" className="px-3 py-3 text-right">
                  Attempts
                </th>
                <th scope="col" className="px-3 py-3">
                  Queued
                </th>
                <th scope="col" className="px-3 py-3">
                  Last error
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-gray-100">
              {emails.map((mail, index) => (
                <tr key={`${mail.createdAt}-${index}`} data-testid="email-row">
                  <td className="px-3 py-3 break-words text-gray-900">{mail.subject ?? dash}</td>
                  <td className="px-3 py-3 font-semibold text-gray-900">{mail.status}</td>
                  <td className="px-3 py-3 text-right text-gray-900 tabular-nums">{mail.attempts}</td>
                  <td className="px-3 py-3 text-gray-900 tabular-nums sm:whitespace-nowrap">
                    {formatAdminDate(mail.createdAt)}
                  </td>
                  <td className="px-3 py-3 break-words text-red-800">{mail.lastError ?? dash}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
