/**
 * The review moderation screen's calls (decision 039), through the admin client (bearer token,
 * 401 → log-in). Shapes are the API's contracts (core/reviews/contracts.ts).
 */
import type { AdminReviewListReply, ReviewDecision, ReviewFilter } from '../../../core/reviews/contracts.ts';
import { adminApi } from '../token.ts';

/** The list asks for 20 reviews a page; Load More appends the next 20. */
export const ADMIN_REVIEWS_PAGE_SIZE = 20;

export function listReviews(
  query: { status: ReviewFilter; page: number },
  signal?: AbortSignal,
): Promise<AdminReviewListReply> {
  return adminApi.send<AdminReviewListReply>('GET', '/api/admin/reviews', {
    query: {
      status: query.status === 'all' ? undefined : query.status,
      page: query.page,
      size: ADMIN_REVIEWS_PAGE_SIZE,
    },
    signal,
  });
}

export function fetchPendingReviewCount(signal?: AbortSignal): Promise<{ count: number }> {
  return adminApi.get<{ count: number }>('/api/admin/reviews/pending-count', { signal });
}

export function decideReview(id: number, action: 'approve' | 'reject'): Promise<ReviewDecision> {
  return adminApi.post<ReviewDecision>(`/api/admin/reviews/${id}/${action}`, undefined);
}

/** "A review was approved or rejected" within this tab: the navigation asks for the pending count again. */
type Listener = () => void;
const listeners = new Set<Listener>();

export function notifyReviewsChanged(): void {
  for (const listener of listeners) listener();
}

export function subscribeReviewsChanged(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
