import { useState } from 'react';
import { useRevalidator } from 'react-router';
import { Link } from '../components/Link.tsx';
import type { SubscriptionDetail } from '../../core/admin/contracts.ts';
import { formatPeriodDate } from '../../core/subscriptions/terms.ts';
import { messageOf } from '../api/client.ts';
import { ConfirmDialog } from './blog/ConfirmDialog.tsx';
import { formatAdminDate } from './orders.tsx';
import { useToasts } from './toasts.tsx';
import { adminApi } from './token.ts';

/**
 * The order detail's subscription (decision 057): what the period covers, where it stands, its
 * dates, the supplier's own word, why it ended, the renewal links, and the owner's "Cancel
 * subscription", which asks first (saying what the rule refunds) and then asks the supplier to
 * stop it (`POST /api/admin/orders/:orderId/cancel-subscription`); the supplier's answer comes
 * back as a toast and the page reloads.
 */

/** The cancel route's reply (core/subscriptions/contracts.ts on the fulfilment side). */
interface CancelReply {
  message: string;
  data?: { ended?: boolean; message?: string };
}

const buttonClass =
  'rounded-xl border-2 border-red-700 px-4 py-2 text-sm font-bold text-red-800 hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-700 disabled:cursor-not-allowed disabled:border-gray-500 disabled:text-gray-700';

function Fact({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-semibold tracking-wide text-gray-700 uppercase">{label}</dt>
      <dd className="mt-1 break-words text-gray-900" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

const orderLink = (orderId: string) => (
  <Link
    to={`/admin/orders/${encodeURIComponent(orderId)}`}
    className="font-mono font-semibold text-brand-700 underline hover:text-brand-800"
  >
    {orderId}
  </Link>
);

export function SubscriptionPanel({
  orderId,
  kindLabel,
  subscription,
}: {
  orderId: string;
  kindLabel: string;
  subscription: SubscriptionDetail;
}) {
  const toasts = useToasts();
  const revalidator = useRevalidator();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);

  async function cancel() {
    setBusy(true);
    try {
      const reply = await adminApi.send<CancelReply>(
        'POST',
        `/api/admin/orders/${encodeURIComponent(orderId)}/cancel-subscription`,
      );
      const ended = reply.data?.ended === true;
      toasts.show(reply.data?.message ?? reply.message, ended ? 'success' : 'info');
    } catch (error) {
      toasts.show('The subscription was not cancelled', 'error', messageOf(error));
    } finally {
      setBusy(false);
      setAsking(false);
      void revalidator.revalidate();
    }
  }

  const dash = <span className="text-gray-700">—</span>;
  return (
    <section
      aria-labelledby="subscription-title"
      data-testid="order-subscription"
      className="mt-6 rounded-2xl border border-gray-200 bg-white p-6 shadow-sm"
    >
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h2 id="subscription-title" className="text-lg font-bold text-gray-900">
            {kindLabel}
          </h2>
          <p className="mt-1 text-gray-900" data-testid="subscription-coverage">
            {subscription.coverage}
          </p>
          <p className="mt-1 font-semibold text-gray-900" data-testid="subscription-progress">
            {subscription.progress}
          </p>
        </div>
        {subscription.running ? (
          <button
            type="button"
            className={buttonClass}
            data-testid="subscription-cancel-button"
            disabled={busy}
            onClick={() => setAsking(true)}
          >
            Cancel subscription
          </button>
        ) : null}
      </div>
      <dl className="mt-5 grid gap-x-6 gap-y-4 sm:grid-cols-2 lg:grid-cols-3">
        <Fact label="Started" testId="subscription-starts">
          {subscription.startsAt ? formatAdminDate(subscription.startsAt) : 'Not at the supplier yet'}
        </Fact>
        <Fact label="Ends" testId="subscription-ends">
          {subscription.endsAt ? formatPeriodDate(subscription.endsAt) : dash}
        </Fact>
        <Fact label="The supplier says" testId="subscription-panel-status">
          {subscription.panelStatus ?? dash}
        </Fact>
        {subscription.endedAt ? (
          <Fact label="Ended" testId="subscription-ended">
            {formatAdminDate(subscription.endedAt)}
            {subscription.endReason ? `: ${subscription.endReason}` : ''}
          </Fact>
        ) : null}
        <Fact label="Renewal reminder" testId="subscription-reminders">
          {subscription.reminderSentAt
            ? `Sent ${formatAdminDate(subscription.reminderSentAt)}`
            : subscription.reminders
              ? '3 days before the end'
              : 'Turned off by the customer'}
        </Fact>
        {subscription.renews ? (
          <Fact label="Renews order" testId="subscription-renews">
            {orderLink(subscription.renews)}
          </Fact>
        ) : null}
        {subscription.renewedBy ? (
          <Fact label="Renewed by order" testId="subscription-renewed-by">
            {orderLink(subscription.renewedBy)}
          </Fact>
        ) : null}
      </dl>
      {subscription.running ? (
        <p className="mt-4 text-sm text-gray-700" data-testid="subscription-refund-rule">
          {subscription.refundRule}
        </p>
      ) : null}
      <ConfirmDialog
        open={asking}
        title="Cancel this subscription?"
        text={`The supplier is asked to stop it now and it cannot be restarted. ${subscription.refundRule}`}
        confirmLabel="Cancel subscription"
        cancelLabel="Keep it running"
        destructive
        busy={busy}
        onConfirm={() => void cancel()}
        onCancel={() => setAsking(false)}
        testId="subscription-cancel-dialog"
      />
    </section>
  );
}
