import type { KindMoney } from '../../../core/admin/dashboard-figures.ts';
import { formatUnit } from './DayChart.tsx';

/**
 * The dashboard's revenue split one-off / subscription (decision 057): the range's payments by
 * the kind of order they paid, with each part's share, per currency.
 */

const count = (value: number) => formatUnit({ kind: 'count' }, value);

export function KindMoneyCard({ rows, range }: { rows: KindMoney[]; range: number }) {
  const currencies = [...new Set(rows.map((row) => row.currency))];
  return (
    <section aria-labelledby="kinds-title" className="mt-8" data-testid="dashboard-kinds">
      <h2 id="kinds-title" className="text-lg font-bold text-gray-900">
        Revenue by kind of order, last {range} days
      </h2>
      {rows.length === 0 ? (
        <p className="mt-3 rounded-2xl border border-dashed border-gray-300 bg-white p-6 text-gray-700">
          No payments in the last {range} days yet.
        </p>
      ) : (
        <ul className="mt-3 grid gap-4 lg:grid-cols-2">
          {currencies.map((currency) => {
            const parts = rows.filter((row) => row.currency === currency);
            const total = parts.reduce((sum, row) => sum + row.revenue, 0);
            const money = (value: number) => formatUnit({ kind: 'money', currency }, value);
            return (
              <li key={currency} className="min-w-0 rounded-2xl border border-gray-200 bg-white p-4">
                {currencies.length > 1 ? <h3 className="text-base font-bold text-gray-900">In {currency}</h3> : null}
                <dl className="grid grid-cols-2 gap-2">
                  {parts.map((row) => (
                    <div
                      key={row.kind}
                      className="min-w-0 rounded-xl border border-gray-100 bg-gray-50 p-3 text-gray-900"
                      data-testid="kind-money"
                      data-kind={row.kind}
                    >
                      <dt className="text-xs font-semibold">{row.label}</dt>
                      <dd className="mt-0.5 text-lg font-extrabold tabular-nums" data-testid="kind-revenue">
                        {money(row.revenue)}
                      </dd>
                      <dd className="text-xs tabular-nums">
                        {count(row.payments)} {row.payments === 1 ? 'payment' : 'payments'}
                        {total > 0 ? `, ${Math.round((row.revenue / total) * 100)}% of revenue` : ''}
                      </dd>
                    </div>
                  ))}
                </dl>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
