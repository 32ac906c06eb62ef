import { useState } from 'react';
import { useLocation, useNavigate, useNavigation } from 'react-router';
import type { Route } from './+types/mail';
import type { FailedMail } from '../../../core/mail/failed-mail.ts';
import { CacheStrategy } from '../../cache.ts';
import { ButtonSpinner, formatAdminDate } from '../../admin/orders.tsx';
import { useToasts } from '../../admin/toasts.tsx';
import { adminApi, isUnauthorized } from '../../admin/token.ts';
import { isAbort, messageOf } from '../../api/client.ts';

/**
 * Failed mail (docs/decisions/015-mail-delivery-and-log-secrets.md): the e-mails the store gave up
 * on after retrying for 3 days (or that the mail server refused for good), with the recipient,
 * subject, attempts and last error, and a "Send again" button that queues one more attempt. The
 * admin navigation shows how many there are. Like every admin page, it is loaded in the browser
 * with the admin's token (clientLoader); nothing is server-rendered.
 */

export const meta: Route.MetaFunction = () => [
  { title: 'Failed mail | Boostly admin' },
  { name: 'robots', content: 'noindex, nofollow' },
];

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': CacheStrategy.none });

type MailLoad = { ok: true; mails: FailedMail[] } | { ok: false; message: string; unauthorized: boolean };

export async function clientLoader({ request }: Route.ClientLoaderArgs): Promise<MailLoad> {
  try {
    const mails = await adminApi.get<FailedMail[]>('/api/admin/mail/failed', { signal: request.signal });
    return { ok: true, mails };
  } catch (error) {
    if (isAbort(error)) throw error;
    return { ok: false, message: messageOf(error), unauthorized: isUnauthorized(error) };
  }
}

function Title() {
  return (
    <>
      <h1 id="failed-mail-title" className="text-3xl font-extrabold text-gray-900">
        Failed mail
      </h1>
      <p className="mt-2 max-w-3xl text-sm text-gray-700">
        E-mails the store could not deliver: it retries for 3 days before giving up, and e-mails every admin when it
        does. Fix the cause (usually the mail server settings), then send them again.
      </p>
    </>
  );
}

export function HydrateFallback() {
  return (
    <section aria-labelledby="failed-mail-title">
      <Title />
      <p role="status" className="mt-6 text-gray-700">
        Loading failed mail...
      </p>
    </section>
  );
}

function ResendButton({ mail }: { mail: FailedMail }) {
  const toasts = useToasts();
  const navigate = useNavigate();
  const location = useLocation();
  const [sending, setSending] = useState(false);

  async function resend() {
    setSending(true);
    try {
      const reply = await adminApi.send<{ message: string }>('POST', `/api/admin/mail/${mail.id}/resend`);
      toasts.show(reply.message, 'success');
    } catch (error) {
      if (!isUnauthorized(error)) toasts.show(messageOf(error), 'error');
    } finally {
      setSending(false);
      // Load the list (and the navigation's count) again.
      void navigate(`${location.pathname}${location.search}`, { replace: true });
    }
  }

  return (
    <button
      type="button"
      onClick={() => void resend()}
      disabled={sending}
      className="inline-flex items-center gap-2 rounded-lg bg-brand-700 px-3 py-1.5 text-sm font-semibold whitespace-nowrap text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-wait disabled:opacity-70"
    >
      {sending ? <ButtonSpinner /> : null}
      {/* The visible words start the accessible name (WCAG 2.5.3, label in name). */}
      Send again<span className="sr-only"> the e-mail to {mail.to}</span>
    </button>
  );
}

export default function FailedMailPage({ loaderData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const loading = navigation.state === 'loading';

  return (
    <section aria-labelledby="failed-mail-title" aria-busy={loading}>
      <Title />
      {!loaderData.ok ? (
        loaderData.unauthorized ? null : (
          <p role="alert" className="mt-6 rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-red-800">
            {loaderData.message}
          </p>
        )
      ) : loaderData.mails.length === 0 ? (
        <p
          data-testid="failed-mail-empty"
          className="mt-6 rounded-2xl border border-gray-200 bg-white px-6 py-10 text-gray-700"
        >
          No failed e-mails: everything was delivered or is still being retried.
        </p>
      ) : (
        <div className="mt-6 overflow-x-auto rounded-2xl border border-gray-200 bg-white">
          <table data-testid="failed-mail" className="min-w-full divide-y divide-gray-200 text-left text-sm">
            <caption className="sr-only">E-mails that could not be delivered, newest first</caption>
            <thead className="bg-gray-50 text-xs font-bold tracking-wide text-gray-700 uppercase">
              <tr>
                <th scope="col" className="px-4 py-3">
                  Recipient
                </th>
                <th scope="col" className="px-4 py-3">
                  Subject
                </th>
                <th scope="col" className="px-4 py-3">
                  Attempts
                </th>
                <th scope="col" className="px-4 py-3">
                  Last error
                </th>
                <th scope="col" className="px-4 py-3">
                  Given up
                </th>
                <th scope="col" className="px-4 py-3">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-gray-100">
              {loaderData.mails.map((mail) => (
                <tr key={mail.id}>
                  <td className="px-4 py-3 font-semibold break-all text-gray-900">{mail.to}</td>
                  <td className="px-4 py-3 text-gray-900">{mail.subject}</td>
                  <td className="px-4 py-3 text-gray-700 tabular-nums">{mail.attempts}</td>
                  <td className="max-w-md px-4 py-3 break-words text-gray-700">{mail.lastError ?? '—'}</td>
                  <td className="px-4 py-3 whitespace-nowrap text-gray-700">{formatAdminDate(mail.failedAt)}</td>
                  <td className="px-4 py-3 text-right">
                    <ResendButton mail={mail} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
