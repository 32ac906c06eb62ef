import { useFetcher } from 'react-router';
import { Link } from '../components/Link.tsx';
import type {
  SubscriptionRemindersBody,
  SubscriptionRemindersReply,
} from '../../core/subscriptions/renewal-contracts.ts';
import type { Route } from './+types/renew-stop';
import { type Envelope, api, messageOf } from '../api/client.ts';
import { CacheStrategy } from '../cache.ts';
import { ButtonSpinner, ErrorBanner, primaryButton } from '../components/form.tsx';
import { requestContext } from '../context.ts';
import { privatePageMeta } from '../seo/private-meta.ts';

/**
 * The reminder e-mail's "Stop renewal reminders": opening the link changes nothing (mail
 * scanners open links); the button sends `POST /api/order/subscription/reminders` with the
 * e-mailed token as the proof. Private: noindex, never cached.
 */

export const meta: Route.MetaFunction = () => privatePageMeta('Renewal reminders', { nofollow: true });

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': CacheStrategy.none });

export async function loader({ params, context }: Route.LoaderArgs) {
  return context.get(requestContext).services.renewals.viewStop(params.token);
}

type ActionData = { ok: true; message: string } | { ok: false; message: string };

export async function clientAction({ request, params }: Route.ClientActionArgs): Promise<ActionData> {
  const formData = await request.formData();
  const orderId = formData.get('orderId');
  try {
    const reply = await api.send<Envelope<SubscriptionRemindersReply>, SubscriptionRemindersBody>(
      'POST',
      '/api/order/subscription/reminders',
      {
        body: { orderId: typeof orderId === 'string' ? orderId : '', token: params.token, reminders: false },
        signal: request.signal,
      },
    );
    return { ok: true, message: reply.message };
  } catch (error) {
    return { ok: false, message: messageOf(error) };
  }
}

const linkClass = 'font-semibold text-brand-700 underline hover:text-brand-800';

export default function RenewStopPage({ loaderData }: Route.ComponentProps) {
  const fetcher = useFetcher<ActionData>();
  const submitting = fetcher.state !== 'idle';
  const reply = fetcher.data;

  let body;
  if (loaderData.state !== 'open') {
    body = (
      <div data-testid="reminders-link-invalid">
        <h1 className="text-3xl font-extrabold text-gray-900">This link does not work</h1>
        <p className="mt-4 text-gray-700">
          Check that you opened the whole link from our e-mail. You can also turn reminders off on the{' '}
          <Link to="/client" className={linkClass}>
            Client page
          </Link>
          , next to your order.
        </p>
      </div>
    );
  } else if (reply?.ok) {
    body = (
      <div data-testid="reminders-stopped">
        <h1 className="text-3xl font-extrabold text-gray-900">Reminders stopped</h1>
        <p
          role="status"
          className="mt-4 rounded-xl border border-green-200 bg-green-50 px-4 py-3 font-medium text-green-900"
        >
          {reply.message}
        </p>
        <p className="mt-4 text-gray-700">
          Your {loaderData.serviceName} for {loaderData.target} runs to the end of its period as before. You can turn
          reminders back on from the Client page.
        </p>
      </div>
    );
  } else if (loaderData.ended) {
    body = (
      <div data-testid="reminders-ended">
        <h1 className="text-3xl font-extrabold text-gray-900">This subscription has ended</h1>
        <p className="mt-4 text-gray-700">
          Your {loaderData.serviceName} for {loaderData.target} has ended, so we will not send any more reminders about
          it.
        </p>
      </div>
    );
  } else if (!loaderData.reminders) {
    body = (
      <div data-testid="reminders-already-off">
        <h1 className="text-3xl font-extrabold text-gray-900">Reminders are already off</h1>
        <p className="mt-4 text-gray-700">
          We will not e-mail you about renewing your {loaderData.serviceName} for {loaderData.target}.
        </p>
      </div>
    );
  } else {
    body = (
      <div data-testid="reminders-stop">
        <h1 className="text-3xl font-extrabold text-gray-900">Stop renewal reminders?</h1>
        <p className="mt-4 text-gray-700">
          We e-mail a renewal link 3 days before your {loaderData.serviceName} for {loaderData.target} ends (order{' '}
          <span className="font-mono">{loaderData.orderId}</span>). Nothing renews by itself either way.
        </p>
        <fetcher.Form method="post" className="mt-6 space-y-4">
          <input type="hidden" name="orderId" value={loaderData.orderId} />
          {reply && !reply.ok ? <ErrorBanner message={reply.message} testId="reminders-error" /> : null}
          <button type="submit" disabled={submitting} className={primaryButton} data-testid="reminders-stop-button">
            {submitting ? <ButtonSpinner /> : null}
            {submitting ? 'Stopping…' : 'Stop reminders for this subscription'}
          </button>
        </fetcher.Form>
      </div>
    );
  }

  return (
    <div className="mx-auto max-w-2xl px-4 py-12">
      {body}
      <p className="mt-6">
        <Link to="/" className={linkClass}>
          Back to the store
        </Link>
      </p>
    </div>
  );
}
