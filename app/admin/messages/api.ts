/**
 * The admin inbox screens' calls to the JSON API (decision 026), all through the admin client
 * (bearer token, 401 → log-in). Shapes are the API's contracts (core/contact/inbox-contracts.ts).
 */
import type {
  InboxFilter,
  InboxListReply,
  InboxMessage,
  InboxReplyBody,
  InboxReplyCreated,
  InboxTransition,
} from '../../../core/contact/inbox-contracts.ts';
import { adminApi } from '../token.ts';

/** The list asks for 20 messages a page; Load More appends the next 20. */
export const ADMIN_INBOX_PAGE_SIZE = 20;

export function listMessages(
  query: { keyword: string; status: InboxFilter; page: number },
  signal?: AbortSignal,
): Promise<InboxListReply> {
  return adminApi.send<InboxListReply>('GET', '/api/admin/messages', {
    query: {
      keyword: query.keyword || undefined,
      status: query.status === 'all' ? undefined : query.status,
      page: query.page,
      size: ADMIN_INBOX_PAGE_SIZE,
    },
    signal,
  });
}

export function fetchUnreadCount(signal?: AbortSignal): Promise<{ count: number }> {
  return adminApi.get<{ count: number }>('/api/admin/messages/unread-count', { signal });
}

/** Opens the message (the server marks it read the first time). */
export function openMessage(id: number, signal?: AbortSignal): Promise<InboxMessage> {
  return adminApi.get<InboxMessage>(`/api/admin/messages/${id}`, { signal });
}

export function markMessageHandled(id: number): Promise<InboxTransition> {
  return adminApi.post<InboxTransition>(`/api/admin/messages/${id}/handled`, undefined);
}

export function reopenMessage(id: number): Promise<InboxTransition> {
  return adminApi.post<InboxTransition>(`/api/admin/messages/${id}/reopen`, undefined);
}

export function replyToMessage(id: number, body: InboxReplyBody): Promise<InboxReplyCreated> {
  return adminApi.post<InboxReplyCreated, InboxReplyBody>(`/api/admin/messages/${id}/replies`, body);
}
