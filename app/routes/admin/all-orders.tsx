import { useId, useRef, useState } from 'react';
import { Link, useLocation, useNavigation, useRevalidator, useSearchParams } from 'react-router';
import type { Route } from './+types/all-orders';
import { MAX_KEYWORD_LENGTH, type OrdersListReply } from '../../../core/admin/contracts.ts';
import { ORDER_STATUSES } from '../../../core/orders/status.ts';
import { CacheStrategy } from '../../cache.ts';
import { StatusTag } from '../../components/StatusTag.tsx';
import { AdminSearchForm, ListCount, ListLoadError, ListLoading, adminFieldClass } from '../../admin/list-parts.tsx';
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

/**
 * Admin all-orders (spec "Admin all-orders", sections 4, 8, 9): status filter, search (on Enter
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

interface Query {
  status: string;
  keyword: string;
  page: number;
}

function readQuery(params: URLSearchParams): Query {
  const status = params.get('status') ?? '';
  const page = Number(params.get('page'));
  return {
    status: STATUS_VALUES.has(status) ? status : '',
    keyword: (params.get('keyword') ?? '').trim(),
    page: Number.isInteger(page) && page >= 1 ? page : 1,
  };
}

function toParams(query: Query): URLSearchParams {
  const params = new URLSearchParams();
  if (query.status) params.set('status', query.status);
  if (query.keyword) params.set('keyword', query.keyword);
  if (query.page > 1) params.set('page', String(query.page));
  return params;
}

type ListLoad =
  | { ok: true; reply: OrdersListReply }
  /** `unauthorized`: the token was refused and the layout is on its way to /login. */
  | { ok: false; message: string; unauthorized: boolean };

export async function clientLoader({ request }: Route.ClientLoaderArgs): Promise<ListLoad> {
  const { status, keyword, page } = readQuery(new URL(request.url).searchParams);
  try {
    const reply = await adminApi.send<OrdersListReply>('GET', '/api/order/all-orders', {
      query: { keyword, status, page, size: PAGE_SIZE },
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
      <h1 id="all-orders-title" className="text-3xl font-extrabold text-gray-900">
        All orders
      </h1>
      <ListLoading testId="orders-loading" label="Loading orders..." />
    </section>
  );
}

const secondaryButton =
  'inline-flex items-center justify-center gap-2 rounded-xl border-2 border-gray-300 bg-white px-4 py-2 text-sm font-semibold text-gray-900 hover:border-brand-600 hover:text-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-not-allowed disabled:text-gray-700 disabled:hover:border-gray-300';

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
        query: { keyword: query.keyword, status: query.status },
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

  const filtered = query.status !== '' || query.keyword !== '';
  const count = list.ok ? list.reply.count : 0;
  const about = list.ok && !list.reply.countExact ? 'about ' : '';
  const currentPage = list.ok && !loading ? list.reply.currentPage : query.page;
  const pages = Math.max(list.ok ? list.reply.totalPages : 0, 1);
  const listState = loading ? 'loading' : list.ok ? 'ready' : list.unauthorized ? 'leaving' : 'failed';
  const detailState = { from: queryKey ? `?${queryKey}` : '' };

  return (
    <section aria-labelledby={`${ids}-title`}>
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 id={`${ids}-title`} className="text-3xl font-extrabold text-gray-900">
            All orders
          </h1>
          <ListCount
            testId="orders-count"
            spacing="mt-1"
            count={listState === 'ready' ? count : null}
            one="order"
            many="orders"
            approximate={about !== ''}
            filtered={filtered}
          />
        </div>
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
      </div>

      <div className="mt-6 flex flex-wrap items-end gap-4">
        <div>
          <label htmlFor={`${ids}-status`} className="mb-1 block text-sm font-semibold text-gray-900">
            Status
          </label>
          <select
            id={`${ids}-status`}
            value={query.status}
            onChange={(event) => go({ status: event.target.value, page: 1 })}
            className={`${adminFieldClass} min-w-44`}
          >
            <option value="">All</option>
            {ORDER_STATUSES.map((status) => (
              <option key={status} value={status}>
                {status}
              </option>
            ))}
          </select>
        </div>

        <AdminSearchForm
          inputId={`${ids}-search`}
          label="Search orders"
          placeholder="Order ID, e-mail, target or service"
          maxLength={MAX_KEYWORD_LENGTH}
          className="min-w-64 flex-1 sm:max-w-md"
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
        <p
          data-testid="orders-empty"
          className="mt-6 rounded-2xl border border-gray-200 bg-white px-6 py-10 text-center text-gray-700"
        >
          {filtered ? 'No orders match this search.' : 'There are no orders yet.'}
        </p>
      ) : null}

      {rows.length > 0 ? (
        <div
          ref={tableRegion}
          role="region"
          aria-label="Orders table"
          aria-busy={listState === 'loading'}
          tabIndex={0}
          className={`mt-6 overflow-x-auto rounded-2xl border border-gray-200 bg-white shadow-sm focus-visible:outline-2 focus-visible:outline-brand-700 ${
            listState === 'loading' ? 'opacity-60' : ''
          }`}
        >
          <table className="min-w-full divide-y divide-gray-200 text-left text-sm" data-testid="orders-table">
            <caption className="sr-only">
              Orders, newest first. Page {currentPage} of {pages}.
            </caption>
            <thead className="bg-gray-50 text-xs font-semibold tracking-wide text-gray-700 uppercase">
              <tr>
                <th scope="col" className="px-3 py-3">
                  Order ID
                </th>
                <th scope="col" className="px-3 py-3">
                  Date
                </th>
                <th scope="col" className="px-3 py-3">
                  E-mail
                </th>
                <th scope="col" className="px-3 py-3">
                  Service
                </th>
                <th scope="col" className="px-3 py-3">
                  Target
                </th>
                <th scope="col" className="px-3 py-3 text-right">
                  Quantity
                </th>
                <th scope="col" className="px-3 py-3 text-right">
                  Price
                </th>
                <th scope="col" className="px-3 py-3">
                  Payment
                </th>
                <th scope="col" className="px-3 py-3">
                  Status
                </th>
                <th scope="col" className="px-3 py-3">
                  Supplier ID
                </th>
                <th scope="col" className="px-3 py-3">
                  Error
                </th>
                <th scope="col" className="px-3 py-3">
                  Action
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-gray-100">
              {rows.map((row) => (
                <tr key={row.razorPayOrderId} data-testid="order-row" data-order-id={row.orderId} className="align-top">
                  <th scope="row" className="px-3 py-3 font-mono font-semibold whitespace-nowrap">
                    <Link
                      to={`/admin/orders/${encodeURIComponent(row.orderId)}`}
                      state={detailState}
                      data-testid="row-order-id"
                      className="text-brand-700 underline hover:text-brand-800 focus-visible:outline-2 focus-visible:outline-brand-700"
                    >
                      {row.orderId}
                    </Link>
                  </th>
                  <td className="px-3 py-3 whitespace-nowrap text-gray-900 tabular-nums" data-testid="row-date">
                    {formatAdminDate(row.orderDate)}
                  </td>
                  <td className="px-3 py-3 whitespace-nowrap text-gray-900" data-testid="row-email">
                    {row.email}
                  </td>
                  <td className="px-3 py-3 whitespace-nowrap text-gray-900" data-testid="row-service">
                    {row.serviceName}
                  </td>
                  <td className="max-w-64 min-w-40 px-3 py-3 break-all text-gray-900" data-testid="row-target">
                    {row.name}
                  </td>
                  <td className="px-3 py-3 text-right text-gray-900 tabular-nums" data-testid="row-quantity">
                    {row.quantity.toLocaleString('en-US')}
                  </td>
                  <td
                    className="px-3 py-3 text-right font-semibold whitespace-nowrap text-gray-900 tabular-nums"
                    data-testid="row-price"
                  >
                    {formatAdminPrice(row.price, row.currency)}
                  </td>
                  <td
                    className={`px-3 py-3 font-semibold ${PAYMENT_STYLES[row.paymentStatus] ?? 'text-gray-900'}`}
                    data-testid="row-payment"
                  >
                    {row.paymentStatus}
                  </td>
                  <td className="px-3 py-3">
                    <StatusTag status={row.orderStatus} testId="row-status" />
                  </td>
                  <td className="px-3 py-3 font-mono whitespace-nowrap text-gray-900" data-testid="row-supplier-id">
                    {row.supplierOrderId ?? <span className="text-gray-700">—</span>}
                  </td>
                  <td className="max-w-72 min-w-40 px-3 py-3 text-red-800" data-testid="row-error">
                    {row.needsReview ? (
                      <span
                        data-testid="row-needs-review"
                        title={row.reviewReason ?? undefined}
                        className="mb-1 inline-block rounded-full bg-amber-100 px-2 py-0.5 text-xs font-bold whitespace-nowrap text-amber-900"
                      >
                        needs review
                        {row.reviewReason ? <span className="sr-only">: {row.reviewReason}</span> : null}
                      </span>
                    ) : null}
                    {row.errorMessage ? <span className="block break-words">{row.errorMessage}</span> : null}
                    {!row.needsReview && !row.errorMessage ? <span className="text-gray-700">—</span> : null}
                  </td>
                  <td className="px-3 py-3 whitespace-nowrap" data-testid="row-action">
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
