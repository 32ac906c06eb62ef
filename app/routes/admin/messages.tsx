import { useId, useState } from 'react';
import { useNavigation, useRevalidator, useSearchParams } from 'react-router';
import { Link } from '../../components/Link.tsx';
import type { Route } from './+types/messages';
import {
  INBOX_FILTERS,
  INBOX_MAX_KEYWORD_LENGTH,
  type InboxFilter,
  type InboxListReply,
  type InboxRow,
} from '../../../core/contact/inbox-contracts.ts';
import {
  AdminSearchForm,
  ListCount,
  ListEmpty,
  ListLoadError,
  ListLoading,
  ListLoadMore,
} from '../../admin/list-parts.tsx';
import { ADMIN_INBOX_PAGE_SIZE, listMessages } from '../../admin/messages/api.ts';
import { MessageStatusBadge } from '../../admin/messages/parts.tsx';
import { formatAdminDate } from '../../admin/orders.tsx';
import { type AdminLoad, adminPage, loadAdminData } from '../../admin/page.tsx';
import { isUnauthorized } from '../../admin/token.ts';
import { messageOf } from '../../api/client.ts';

/**
 * The admin inbox (decision 026): the contact form's messages, newest first, with search (Enter
 * or the magnifier; clearing the box shows every message again), status tabs (All, New,
 * Handled) and "Load More" appending pages of 20. Unread messages are bold. The keyword and the
 * tab live in the address (a reload keeps them); the route's clientLoader fetches the first page
 * with the admin's token. Every text is shown as text, never as HTML.
 */

const page = adminPage({
  title: 'Messages',
  titleId: 'admin-messages-title',
  description:
    'What customers sent through the contact form. Open a message to see the order it is about, reply by e-mail and mark it handled.',
  loading: { label: 'Loading messages...', testId: 'messages-loading' },
});

export const meta: Route.MetaFunction = page.meta;
export const headers: Route.HeadersFunction = page.headers;
export const HydrateFallback = page.HydrateFallback;

const TAB_LABELS: Record<InboxFilter, string> = { all: 'All', new: 'New', handled: 'Handled' };

type ListLoad = AdminLoad<{ reply: InboxListReply }, { keyword: string; status: InboxFilter }>;

function filterOf(url: URL): { keyword: string; status: InboxFilter } {
  const keyword = (url.searchParams.get('keyword') ?? '').trim().slice(0, INBOX_MAX_KEYWORD_LENGTH);
  const status = url.searchParams.get('status');
  return { keyword, status: INBOX_FILTERS.find((filter) => filter === status) ?? 'all' };
}

export function clientLoader({ request }: Route.ClientLoaderArgs): Promise<ListLoad> {
  const filter = filterOf(new URL(request.url));
  return loadAdminData(
    'GET /api/admin/messages',
    async () => ({ reply: await listMessages({ ...filter, page: 1 }, request.signal) }),
    filter,
  );
}

interface Rows {
  /** The loader result these rows continue; a new one (search, tab, reload) starts over. */
  base: ListLoad;
  messages: InboxRow[];
  count: number;
}

function rowsOf(list: ListLoad): Rows {
  return list.ok
    ? { base: list, messages: list.reply.data, count: list.reply.count }
    : { base: list, messages: [], count: 0 };
}

function emptyText(list: ListLoad): { title: string; hint: string } {
  if (list.keyword)
    return {
      title: 'No messages found.',
      hint: 'Try another word (an e-mail, an order ID or words of the message), or clear the search.',
    };
  if (list.status === 'new') return { title: 'No new messages.', hint: 'Every message has been handled.' };
  if (list.status === 'handled')
    return { title: 'No handled messages yet.', hint: 'Messages you mark handled appear here.' };
  return {
    title: 'No messages yet.',
    hint: 'Messages customers send from the contact page appear here, and support is e-mailed about each one.',
  };
}

export default function AdminMessagesPage({ loaderData: list }: Route.ComponentProps) {
  const ids = useId();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const [, setSearchParams] = useSearchParams();
  const [rows, setRows] = useState<Rows>(() => rowsOf(list));
  const [keywordInput, setKeywordInput] = useState(list.keyword);
  const [loadingMore, setLoadingMore] = useState(false);
  const [loadMoreError, setLoadMoreError] = useState<string | null>(null);

  // A new first page (search, tab, back/forward, reload) replaces everything appended.
  if (rows.base !== list) {
    setRows(rowsOf(list));
    setKeywordInput(list.keyword);
    setLoadMoreError(null);
  }

  const searching = navigation.state === 'loading' && navigation.location.pathname === '/admin/messages';
  const loading = searching || (!list.ok && revalidator.state === 'loading');

  const paramsFor = (keyword: string, status: InboxFilter) => ({
    ...(keyword ? { keyword } : {}),
    ...(status !== 'all' ? { status } : {}),
  });

  const search = (keyword: string) => {
    const trimmed = keyword.trim();
    setKeywordInput(trimmed);
    if (trimmed === list.keyword) void revalidator.revalidate();
    else setSearchParams(paramsFor(trimmed, list.status));
  };

  const loadMore = async () => {
    setLoadingMore(true);
    setLoadMoreError(null);
    const base = rows.base;
    const shown = new Set(rows.messages.map((message) => message.id));
    // New messages arriving since the first page shift the server's pages: rows already shown
    // are skipped, so nothing appears twice.
    const page = Math.floor(rows.messages.length / ADMIN_INBOX_PAGE_SIZE) + 1;
    try {
      const reply = await listMessages({ keyword: list.keyword, status: list.status, page });
      const added = reply.data.filter((message) => !shown.has(message.id));
      setRows((current) =>
        current.base === base ? { base, messages: [...current.messages, ...added], count: reply.count } : current,
      );
    } catch (error) {
      if (!isUnauthorized(error)) {
        console.error('GET /api/admin/messages failed', error);
        setLoadMoreError(messageOf(error));
      }
    } finally {
      setLoadingMore(false);
    }
  };

  const listState = loading ? 'loading' : list.ok ? 'ready' : list.unauthorized ? 'leaving' : 'failed';
  const hasMore = rows.messages.length < rows.count;
  const empty = emptyText(list);

  return (
    <section aria-labelledby={page.titleId}>
      <page.Title />

      <div className="mt-6 flex flex-wrap items-end justify-between gap-4">
        <nav aria-label="Message status">
          <ul className="flex gap-1 rounded-xl bg-gray-100 p-1" data-testid="messages-tabs">
            {INBOX_FILTERS.map((filter) => {
              const current = filter === list.status;
              const query = new URLSearchParams(paramsFor(list.keyword, filter)).toString();
              return (
                <li key={filter}>
                  <Link
                    to={`/admin/messages${query ? `?${query}` : ''}`}
                    aria-current={current ? 'page' : undefined}
                    className={`block rounded-lg px-4 py-1.5 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 ${
                      current ? 'bg-white text-brand-800 shadow-sm' : 'text-gray-700 hover:text-gray-900'
                    }`}
                  >
                    {TAB_LABELS[filter]}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>

        <AdminSearchForm
          inputId={`${ids}-search`}
          label="Search messages"
          placeholder="E-mail, order ID or words"
          maxLength={INBOX_MAX_KEYWORD_LENGTH}
          className="w-full max-w-md"
          value={keywordInput}
          onValueChange={setKeywordInput}
          onSearch={() => search(keywordInput)}
          // Clearing the box (typing it empty or its ×) shows every message again, from page 1.
          onCleared={list.keyword !== '' ? () => search('') : undefined}
        />
      </div>

      <ListCount
        testId="messages-count"
        spacing="mt-3"
        count={listState === 'ready' ? rows.count : null}
        one="message"
        many="messages"
        keyword={list.keyword}
      />

      {listState === 'failed' && !list.ok ? (
        <ListLoadError
          testId="messages-error"
          spacing="mt-4"
          intro="The messages could not be loaded."
          message={list.message}
          onRetry={() => void revalidator.revalidate()}
        />
      ) : null}

      {listState === 'loading' && rows.messages.length === 0 ? (
        <ListLoading testId="messages-loading" label="Loading messages..." />
      ) : null}

      {listState === 'ready' && rows.messages.length === 0 ? (
        <ListEmpty testId="messages-empty" title={empty.title} hint={empty.hint} />
      ) : null}

      {rows.messages.length > 0 ? (
        <div
          role="region"
          aria-label="Message list"
          aria-busy={listState === 'loading'}
          tabIndex={0}
          className={`relative mt-4 overflow-x-auto rounded-2xl border border-gray-200 bg-white shadow-sm focus-visible:outline-2 focus-visible:outline-brand-700 ${
            listState === 'loading' ? 'opacity-60' : ''
          }`}
        >
          <table className="min-w-full divide-y divide-gray-200 text-left text-sm" data-testid="messages-table">
            <caption className="sr-only">Contact messages, newest first; unread ones in bold</caption>
            <thead className="bg-gray-50 text-xs font-semibold tracking-wide text-gray-700 uppercase">
              <tr>
                <th scope="col" className="px-4 py-3">
                  From
                </th>
                <th scope="col" className="hidden px-4 py-3 md:table-cell">
                  Order
                </th>
                <th scope="col" className="px-4 py-3">
                  Message
                </th>
                <th scope="col" className="hidden px-4 py-3 sm:table-cell">
                  Received
                </th>
                <th scope="col" className="px-4 py-3">
                  Status
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-gray-100">
              {rows.messages.map((message) => {
                const unread = message.readAt === null;
                return (
                  <tr
                    key={message.id}
                    data-testid="message-row"
                    data-unread={unread ? 'true' : 'false'}
                    className={`align-top ${unread ? 'bg-brand-50/40 font-semibold' : ''}`}
                  >
                    <th
                      scope="row"
                      className={`px-4 py-3 break-all text-gray-900 ${unread ? 'font-bold' : 'font-normal'}`}
                    >
                      <Link
                        to={`/admin/messages/${message.id}`}
                        className="text-brand-800 underline decoration-brand-300 underline-offset-2 hover:text-brand-900"
                        data-testid="message-link"
                      >
                        {message.email}
                      </Link>
                      {unread ? <span className="sr-only"> (unread)</span> : null}
                    </th>
                    <td className="hidden px-4 py-3 font-mono text-gray-900 md:table-cell" data-testid="message-order">
                      {message.orderId ?? <span className="font-sans text-gray-700">—</span>}
                    </td>
                    <td className="max-w-md px-4 py-3 break-words text-gray-900" data-testid="message-preview">
                      {message.preview}
                      {message.replyCount > 0 ? (
                        <span className="mt-0.5 block text-xs font-normal text-gray-700">
                          {message.replyCount} {message.replyCount === 1 ? 'reply' : 'replies'}
                        </span>
                      ) : null}
                    </td>
                    <td className="hidden px-4 py-3 whitespace-nowrap text-gray-900 tabular-nums sm:table-cell">
                      <time dateTime={message.createdAt}>{formatAdminDate(message.createdAt)}</time>
                    </td>
                    <td className="px-4 py-3" data-testid="message-status">
                      <MessageStatusBadge status={message.status} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}

      <ListLoadMore
        noun="messages"
        show={listState === 'ready' && hasMore}
        loading={loadingMore}
        error={loadMoreError}
        onLoadMore={() => void loadMore()}
      />
    </section>
  );
}
