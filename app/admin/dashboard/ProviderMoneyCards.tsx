import type { ProviderMoney } from '../../../core/admin/dashboard-figures.ts';
import { formatUnit } from './DayChart.tsx';

/**
 * The dashboard's money per payment provider: one card each (per currency when a provider took
 * more than one), so the list reads the same on a phone as beside the navigation. Chargebacks
 * stand out in red: each costs the owner the payment and the provider's fee.
 */

const count = (value: number) => formatUnit({ kind: 'count' }, value);

function Figure({
  label,
  value,
  detail,
  tone = 'plain',
  testId,
}: {
  label: string;
  value: string;
  detail?: string;
  tone?: 'plain' | 'alarm' | 'warn';
  testId: string;
}) {
  const box =
    tone === 'alarm'
      ? 'border-red-300 bg-red-50 text-red-900'
      : tone === 'warn'
        ? 'border-amber-300 bg-amber-50 text-amber-900'
        : 'border-gray-100 bg-gray-50 text-gray-900';
  return (
    <div className={`min-w-0 rounded-xl border p-3 ${box}`} data-testid={testId}>
      <dt className="text-xs font-semibold">{label}</dt>
      <dd className="mt-0.5 text-lg font-extrabold tabular-nums">{value}</dd>
      {detail ? <dd className="text-xs tabular-nums">{detail}</dd> : null}
    </div>
  );
}

export function ProviderMoneyCards({ rows, range }: { rows: ProviderMoney[]; range: number }) {
  // Currencies are named only when there is more than one (as the per-day series do).
  const currencies = new Set(rows.map((row) => row.currency));
  return (
    <section aria-labelledby="providers-title" className="mt-8" data-testid="dashboard-providers">
      <h2 id="providers-title" className="text-lg font-bold text-gray-900">
        Money by payment provider, last {range} days
      </h2>
      {rows.length === 0 ? (
        <p className="mt-3 rounded-2xl border border-dashed border-gray-300 bg-white p-6 text-gray-700">
          No payments, refunds or chargebacks in the last {range} days yet.
        </p>
      ) : (
        <ul className="mt-3 grid gap-4 lg:grid-cols-2">
          {rows.map((row) => {
            const money = (value: number) => formatUnit({ kind: 'money', currency: row.currency }, value);
            const title = currencies.size > 1 ? `${row.label}, in ${row.currency}` : row.label;
            return (
              <li
                key={`${row.provider} ${row.currency}`}
                className={`min-w-0 rounded-2xl border bg-white p-4 ${row.disputes > 0 ? 'border-red-300' : 'border-gray-200'}`}
                data-testid="provider-money"
                data-provider={row.provider}
              >
                <h3 className="text-base font-bold text-gray-900">{title}</h3>
                <dl className="mt-3 grid grid-cols-2 gap-2 sm:grid-cols-4">
                  <Figure
                    label="Revenue"
                    value={money(row.revenue)}
                    detail={`${count(row.payments)} ${row.payments === 1 ? 'payment' : 'payments'}`}
                    testId="provider-revenue"
                  />
                  <Figure
                    label="Refunded"
                    value={money(row.refunded)}
                    detail={`${count(row.refunds)} ${row.refunds === 1 ? 'refund' : 'refunds'}`}
                    testId="provider-refunds"
                  />
                  <Figure
                    label="Chargebacks"
                    value={money(row.disputed)}
                    detail={`${count(row.disputes)} opened`}
                    tone={row.disputes > 0 ? 'alarm' : 'plain'}
                    testId="provider-disputes"
                  />
                  <Figure
                    label="Second payments to refund"
                    value={money(row.toRefundAmount)}
                    detail={`${count(row.toRefund)} waiting`}
                    tone={row.toRefund > 0 ? 'warn' : 'plain'}
                    testId="provider-to-refund"
                  />
                </dl>
                {row.methods.length > 0 ? (
                  <table className="mt-3 w-full text-left text-sm" data-testid="provider-methods">
                    <caption className="sr-only">{row.label}: revenue by payment method</caption>
                    <thead>
                      <tr className="text-gray-700">
                        <th scope="col" className="py-1 pr-3">
                          Method
                        </th>
                        <th scope="col" className="py-1 pr-3 text-right">
                          Payments
                        </th>
                        <th scope="col" className="py-1 text-right">
                          Revenue
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {row.methods.map((method) => (
                        <tr key={method.label} className="border-t border-gray-100">
                          <td className="py-1 pr-3">{method.label}</td>
                          <td className="py-1 pr-3 text-right tabular-nums">{count(method.payments)}</td>
                          <td className="py-1 text-right tabular-nums">{money(method.revenue)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
