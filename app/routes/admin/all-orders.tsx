import { useId, useRef, useState } from 'react';
import { useLocation, useNavigation, useRevalidator, useSearchParams } from 'react-router';
import { Link } from '../../components/Link.tsx';
import type { Route } from './+types/all-orders';
import {
  MAX_KEYWORD_LENGTH,
  ORDER_VIEWS,
  ORDER_VIEW_LABELS,
  type OrdersListReply,
} from '../../../core/admin/contracts.ts';
import { formatPeriodDate } from '../../../core/subscriptions/terms.ts';
import { ORDER_STATUSES } from '../../../core/orders/status.ts';
import { providerLabel } from '../../../core/admin/payment-words.ts';
import { PROVIDER_IDS } from '../../../core/payments/provider.ts';
import { CacheStrategy } from '../../cache.ts';
import { StatusTag } from '../../components/StatusTag.tsx';
import {
  AdminPageHeader,
  AdminSearchForm,
  ListCount,
  ListEmpty,
  ListLoadError,
  ListLoading,
  adminFieldClass,
  adminSecondaryButtonClass,
} from '../../admin/list-parts.tsx';
import {
  ButtonSpinner,
  PAYMENT_STYLES,
  RowActionCell,
  formatAdminDate,
  formatAdminPrice,
  orderActionClientAction,
  useRevalidateWhile,
} from '../../admin/orders.tsx';
import { useToasts } from '../../admin/toasts.tsx';
import { adminApi, isUnauthorized } from '../../admin/token.ts';
import { isAbort, messageOf } from '../../api/client.ts';
import { StrokeIcon } from '../../components/StrokeIcon.tsx';
import { CustomerTotalsPanel } from '../../admin/customer-totals.tsx';

/**
 * Admin all-orders (spec "Admin all-orders", sections 4, 8, 9): status and payment provider
 * filters (the provider's only when there is more than one to choose), search (on Enter
 * or the magnifier; empty clears), the orders table with its row actions, pagination and a CSV
 * export. Filter, search and page live in the query string, so a reload or a shared link keeps
 * them; the route's clientLoader fetches the page for the address with the admin's token (the
 * token is in local storage: nothing is server-rendered), and the router's navigation state says
 * when a new page is on its way. A row with a queued action is asked for again every 2 s until
 * its result is in.
 */

export const meta: Route.MetaFunction = () => [
  { title: 'All orders | Boostly admin' },
  { name: 'robots', content: 'noindex, nofollow' },
];

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': CacheStrategy.none });

const PAGE_SIZE = 20;

const STATUS_VALUES = new Set<string>(ORDER_STATUSES);
const PROVIDER_VALUES = new Set<string>(PROVIDER_IDS);
const VIEW_VALUES = new Set<string>(ORDER_VIEWS);

interface Query {
  status: string;
  /** The payment provider's id, '' for every provider. */
  provider: string;
  /** Subscriptions, ending this week, queued; '' for every order. */
  view: string;
  keyword: string;
  /** One customer's orders: their e-mail exactly (case-blind); '' for every customer. */
  email: string;
  page: number;
}

function readQuery(params: URLSearchParams): Query {
  const status = params.get('status') ?? '';
  const provider = params.get('provider') ?? '';
  const view = params.get('view') ?? '';
  const page = Number(params.get('page'));
  return {
    status: STATUS_VALUES.has(status) ? status : '',
    provider: PROVIDER_VALUES.has(provider) ? provider : '',
    view: VIEW_VALUES.has(view) ? view : '',
    keyword: (params.get('keyword') ?? '').trim(),
    email: (params.get('email') ?? '').trim().toLowerCase(),
    page: Number.isInteger(page) && page >= 1 ? page : 1,
  };
}

function toParams(query: Query): URLSearchParams {
  const params = new URLSearchParams();
  if (query.status) params.set('status', query.status);
  if (query.provider) params.set('provider', query.provider);
  if (query.view) params.set('view', query.view);
  if (query.keyword) params.set('keyword', query.keyword);
  if (query.email) params.set('email', query.email);
  if (query.page > 1) params.set('page', String(query.page));
  return params;
}

type ListLoad =
  | { ok: true; reply: OrdersListReply }
  /** `unauthorized`: the token was refused and the layout is on its way to /login. */
  | { ok: false; message: string; unauthorized: boolean };

export async function clientLoader({ request }: Route.ClientLoaderArgs): Promise<ListLoad> {
  const { status, provider, view, keyword, email, page } = readQuery(new URL(request.url).searchParams);
  try {
    const reply = await adminApi.send<OrdersListReply>('GET', '/api/order/all-orders', {
      query: { keyword, status, provider, view, email, page, size: PAGE_SIZE },
      signal: request.signal,
    });
    return { ok: true, reply };
  } catch (error) {
    // A newer navigation replaced this one: the router drops its result.
    if (isAbort(error)) throw error;
    return { ok: false, message: messageOf(error), unauthorized: isUnauthorized(error) };
  }
}

export const clientAction = orderActionClientAction;

/** "boostly-orders-2025-03-14.csv", unless the server names the file. */
function downloadName(response: Response): string {
  const disposition = response.headers.get('content-disposition') ?? '';
  const name = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition)?.[1];
  if (name) {
    try {
      return decodeURIComponent(name);
    } catch {
      return name;
    }
  }
  return `boostly-orders-${new Date().toISOString().slice(0, 10)}.csv`;
}

/** Before the first page has arrived in the browser (and in the server's HTML). */
export function HydrateFallback() {
  return (
    <section aria-labelledby="all-orders-title">
      <AdminPageHeader titleId="all-orders-title" title="All orders" />
      <ListLoading testId="orders-loading" label="Loading orders..." />
    </section>
  );
}

const secondaryButton = adminSecondaryButtonClass;

export default function AllOrdersPage({ loaderData: list }: Route.ComponentProps) {
  const ids = useId();
  const toasts = useToasts();
  const location = useLocation();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const [searchParams, setSearchParams] = useSearchParams();
  // While a new address loads, the controls already show it; the table keeps the last page.
  const navigating = navigation.state === 'loading' && navigation.location.pathname === location.pathname;
  const query = readQuery(navigating ? new URLSearchParams(navigation.location.search) : searchParams);
  const queryKey = toParams(query).toString();

  const [keywordInput, setKeywordInput] = useState(query.keyword);
  const [exporting, setExporting] = useState(false);
  const tableRegion = useRef<HTMLDivElement>(null);

  // The box follows the address (back/forward, "Clear filters"): when the address's keyword
  // changes, the box is reset to it during this render, so no stale text is ever painted.
  const [boxKeyword, setBoxKeyword] = useState(query.keyword);
  if (boxKeyword !== query.keyword) {
    setBoxKeyword(query.keyword);
    setKeywordInput(query.keyword);
  }

  const rows = list.ok ? list.reply.data : [];
  // A new address, or "Try again" after a failure (background polling does not dim the table).
  const loading = navigating || (!list.ok && revalidator.state === 'loading');
  useRevalidateWhile(rows.some((row) => row.pendingAction !== null));
  const reload = () => void revalidator.revalidate();

  const go = (next: Partial<Query>) => {
    setSearchParams(toParams({ ...query, ...next }));
  };

  const submitSearch = () => {
    const keyword = keywordInput.trim();
    setKeywordInput(keyword);
    if (keyword === query.keyword && query.page === 1) reload();
    else go({ keyword, page: 1 });
  };

  const changePage = (page: number) => {
    go({ page });
    tableRegion.current?.focus();
  };

  const exportCsv = async () => {
    setExporting(true);
    try {
      const response = await adminApi.raw('GET', '/api/order/all-orders.csv', {
        query: {
          keyword: query.keyword,
          status: query.status,
          provider: query.provider,
          view: query.view,
          email: query.email,
        },
      });
      if (!response.ok) {
        let message = `HTTP ${response.status}`;
        try {
          message = ((await response.json()) as { message?: string }).message || message;
        } catch {
          // Not JSON: keep the status.
        }
        toasts.show('The export failed', 'error', message);
        return;
      }
      const blob = await response.blob();
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = downloadName(response);
      link.rel = 'noopener';
      document.body.append(link);
      link.click();
      link.remove();
      // Give the browser time to start the download before the URL goes away.
      setTimeout(() => URL.revokeObjectURL(url), 30_000);
    } catch (error) {
      if (!isUnauthorized(error)) toasts.show('The export failed', 'error', messageOf(error));
    } finally {
      setExporting(false);
    }
  };

  const filtered =
    query.status !== '' || query.provider !== '' || query.view !== '' || query.keyword !== '' || query.email !== '';
  // The providers configured or named by an order; one asked for in the address always shows.
  const providerChoices = list.ok ? list.reply.providers : [];
  const providerOptions =
    query.provider && !providerChoices.some((choice) => choice.id === query.provider)
      ? [...providerChoices, { id: query.provider, label: providerLabel(query.provider) }]
      : providerChoices;
  const count = list.ok ? list.reply.count : 0;
  const about = list.ok && !list.reply.countExact ? 'about ' : '';
  const currentPage = list.ok && !loading ? list.reply.currentPage : query.page;
  const pages = Math.max(list.ok ? list.reply.totalPages : 0, 1);
  const listState = loading ? 'loading' : list.ok ? 'ready' : list.unauthorized ? 'leaving' : 'failed';
  const detailState = { from: queryKey ? `?${queryKey}` : '' };

  return (
    <section aria-labelledby={`${ids}-title`}>
      <AdminPageHeader
        titleId={`${ids}-title`}
        title="All orders"
        description={
          <ListCount
            testId="orders-count"
            spacing="mt-1"
            count={listState === 'ready' ? count : null}
            one="order"
            many="orders"
            approximate={about !== ''}
            filtered={filtered}
          />
        }
        action={
          <button type="button" onClick={() => void exportCsv()} disabled={exporting} className={secondaryButton}>
            {exporting ? (
              <ButtonSpinner />
            ) : (
              <StrokeIcon className="h-4 w-4">
                <path d="M12 4v11m0 0-4-4m4 4 4-4M5 20h14" />
              </StrokeIcon>
            )}
            Export CSV
          </button>
        }
      />

      {query.email ? (
        <CustomerTotalsPanel
          email={query.email}
          totals={list.ok && !loading ? (list.reply.customer ?? null) : null}
          backToOrder={(location.state as { fromOrder?: unknown } | null)?.fromOrder}
          onShowAll={() => go({ email: '', page: 1 })}
        />
      ) : null}

      <div className="flex flex-wrap items-end gap-4 rounded-2xl border border-gray-200 bg-white p-4">
        <div className="min-w-0">
          <label htmlFor={`${ids}-status`} className="mb-1 block text-sm font-semibold text-gray-900">
            Status
          </label>
          <select
            id={`${ids}-status`}
            value={query.status}
            onChange={(event) => go({ status: event.target.value, page: 1 })}
            className={`${adminFieldClass} w-full min-w-44`}
          >
            <option value="">All</option>
            {ORDER_STATUSES.map((status) => (
              <option key={status} value={status}>
                {status}
              </option>
            ))}
          </select>
        </div>

        <div className="min-w-0">
          <label htmlFor={`${ids}-view`} className="mb-1 block text-sm font-semibold text-gray-900">
            Show
          </label>
          <select
            id={`${ids}-view`}
            value={query.view}
            onChange={(event) => go({ view: event.target.value, page: 1 })}
            className={`${adminFieldClass} w-full min-w-44`}
            data-testid="orders-view-filter"
          >
            <option value="">All orders</option>
            {ORDER_VIEWS.map((view) => (
              <option key={view} value={view}>
                {ORDER_VIEW_LABELS[view]}
              </option>
            ))}
          </select>
        </div>

        {providerOptions.length > 1 || query.provider ? (
          <div className="min-w-0">
            <label htmlFor={`${ids}-provider`} className="mb-1 block text-sm font-semibold text-gray-900">
              Payment provider
            </label>
            <select
              id={`${ids}-provider`}
              value={query.provider}
              onChange={(event) => go({ provider: event.target.value, page: 1 })}
              className={`${adminFieldClass} w-full min-w-44`}
              data-testid="orders-provider-filter"
            >
              <option value="">All</option>
              {providerOptions.map((choice) => (
                <option key={choice.id} value={choice.id}>
                  {choice.label}
                </option>
              ))}
            </select>
          </div>
        ) : null}

        <AdminSearchForm
          inputId={`${ids}-search`}
          label="Search orders"
          placeholder="Order ID, e-mail, target or service"
          maxLength={MAX_KEYWORD_LENGTH}
          className="min-w-0 flex-1 basis-64 sm:max-w-md"
          value={keywordInput}
          onValueChange={setKeywordInput}
          onSearch={submitSearch}
          spellCheck={false}
        />

        {filtered ? (
          <button
            type="button"
            onClick={() => setSearchParams(new URLSearchParams())}
            className="py-2 text-sm font-semibold text-brand-700 underline hover:text-brand-800"
          >
            Clear filters
          </button>
        ) : null}
      </div>

      {listState === 'failed' && !list.ok ? (
        <ListLoadError testId="orders-error" spacing="mt-6" message={list.message} onRetry={reload} />
      ) : null}

      {listState === 'loading' && rows.length === 0 ? (
        <ListLoading testId="orders-loading" label="Loading orders..." />
      ) : null}

      {listState === 'ready' && rows.length === 0 ? (
        <ListEmpty
          testId="orders-empty"
          title={filtered ? 'No orders match this search.' : 'There are no orders yet.'}
          hint={
            filtered
              ? 'Check the spelling, search by another field (order ID, e-mail, target or service), or clear the filters.'
              : 'Orders appear here as soon as a customer starts a checkout.'
          }
          action={
            filtered ? (
              <button type="button" onClick={() => setSearchParams(new URLSearchParams())} className={secondaryButton}>
                Show all orders
              </button>
            ) : undefined
          }
        />
      ) : null}

      {rows.length > 0 ? (
        <div
          ref={tableRegion}
          role="region"
          aria-label="Orders table"
          aria-busy={listState === 'loading'}
          tabIndex={0}
          className={`relative mt-6 focus-visible:outline-2 focus-visible:outline-brand-700 xl:rounded-2xl xl:border xl:border-gray-200 xl:bg-white xl:shadow-sm ${
            listState === 'loading' ? 'opacity-60' : ''
          }`}
        >
          {/*
            One markup, two layouts (decision 034): from 1280 px a six-column table whose
            secondary facts (date, target, quantity, payment, supplier id, error) sit under the
            main one in each cell, so the order id and the action always fit without sideways
            scrolling; below 1280 px (no room for six readable columns beside the navigation) the same rows are cards.
          */}
          <table
            className="block w-full text-left text-sm xl:table xl:table-fixed xl:divide-y xl:divide-gray-200"
            data-testid="orders-table"
          >
            <caption className="sr-only">
              Orders, newest first. Page {currentPage} of {pages}.
            </caption>
            <colgroup className="hidden xl:table-column-group">
              <col className="xl:w-[20%]" />
              <col className="xl:w-[23%]" />
              <col className="xl:w-[16%]" />
              <col className="xl:w-[11%]" />
              <col className="xl:w-[14%]" />
              <col className="xl:w-[16%]" />
            </colgroup>
            <thead className="hidden bg-gray-50 text-xs font-semibold tracking-wide text-gray-700 uppercase xl:table-header-group">
              <tr>
                <th scope="col" className="px-4 py-3">
                  Order
                </th>
                <th scope="col" className="px-3 py-3">
                  Customer
                </th>
                <th scope="col" className="px-3 py-3">
                  Service
                </th>
                <th scope="col" className="px-3 py-3 text-right">
                  Price
                </th>
                <th scope="col" className="px-3 py-3">
                  Status
                </th>
                <th scope="col" className="px-4 py-3">
                  Action
                </th>
              </tr>
            </thead>
            <tbody className="flex flex-col gap-3 xl:table-row-group xl:divide-y xl:divide-gray-100">
              {rows.map((row) => (
                <tr
                  key={row.razorPayOrderId}
                  data-testid="order-row"
                  data-order-id={row.orderId}
                  className="grid grid-cols-2 gap-x-4 gap-y-3 rounded-2xl border border-gray-200 bg-white p-4 shadow-sm xl:table-row xl:rounded-none xl:border-0 xl:p-0 xl:align-top xl:shadow-none"
                >
                  <th scope="row" className="col-span-2 min-w-0 text-left font-normal xl:px-4 xl:py-3">
                    <Link
                      to={`/admin/orders/${encodeURIComponent(row.orderId)}`}
                      state={detailState}
                      data-testid="row-order-id"
                      className="font-mono font-semibold break-all text-brand-700 underline hover:text-brand-800 focus-visible:outline-2 focus-visible:outline-brand-700"
                    >
                      {row.orderId}
                    </Link>
                    <span className="mt-1 block text-xs text-gray-700 tabular-nums" data-testid="row-date">
                      {formatAdminDate(row.orderDate)}
                    </span>
                  </th>
                  <td className="col-span-2 min-w-0 xl:px-3 xl:py-3">
                    <span className="block break-all text-gray-900" data-testid="row-email">
                      {row.email}
                    </span>
                    <span className="mt-1 block text-xs text-gray-700">
                      <span className="sr-only">Target: </span>
                      <span className="break-all" data-testid="row-target">
                        {row.name}
                      </span>
                    </span>
                  </td>
                  <td className="min-w-0 xl:px-3 xl:py-3">
                    <span className="block text-gray-900" data-testid="row-service">
                      {row.serviceName}
                    </span>
                    <span className="mt-1 block text-xs text-gray-700">
                      Qty{' '}
                      <span className="tabular-nums" data-testid="row-quantity">
                        {row.quantity.toLocaleString('en-US')}
                      </span>
                    </span>
                    {row.kind !== 'package' ? (
                      <span className="mt-1 block text-xs text-gray-700" data-testid="row-subscription">
                        <span className="font-semibold text-brand-800" data-testid="row-kind">
                          {row.kindLabel}
                        </span>
                        {row.subscription ? (
                          <>
                            <span className="block" data-testid="row-progress">
                              {row.subscription.progress}
                            </span>
                            {row.subscription.endsAt && row.subscription.running ? (
                              <span className="block" data-testid="row-ends">
                                Ends {formatPeriodDate(row.subscription.endsAt)}
                              </span>
                            ) : null}
                          </>
                        ) : null}
                      </span>
                    ) : null}
                  </td>
                  <td className="min-w-0 text-right xl:px-3 xl:py-3">
                    <span className="block font-semibold text-gray-900 tabular-nums" data-testid="row-price">
                      {formatAdminPrice(row.price, row.currency)}
                    </span>
                    <span className="mt-1 block text-xs">
                      <span className="sr-only">Payment: </span>
                      <span
                        className={`font-semibold ${PAYMENT_STYLES[row.paymentStatus] ?? 'text-gray-900'}`}
                        data-testid="row-payment"
                      >
                        {row.paymentStatus}
                      </span>
                    </span>
                    <span className="mt-1 block text-xs text-gray-700" data-testid="row-method">
                      <span className="sr-only">Paid with: </span>
                      {row.paymentMethod}
                    </span>
                  </td>
                  <td className="min-w-0 xl:px-3 xl:py-3">
                    <StatusTag status={row.orderStatus} paymentStatus={row.paymentStatus} testId="row-status" />
                    <span className="mt-1 block text-xs text-gray-700">
                      Supplier{' '}
                      <span className="font-mono break-all text-gray-900" data-testid="row-supplier-id">
                        {row.supplierOrderId ?? '—'}
                      </span>
                    </span>
                    {row.fulfilmentState === 'queued' ? (
                      <span className="mt-1 block text-xs font-semibold text-amber-900" data-testid="row-queued">
                        {row.fulfilmentText}
                      </span>
                    ) : null}
                    {row.needsReview || row.errorMessage ? (
                      <span className="mt-1 block text-xs text-red-800" data-testid="row-error">
                        {row.needsReview ? (
                          <span
                            data-testid="row-needs-review"
                            title={row.reviewReason ?? undefined}
                            className="mb-1 inline-block rounded-full bg-amber-100 px-2 py-0.5 font-bold text-amber-900"
                          >
                            needs review
                            {row.reviewReason ? <span className="sr-only">: {row.reviewReason}</span> : null}
                          </span>
                        ) : null}
                        {row.errorMessage ? <span className="block break-words">{row.errorMessage}</span> : null}
                      </span>
                    ) : null}
                  </td>
                  <td className="min-w-0 self-end xl:px-4 xl:py-3" data-testid="row-action">
                    <RowActionCell row={row} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}

      {listState !== 'failed' && count > 0 ? (
        <nav aria-label="Pagination" className="mt-4 flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm text-gray-700" data-testid="orders-page">
            Page {currentPage} of {about}
            {pages.toLocaleString('en-US')}
          </p>
          <div className="flex gap-2">
            <button
              type="button"
              onClick={() => changePage(currentPage - 1)}
              disabled={currentPage <= 1 || listState === 'loading'}
              className={secondaryButton}
            >
              Previous
            </button>
            <button
              type="button"
              onClick={() => changePage(currentPage + 1)}
              disabled={currentPage >= pages || listState === 'loading'}
              className={secondaryButton}
            >
              Next
            </button>
          </div>
        </nav>
      ) : null}
    </section>
  );
}
