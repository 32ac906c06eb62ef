import { useState } from 'react';
import { useNavigation, useRevalidator } from 'react-router';
import { Link } from '../../components/Link.tsx';
import type { Route } from './+types/reviews';
import {
  REVIEW_FILTERS,
  type AdminReviewListReply,
  type AdminReviewRow,
  type ReviewFilter,
  type ReviewStateName,
} from '../../../core/reviews/contracts.ts';
import {
  ListCount,
  ListEmpty,
  ListLoadError,
  ListLoading,
  ListLoadMore,
  adminPrimaryButtonClass,
  adminSecondaryButtonClass,
} from '../../admin/list-parts.tsx';
import { ButtonSpinner, formatAdminDate } from '../../admin/orders.tsx';
import { ADMIN_REVIEWS_PAGE_SIZE, decideReview, listReviews, notifyReviewsChanged } from '../../admin/reviews/api.ts';
import { type AdminLoad, adminPage, loadAdminData } from '../../admin/page.tsx';
import { useToasts } from '../../admin/toasts.tsx';
import { isUnauthorized } from '../../admin/token.ts';
import { messageOf } from '../../api/client.ts';

/**
 * Review moderation (decision 039): customers' reviews, pending first, then newest first, with
 * status tabs and "Load More" appending pages of 20. Approve shows a review on the home page and
 * counts it in its service page's rating; reject hides it (both compare-and-set on the server,
 * so a double click or a second admin changes it once). Every text is shown as text, never as
 * HTML. The tab lives in the address; the route's clientLoader fetches with the admin's token.
 */

const page = adminPage({
  title: 'Reviews',
  titleId: 'admin-reviews-title',
  description:
    "What customers wrote through the link in their order's completion e-mail. Approved reviews show on the home page and in their service's rating for search engines.",
  loading: { label: 'Loading reviews...', testId: 'reviews-loading' },
});

export const meta: Route.MetaFunction = page.meta;
export const headers: Route.HeadersFunction = page.headers;
export const HydrateFallback = page.HydrateFallback;

const TAB_LABELS: Record<ReviewFilter, string> = {
  all: 'All',
  pending: 'Pending',
  approved: 'Approved',
  rejected: 'Rejected',
};

type ListLoad = AdminLoad<{ reply: AdminReviewListReply }, { status: ReviewFilter }>;

function statusOf(url: URL): ReviewFilter {
  const status = url.searchParams.get('status');
  return REVIEW_FILTERS.find((filter) => filter === status) ?? 'all';
}

export function clientLoader({ request }: Route.ClientLoaderArgs): Promise<ListLoad> {
  const status = statusOf(new URL(request.url));
  return loadAdminData(
    'GET /api/admin/reviews',
    async () => ({ reply: await listReviews({ status, page: 1 }, request.signal) }),
    { status },
  );
}

const STATE_STYLES: Record<ReviewStateName, string> = {
  pending: 'bg-amber-100 text-amber-900',
  approved: 'bg-green-100 text-green-900',
  rejected: 'bg-gray-200 text-gray-800',
};
const STATE_LABELS: Record<ReviewStateName, string> = {
  pending: 'Pending',
  approved: 'Approved',
  rejected: 'Rejected',
};

const STAR_PATH = 'M10 1.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8L10 14.9l-5.2 2.7 1-5.8L1.5 7.7l5.9-.9L10 1.5z';

function Stars({ rating }: { rating: number }) {
  return (
    <span role="img" aria-label={`${rating} out of 5 stars`} className="flex gap-0.5">
      {[1, 2, 3, 4, 5].map((i) => (
        <svg
          key={i}
          aria-hidden="true"
          viewBox="0 0 20 20"
          className={`h-4 w-4 ${i <= rating ? 'fill-amber-400' : 'fill-gray-300'}`}
        >
          <path d={STAR_PATH} />
        </svg>
      ))}
    </span>
  );
}

function emptyText(status: ReviewFilter): { title: string; hint: string } {
  if (status === 'pending') return { title: 'No reviews wait for a decision.', hint: 'New reviews appear here first.' };
  if (status === 'approved')
    return { title: 'No approved reviews yet.', hint: 'Until one is approved, the home page shows no reviews at all.' };
  if (status === 'rejected') return { title: 'No rejected reviews.', hint: 'Reviews you reject are kept here.' };
  return {
    title: 'No reviews yet.',
    hint: 'Customers are invited to review their order in the e-mail that tells them it is complete.',
  };
}

interface Rows {
  base: ListLoad;
  reviews: AdminReviewRow[];
  count: number;
}

function rowsOf(list: ListLoad): Rows {
  return list.ok
    ? { base: list, reviews: list.reply.data, count: list.reply.count }
    : { base: list, reviews: [], count: 0 };
}

function ReviewCard({
  review,
  busy,
  onDecide,
}: {
  review: AdminReviewRow;
  busy: 'approve' | 'reject' | null;
  onDecide: (action: 'approve' | 'reject') => void;
}) {
  return (
    <li
      data-testid="review-row"
      data-state={review.state}
      className="relative rounded-2xl border border-gray-200 bg-white p-4 shadow-sm sm:p-5"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap items-center gap-3">
          <Stars rating={review.rating} />
          <span
            data-testid="review-state"
            className={`rounded-full px-2.5 py-0.5 text-xs font-bold ${STATE_STYLES[review.state]}`}
          >
            {STATE_LABELS[review.state]}
          </span>
        </div>
        <time dateTime={review.createdAt} className="text-sm text-gray-700 tabular-nums">
          {formatAdminDate(review.createdAt)}
        </time>
      </div>
      <p data-testid="review-text" className="mt-3 break-words whitespace-pre-line text-gray-900">
        {review.text}
      </p>
      <p className="mt-3 text-sm text-gray-700">
        <span className="font-semibold text-gray-900" data-testid="review-name">
          {review.name}
        </span>
        {' · '}
        {review.serviceName}, {review.quantity.toLocaleString('en-US')}
        {' · '}
        <Link
          to={`/admin/orders/${encodeURIComponent(review.orderId)}`}
          data-testid="review-order-link"
          className="font-mono break-all text-brand-800 underline decoration-brand-300 underline-offset-2 hover:text-brand-900"
        >
          <span className="sr-only">Order </span>
          {review.orderId}
        </Link>
      </p>
      <div className="mt-4 flex flex-wrap gap-2">
        {review.state !== 'approved' ? (
          <button
            type="button"
            className={adminPrimaryButtonClass}
            disabled={busy !== null}
            onClick={() => onDecide('approve')}
          >
            {busy === 'approve' ? <ButtonSpinner /> : null}
            Approve<span className="sr-only"> the review by {review.name}</span>
          </button>
        ) : null}
        {review.state !== 'rejected' ? (
          <button
            type="button"
            className={adminSecondaryButtonClass}
            disabled={busy !== null}
            onClick={() => onDecide('reject')}
          >
            {busy === 'reject' ? <ButtonSpinner /> : null}
            {review.state === 'approved' ? 'Unpublish' : 'Reject'}
            <span className="sr-only"> the review by {review.name}</span>
          </button>
        ) : null}
      </div>
    </li>
  );
}

export default function AdminReviewsPage({ loaderData: list }: Route.ComponentProps) {
  const toasts = useToasts();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const [rows, setRows] = useState<Rows>(() => rowsOf(list));
  const [loadingMore, setLoadingMore] = useState(false);
  const [loadMoreError, setLoadMoreError] = useState<string | null>(null);
  const [busy, setBusy] = useState<{ id: number; action: 'approve' | 'reject' } | null>(null);

  if (rows.base !== list) {
    setRows(rowsOf(list));
    setLoadMoreError(null);
  }

  const switching = navigation.state === 'loading' && navigation.location.pathname === '/admin/reviews';
  const loading = switching || (!list.ok && revalidator.state === 'loading');
  const listState = loading ? 'loading' : list.ok ? 'ready' : list.unauthorized ? 'leaving' : 'failed';

  const loadMore = async () => {
    setLoadingMore(true);
    setLoadMoreError(null);
    const base = rows.base;
    const shown = new Set(rows.reviews.map((review) => review.id));
    const page = Math.floor(rows.reviews.length / ADMIN_REVIEWS_PAGE_SIZE) + 1;
    try {
      const reply = await listReviews({ status: list.status, page });
      const added = reply.data.filter((review) => !shown.has(review.id));
      setRows((current) =>
        current.base === base ? { base, reviews: [...current.reviews, ...added], count: reply.count } : current,
      );
    } catch (error) {
      if (!isUnauthorized(error)) {
        console.error('GET /api/admin/reviews failed', error);
        setLoadMoreError(messageOf(error));
      }
    } finally {
      setLoadingMore(false);
    }
  };

  const decide = async (review: AdminReviewRow, action: 'approve' | 'reject') => {
    setBusy({ id: review.id, action });
    try {
      const result = await decideReview(review.id, action);
      setRows((current) => ({
        ...current,
        reviews: current.reviews.map((row) =>
          row.id === result.id ? { ...row, state: result.state, decidedAt: new Date().toISOString() } : row,
        ),
      }));
      const word = result.state === 'approved' ? 'approved' : 'rejected';
      toasts.show(
        result.changed ? `Review ${word}` : `This review was already ${word}`,
        result.changed ? 'success' : 'info',
      );
      notifyReviewsChanged();
    } catch (error) {
      if (!isUnauthorized(error)) toasts.show('The review could not be changed', 'error', messageOf(error));
    } finally {
      setBusy(null);
    }
  };

  const empty = emptyText(list.status);
  const hasMore = rows.reviews.length < rows.count;

  return (
    <section aria-labelledby={page.titleId}>
      <page.Title />

      <nav aria-label="Review status">
        <ul className="flex w-fit flex-wrap gap-1 rounded-xl bg-gray-100 p-1" data-testid="reviews-tabs">
          {REVIEW_FILTERS.map((filter) => {
            const current = filter === list.status;
            return (
              <li key={filter}>
                <Link
                  to={filter === 'all' ? '/admin/reviews' : `/admin/reviews?status=${filter}`}
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

      <ListCount
        testId="reviews-count"
        spacing="mt-3"
        count={listState === 'ready' ? rows.count : null}
        one="review"
        many="reviews"
        keyword=""
      />

      {listState === 'failed' && !list.ok ? (
        <ListLoadError
          testId="reviews-error"
          spacing="mt-4"
          intro="The reviews could not be loaded."
          message={list.message}
          onRetry={() => void revalidator.revalidate()}
        />
      ) : null}

      {listState === 'loading' && rows.reviews.length === 0 ? (
        <ListLoading testId="reviews-loading" label="Loading reviews..." />
      ) : null}

      {listState === 'ready' && rows.reviews.length === 0 ? (
        <ListEmpty testId="reviews-empty" title={empty.title} hint={empty.hint} />
      ) : null}

      {rows.reviews.length > 0 ? (
        <ul
          aria-label="Reviews, pending first"
          aria-busy={listState === 'loading'}
          data-testid="reviews-list"
          className={`mt-4 space-y-3 ${listState === 'loading' ? 'opacity-60' : ''}`}
        >
          {rows.reviews.map((review) => (
            <ReviewCard
              key={review.id}
              review={review}
              busy={busy?.id === review.id ? busy.action : null}
              onDecide={(action) => void decide(review, action)}
            />
          ))}
        </ul>
      ) : null}

      <ListLoadMore
        noun="reviews"
        show={listState === 'ready' && hasMore}
        loading={loadingMore}
        error={loadMoreError}
        onLoadMore={() => void loadMore()}
      />
    </section>
  );
}
