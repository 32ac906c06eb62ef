/**
 * The one order status tag of every screen (confirmation, order history, admin). Spec section
 * 4: a status is shown as a lowercase hyphenated tag ("In Progress" → "in-progress"). Which tag an
 * order shows (and whether a paid order waiting for the supplier says so) is decided by
 * `orderStatusTag` in core/orders, from the work status and the payment.
 */
import type { PaymentStatus } from '../../core/orders/status.ts';
import { orderStatusTag } from '../../core/orders/status-words.ts';

/** The spec's tag for a work status alone (a paid order's), for texts that name one. */
export function statusTag(status: string): string {
  return orderStatusTag(status, 'paid').tag;
}

const TAG_STYLES: Readonly<Record<string, string>> = {
  completed: 'bg-green-100 text-green-900',
  'in-progress': 'bg-blue-100 text-blue-900',
  processing: 'bg-blue-100 text-blue-900',
  partial: 'bg-amber-100 text-amber-900',
  canceled: 'bg-red-100 text-red-900',
  pending: 'bg-gray-100 text-gray-900',
  'not-paid': 'bg-gray-100 text-gray-900',
  'payment-declined': 'bg-red-100 text-red-900',
  abandoned: 'bg-gray-100 text-gray-900',
};

export function StatusTag({
  status,
  paymentStatus,
  testId,
}: {
  status: string;
  paymentStatus: PaymentStatus;
  testId?: string | undefined;
}) {
  const { tag, note } = orderStatusTag(status, paymentStatus);
  return (
    <span className="inline-flex flex-wrap items-center gap-x-2 gap-y-1">
      <span
        data-testid={testId}
        className={`inline-block rounded-full px-3 py-1 text-xs font-bold whitespace-nowrap ${TAG_STYLES[tag] ?? TAG_STYLES.pending}`}
      >
        {tag}
      </span>
      {note ? (
        <span
          data-testid={testId ? `${testId}-note` : undefined}
          className="text-xs font-semibold whitespace-nowrap text-green-800"
        >
          {note}
        </span>
      ) : null}
    </span>
  );
}
