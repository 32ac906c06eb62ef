import { useState } from 'react';
import { useLocation, useNavigate, useNavigation } from 'react-router';
import type { Route } from './+types/mail';
import type { FailedMail } from '../../../core/mail/failed-mail.ts';
import { ListEmpty } from '../../admin/list-parts.tsx';
import { ButtonSpinner, formatAdminDate } from '../../admin/orders.tsx';
import { type AdminLoad, AdminLoadFailed, adminPage, loadAdminData } from '../../admin/page.tsx';
import { useToasts } from '../../admin/toasts.tsx';
import { adminApi, isUnauthorized } from '../../admin/token.ts';
import { messageOf } from '../../api/client.ts';

/**
 * Failed mail (docs/decisions/015-mail-delivery-and-log-secrets.md): the e-mails the store gave up
 * on after retrying for 3 days (or that the mail server refused for good), with the recipient,
 * subject, attempts and last error, and a "Send again" button that queues one more attempt. The
 * admin navigation shows how many there are. Like every admin page, it is loaded in the browser
 * with the admin's token (clientLoader); nothing is server-rendered.
 */

const page = adminPage({
  title: 'Failed mail',
  titleId: 'failed-mail-title',
  description:
    'E-mails the store could not deliver: it retries for 3 days before giving up, and e-mails every admin when it does. Fix the cause (usually the mail server settings), then send them again.',
  loading: { label: 'Loading failed mail...', testId: 'failed-mail-loading' },
});

export const meta: Route.MetaFunction = page.meta;
export const headers: Route.HeadersFunction = page.headers;
export const HydrateFallback = page.HydrateFallback;

type MailLoad = AdminLoad<{ mails: FailedMail[] }>;

export function clientLoader({ request }: Route.ClientLoaderArgs): Promise<MailLoad> {
  return loadAdminData('GET /api/admin/mail/failed', async () => ({
    mails: await adminApi.get<FailedMail[]>('/api/admin/mail/failed', { signal: request.signal }),
  }));
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
    <section aria-labelledby={page.titleId} aria-busy={loading}>
      <page.Title />
      {!loaderData.ok ? (
        <AdminLoadFailed load={loaderData} />
      ) : loaderData.mails.length === 0 ? (
        <ListEmpty
          testId="failed-mail-empty"
          title="No failed e-mails: everything was delivered or is still being retried."
          hint="E-mails the store gives up on appear here, with a button to send them again."
        />
      ) : (
        // Below 768 px the rows are cards (decision 034); `relative` keeps the buttons' screen-reader
        // text inside the box instead of widening the page.
        <div className="relative mt-6 md:rounded-2xl md:border md:border-gray-200 md:bg-white">
          <table
            data-testid="failed-mail"
            className="block w-full text-left text-sm md:table md:divide-y md:divide-gray-200"
          >
            <caption className="sr-only">E-mails that could not be delivered, newest first</caption>
            <thead className="hidden bg-gray-50 text-xs font-bold tracking-wide text-gray-700 uppercase md:table-header-group">
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
            <tbody className="flex flex-col gap-3 md:table-row-group md:divide-y md:divide-gray-100">
              {loaderData.mails.map((mail) => (
                <tr
                  key={mail.id}
                  className="flex flex-col gap-1 rounded-2xl border border-gray-200 bg-white p-4 md:table-row md:rounded-none md:border-0 md:p-0"
                >
                  <td className="font-semibold break-all text-gray-900 md:px-4 md:py-3">{mail.to}</td>
                  <td className="break-words text-gray-900 md:px-4 md:py-3">{mail.subject}</td>
                  <td className="text-gray-700 tabular-nums before:content-['Attempts:_'] md:px-4 md:py-3 md:before:content-none">
                    {mail.attempts}
                  </td>
                  <td className="break-words text-gray-700 md:max-w-md md:px-4 md:py-3">{mail.lastError ?? '—'}</td>
                  <td className="text-gray-700 md:px-4 md:py-3 md:whitespace-nowrap">
                    {formatAdminDate(mail.failedAt)}
                  </td>
                  <td className="mt-2 md:mt-0 md:px-4 md:py-3 md:text-right">
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
