/**
 * Above the all-orders list filtered by one customer's e-mail: whose orders these are, how many
 * they placed, what they paid and what went back to them (per currency, never added across
 * currencies), a way back to the order the owner came from, and a way out of the filter.
 */
import { Link } from '../components/Link.tsx';
import type { CustomerTotals } from '../../core/admin/contracts.ts';
import { formatAdminPrice } from './orders.tsx';

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-semibold tracking-wide text-gray-700 uppercase">{label}</dt>
      <dd className="mt-1 text-lg font-bold text-gray-900 tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

export function CustomerTotalsPanel({
  email,
  totals,
  backToOrder,
  onShowAll,
}: {
  email: string;
  /** Null while the list loads. */
  totals: CustomerTotals | null;
  /** The order the owner came from (the detail's link passes it). */
  backToOrder: unknown;
  onShowAll: () => void;
}) {
  const money = totals?.money.length ? totals.money : [{ currency: 'USD', paid: 0, refunded: 0 }];
  const amounts = (pick: 'paid' | 'refunded') =>
    money.map((entry) => formatAdminPrice(entry[pick], entry.currency)).join(' + ');
  return (
    <section
      aria-labelledby="customer-totals-title"
      className="mb-4 rounded-2xl border border-brand-200 bg-brand-50 p-4"
      data-testid="customer-totals"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-2">
        <h2 id="customer-totals-title" className="min-w-0 text-lg font-bold break-all text-gray-900">
          Orders of {email}
        </h2>
        <div className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
          {typeof backToOrder === 'string' && backToOrder ? (
            <Link
              to={`/admin/orders/${encodeURIComponent(backToOrder)}`}
              className="font-semibold text-brand-700 underline hover:text-brand-800"
              data-testid="back-to-order"
            >
              <span aria-hidden="true">←</span> Back to order <span className="font-mono">{backToOrder}</span>
            </Link>
          ) : null}
          <button
            type="button"
            onClick={onShowAll}
            className="font-semibold text-brand-700 underline hover:text-brand-800"
          >
            Show every customer’s orders
          </button>
        </div>
      </div>
      {totals ? (
        <dl className="mt-3 grid grid-cols-1 gap-3 sm:grid-cols-3">
          <Figure label="Orders" value={totals.orders.toLocaleString('en-US')} testId="customer-orders" />
          <Figure label="Paid" value={amounts('paid')} testId="customer-paid" />
          <Figure label="Refunded" value={amounts('refunded')} testId="customer-refunded" />
        </dl>
      ) : (
        <p className="mt-3 text-sm text-gray-700">Adding up this customer’s orders…</p>
      )}
    </section>
  );
}
