import { useEffect, useId, useRef, useState } from 'react';
import { useFetcher, useLocation } from 'react-router';
import { Link } from '../../components/Link.tsx';
import type { Route } from './+types/messages-detail';
import { type InboxMessage, MAX_REPLY_LENGTH } from '../../../core/contact/inbox-contracts.ts';
import { CacheStrategy } from '../../cache.ts';
import { StatusTag } from '../../components/StatusTag.tsx';
import { markMessageHandled, openMessage, reopenMessage, replyToMessage } from '../../admin/messages/api.ts';
import { AdminPageHeader, DetailLoadingPage } from '../../admin/list-parts.tsx';
import { MessageStatusBadge, OrderTimeline } from '../../admin/messages/parts.tsx';
import { notifyInboxChanged } from '../../admin/messages/unread.ts';
import { ButtonSpinner, PAYMENT_STYLES, formatAdminDate, formatAdminPrice } from '../../admin/orders.tsx';
import { useToasts } from '../../admin/toasts.tsx';
import { isUnauthorized } from '../../admin/token.ts';
import { ApiError, isAbort, messageOf } from '../../api/client.ts';

/**
 * One contact message for the admin (decision 026): the text (shown as text, line breaks kept),
 * the order it is about with its timeline when it is linked (only ever an order of the sender's
 * own address), the replies sent, a reply form (e-mailed to the customer and kept on the thread)
 * and "Mark handled" / "Mark as new", offered only when the server would accept them. Opening the
 * page marks the message read; the navigation's unread count follows.
 */

export const meta: Route.MetaFunction = () => [
  { title: 'Message | Boostly admin' },
  { name: 'robots', content: 'noindex, nofollow' },
];

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': CacheStrategy.none });

type MessageLoad =
  | { ok: true; message: InboxMessage }
  /** `unauthorized`: the token was refused and the layout is on its way to /login. */
  | { ok: false; message: string; unauthorized: boolean; notFound: boolean };

/** A positive whole number from the address, or null (the server would refuse anything else). */
function messageIdOf(param: string): number | null {
  return /^[1-9]\d{0,9}$/.test(param) && Number(param) <= 2 ** 31 - 1 ? Number(param) : null;
}

export async function clientLoader({ params, request }: Route.ClientLoaderArgs): Promise<MessageLoad> {
  const id = messageIdOf(params.id);
  if (id === null) return { ok: false, message: 'Message not found', unauthorized: false, notFound: true };
  try {
    return { ok: true, message: await openMessage(id, request.signal) };
  } catch (error) {
    if (isAbort(error)) throw error;
    const status = error instanceof ApiError ? error.status : 0;
    return { ok: false, message: messageOf(error), unauthorized: isUnauthorized(error), notFound: status === 404 };
  }
}

export type MessageActionOutcome =
  | { intent: 'reply' | 'handled' | 'reopen'; ok: true; message: string }
  | { intent: 'reply' | 'handled' | 'reopen'; ok: false; message: string; fieldError: string | null };

export async function clientAction({ params, request }: Route.ClientActionArgs): Promise<MessageActionOutcome> {
  const form = await request.formData();
  const intent = form.get('intent');
  const id = messageIdOf(params.id);
  if ((intent !== 'reply' && intent !== 'handled' && intent !== 'reopen') || id === null) {
    return { intent: 'reply', ok: false, message: 'Unknown action', fieldError: null };
  }
  try {
    if (intent === 'handled')
      return {
        intent,
        ok: true,
        message: (await markMessageHandled(id)).changed ? 'Marked as handled' : 'This message was already handled',
      };
    if (intent === 'reopen')
      return {
        intent,
        ok: true,
        message: (await reopenMessage(id)).changed ? 'Marked as new again' : 'This message is already new',
      };
    const typed = form.get('body');
    const body = typeof typed === 'string' ? typed : '';
    await replyToMessage(id, { body, markHandled: form.get('markHandled') === 'on' });
    return {
      intent,
      ok: true,
      message: 'Reply sent: it is on its way to the customer by e-mail and kept on the thread.',
    };
  } catch (error) {
    if (isAbort(error)) throw error;
    const fieldError = error instanceof ApiError ? (error.fieldError('body') ?? null) : null;
    if (!isUnauthorized(error)) console.error(`POST /api/admin/messages/${id} (${intent}) failed`, error);
    return { intent, ok: false, message: messageOf(error), fieldError };
  }
}

export function HydrateFallback() {
  return <DetailLoadingPage label="Loading message..." />;
}

const backLink = (
  <Link
    to="/admin/messages"
    className="inline-flex items-center gap-1 text-sm font-semibold text-brand-700 underline hover:text-brand-800"
  >
    <span aria-hidden="true">←</span> Back to messages
  </Link>
);

export default function MessageDetailPage({ loaderData: load }: Route.ComponentProps) {
  const location = useLocation();
  // Opening it marked it read: the navigation's unread count asks again.
  useEffect(() => {
    if (load.ok) notifyInboxChanged();
  }, [load]);

  return (
    <section aria-labelledby="message-title">
      {backLink}
      {load.ok ? (
        <MessageView key={location.pathname} message={load.message} />
      ) : (
        <>
          <AdminPageHeader titleId="message-title" titleClassName="mt-3" title="Message" />
          {!load.unauthorized ? (
            <div
              role="alert"
              data-testid="message-error"
              className="mt-6 rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm font-medium text-red-800"
            >
              {load.notFound ? 'This message does not exist (it may have been deleted after 2 years).' : load.message}
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}

function MessageView({ message }: { message: InboxMessage }) {
  const ids = useId();
  const toasts = useToasts();
  const stateFetcher = useFetcher<MessageActionOutcome>();
  const replyFetcher = useFetcher<MessageActionOutcome>();
  const [body, setBody] = useState('');
  const [markHandled, setMarkHandled] = useState(true);
  const shownState = useRef<MessageActionOutcome | undefined>(undefined);
  const sending = replyFetcher.state !== 'idle';
  const changingState = stateFetcher.state !== 'idle';
  const outcome = replyFetcher.state === 'idle' ? replyFetcher.data : undefined;

  // Status changes answer with a toast; the page reloads itself (the route revalidates).
  useEffect(() => {
    const data = stateFetcher.data;
    if (stateFetcher.state !== 'idle' || !data || shownState.current === data) return;
    shownState.current = data;
    toasts.show(data.message, data.ok ? 'success' : 'error');
    if (data.ok) notifyInboxChanged();
  }, [stateFetcher.state, stateFetcher.data, toasts]);

  // A sent reply empties the form (once per reply): adjusted while rendering, not in an effect.
  const [settledReply, setSettledReply] = useState<MessageActionOutcome | undefined>(undefined);
  if (outcome && outcome !== settledReply) {
    setSettledReply(outcome);
    if (outcome.ok) setBody('');
  }

  const { order } = message;
  const tooLong = [...body.trim()].length > MAX_REPLY_LENGTH;

  return (
    <>
      <AdminPageHeader
        titleId="message-title"
        titleClassName="mt-3 break-all"
        title={
          <>
            Message from <span data-testid="message-email">{message.email}</span>
          </>
        }
        description={
          <p className="mt-2 flex flex-wrap items-center gap-3 text-sm text-gray-700">
            <MessageStatusBadge status={message.status} testId="message-detail-status" />
            <span>
              Received <time dateTime={message.createdAt}>{formatAdminDate(message.createdAt)}</time>
            </span>
            {message.handledAt ? (
              <span>
                Handled <time dateTime={message.handledAt}>{formatAdminDate(message.handledAt)}</time>
              </span>
            ) : null}
          </p>
        }
        action={
          <stateFetcher.Form method="post">
            {message.canMarkHandled ? (
              <button
                type="submit"
                name="intent"
                value="handled"
                disabled={changingState}
                data-testid="mark-handled"
                className="inline-flex items-center gap-2 rounded-xl bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-wait disabled:opacity-80"
              >
                {changingState ? <ButtonSpinner /> : null}
                Mark handled
              </button>
            ) : null}
            {message.canReopen ? (
              <button
                type="submit"
                name="intent"
                value="reopen"
                disabled={changingState}
                data-testid="mark-new"
                className="inline-flex items-center gap-2 rounded-xl border-2 border-gray-300 bg-white px-4 py-2 text-sm font-semibold text-gray-900 hover:border-brand-600 hover:text-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-wait"
              >
                {changingState ? <ButtonSpinner /> : null}
                Mark as new
              </button>
            ) : null}
          </stateFetcher.Form>
        }
      />

      <div className="rounded-2xl border border-gray-200 bg-white p-6 shadow-sm">
        <h2 className="text-sm font-semibold tracking-wide text-gray-700 uppercase">Message</h2>
        {/* Text, never HTML: React escapes it; pre-wrap keeps the customer's line breaks. */}
        <p data-testid="message-text" className="mt-3 break-words whitespace-pre-wrap text-gray-900">
          {message.message}
        </p>
      </div>

      <h2 id={`${ids}-order`} className="mt-10 text-xl font-bold text-gray-900">
        Order
      </h2>
      {order ? (
        <div data-testid="message-order" className="mt-4 rounded-2xl border border-gray-200 bg-white p-6 shadow-sm">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <Link
              to={`/admin/orders/${encodeURIComponent(order.order.orderId)}`}
              data-testid="message-order-link"
              className="font-mono font-semibold break-all text-brand-700 underline hover:text-brand-800"
            >
              {order.order.orderId}
            </Link>
            <StatusTag
              status={order.order.orderStatus}
              paymentStatus={order.order.paymentStatus}
              testId="message-order-status"
            />
          </div>
          <dl className="mt-4 grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2 lg:grid-cols-4">
            <div>
              <dt className="font-semibold text-gray-700">Service</dt>
              <dd className="text-gray-900">{order.order.serviceName}</dd>
            </div>
            <div className="min-w-0">
              <dt className="font-semibold text-gray-700">Target</dt>
              <dd className="break-all text-gray-900">{order.order.name}</dd>
            </div>
            <div>
              <dt className="font-semibold text-gray-700">Price</dt>
              <dd className="text-gray-900">
                {formatAdminPrice(order.order.price, order.order.currency)}{' '}
                <span className={`font-semibold ${PAYMENT_STYLES[order.order.paymentStatus]}`}>
                  ({order.order.paymentStatus})
                </span>
              </dd>
            </div>
            <div>
              <dt className="font-semibold text-gray-700">Ordered</dt>
              <dd className="text-gray-900">{formatAdminDate(order.order.orderDate)}</dd>
            </div>
          </dl>
          <h3 id={`${ids}-timeline`} className="mt-6 text-base font-bold text-gray-900">
            Timeline
          </h3>
          <OrderTimeline entries={order.timeline} labelledBy={`${ids}-timeline`} />
        </div>
      ) : (
        <p data-testid="message-no-order" className="mt-3 text-sm text-gray-700">
          Not linked to an order: the customer gave no order ID, or the order named is not one of this e-mail address’s
          orders.
        </p>
      )}

      <h2 id={`${ids}-replies`} className="mt-10 text-xl font-bold text-gray-900">
        Replies
      </h2>
      {message.replies.length === 0 ? (
        <p className="mt-3 text-sm text-gray-700" data-testid="message-no-replies">
          No reply yet.
        </p>
      ) : (
        <ol aria-labelledby={`${ids}-replies`} className="mt-4 space-y-3" data-testid="message-replies">
          {message.replies.map((reply) => (
            <li
              key={reply.id}
              data-testid="message-reply"
              className="rounded-2xl border border-brand-100 bg-brand-50 p-4"
            >
              <p className="text-xs text-gray-700">
                <span className="font-semibold break-all text-gray-900">{reply.adminEmail}</span> ·{' '}
                <time dateTime={reply.createdAt}>{formatAdminDate(reply.createdAt)}</time>
              </p>
              <p className="mt-2 text-sm break-words whitespace-pre-wrap text-gray-900">{reply.body}</p>
            </li>
          ))}
        </ol>
      )}

      <replyFetcher.Form method="post" className="mt-6 max-w-3xl" noValidate aria-labelledby={`${ids}-reply-title`}>
        <h3 id={`${ids}-reply-title`} className="text-base font-bold break-all text-gray-900">
          Reply to {message.email}
        </h3>
        <input type="hidden" name="intent" value="reply" />
        <label htmlFor={`${ids}-body`} className="mt-3 block text-sm font-semibold text-gray-900">
          Your reply (sent by e-mail; the customer’s answer reaches the support mailbox)
        </label>
        <textarea
          id={`${ids}-body`}
          name="body"
          rows={6}
          value={body}
          onChange={(event) => setBody(event.target.value)}
          aria-invalid={outcome && !outcome.ok && outcome.fieldError ? true : undefined}
          aria-describedby={outcome && !outcome.ok && outcome.fieldError ? `${ids}-body-error` : undefined}
          className="mt-1 w-full rounded-xl border-2 border-gray-300 bg-white px-3 py-2 text-gray-900 focus:border-brand-600 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
        />
        {outcome && !outcome.ok && outcome.fieldError ? (
          <p id={`${ids}-body-error`} className="mt-1 text-sm font-medium text-red-800">
            {outcome.fieldError}
          </p>
        ) : null}
        {tooLong ? (
          <p className="mt-1 text-sm font-medium text-red-800">
            At most {MAX_REPLY_LENGTH.toLocaleString('en-US')} characters.
          </p>
        ) : null}
        <label className="mt-3 flex items-center gap-2 text-sm text-gray-900">
          <input
            type="checkbox"
            name="markHandled"
            checked={markHandled}
            onChange={(event) => setMarkHandled(event.target.checked)}
            className="h-4 w-4 rounded border-gray-300 accent-brand-700"
          />
          Mark the message handled when the reply is sent
        </label>
        <button
          type="submit"
          disabled={sending || tooLong}
          data-testid="send-reply"
          className="mt-4 inline-flex items-center gap-2 rounded-xl bg-brand-700 px-5 py-2 text-sm font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-wait disabled:opacity-80"
        >
          {sending ? <ButtonSpinner /> : null}
          {sending ? 'Sending…' : 'Send reply'}
        </button>
        <div aria-live="polite" className="mt-4">
          {outcome?.ok ? (
            <p
              data-testid="reply-success"
              className="rounded-xl border border-green-300 bg-green-50 px-4 py-3 text-sm font-medium text-green-900"
            >
              {outcome.message}
            </p>
          ) : null}
          {outcome && !outcome.ok ? (
            <p
              role="alert"
              data-testid="reply-failure"
              className="rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm font-medium text-red-800"
            >
              The reply was not sent: {outcome.message}
            </p>
          ) : null}
        </div>
      </replyFetcher.Form>
    </>
  );
}
