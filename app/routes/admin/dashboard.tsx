import { useSearchParams } from 'react-router';
import { Link } from '../../components/Link.tsx';
import type { Route } from './+types/dashboard';
import { DASHBOARD_RANGES, type DashboardFigures } from '../../../core/admin/dashboard-figures.ts';
import type { PanelBalance } from '../../../core/fulfilment/supplier-contracts.ts';
import { CacheStrategy } from '../../cache.ts';
import { AdminPageHeader } from '../../admin/list-parts.tsx';
import { DayChart, formatUnit } from '../../admin/dashboard/DayChart.tsx';
import { ProviderMoneyCards } from '../../admin/dashboard/ProviderMoneyCards.tsx';
import { KindMoneyCard } from '../../admin/dashboard/KindMoneyCard.tsx';
import { adminApi, isUnauthorized } from '../../admin/token.ts';
import { isAbort, messageOf } from '../../api/client.ts';

/**
 * The owner's dashboard (decision 042): money, payments, refunds and checkouts per day over the last
 * 7, 30 or 90 days (per currency), money per payment provider, the order statuses, average
 * delivery time per service, and what needs attention: orders flagged for review, failed mail, the supplier's balance. Owner
 * only (decision 041). Loaded in the browser with the admin's token, like every admin page.
 */

export const meta: Route.MetaFunction = () => [
  { title: 'Dashboard | Boostly admin' },
  { name: 'robots', content: 'noindex, nofollow' },
];

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': CacheStrategy.none });

type Figures = DashboardFigures & { failedMail: number; supplierBalances: PanelBalance[] };
type DashboardLoad = { ok: true; figures: Figures } | { ok: false; message: string; unauthorized: boolean };

function rangeOf(search: string): (typeof DASHBOARD_RANGES)[number] {
  const asked = Number(new URLSearchParams(search).get('days'));
  return DASHBOARD_RANGES.find((range) => range === asked) ?? 30;
}

export async function clientLoader({ request }: Route.ClientLoaderArgs): Promise<DashboardLoad> {
  const days = rangeOf(new URL(request.url).search);
  try {
    const figures = await adminApi.get<Figures>(`/api/admin/dashboard?days=${days}`, { signal: request.signal });
    return { ok: true, figures };
  } catch (error) {
    if (isAbort(error)) throw error;
    return { ok: false, message: messageOf(error), unauthorized: isUnauthorized(error) };
  }
}

function Title({ action }: { action?: React.ReactNode }) {
  return (
    <AdminPageHeader
      titleId="dashboard-title"
      title="Dashboard"
      description="Money and orders per day (UTC), and what needs your attention."
      action={action}
    />
  );
}

export function HydrateFallback() {
  return (
    <section aria-labelledby="dashboard-title">
      <Title />
      <p role="status" className="mt-6 text-gray-700">
        Loading the dashboard...
      </p>
    </section>
  );
}

const count = (value: number) => formatUnit({ kind: 'count' }, value);

/** "2 d 4 h", "3 h 20 min", "12 min", "under a minute". */
export function formatDuration(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  if (minutes < 1) return 'under a minute';
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  if (days > 0) return hours > 0 ? `${days} d ${hours} h` : `${days} d`;
  if (hours > 0) return rest > 0 ? `${hours} h ${rest} min` : `${hours} h`;
  return `${rest} min`;
}

function RangePicker({ current }: { current: number }) {
  const [params] = useSearchParams();
  return (
    <nav aria-label="Period" className="inline-flex rounded-xl border-2 border-gray-300 bg-white p-0.5">
      {DASHBOARD_RANGES.map((range) => {
        const next = new URLSearchParams(params);
        next.set('days', String(range));
        const active = range === current;
        return (
          <Link
            key={range}
            to={`?${next.toString()}`}
            aria-current={active ? 'page' : undefined}
            className={`rounded-lg px-3 py-1.5 text-sm font-semibold ${
              active ? 'bg-brand-700 text-white' : 'text-gray-900 hover:bg-gray-100'
            }`}
          >
            {range} days
          </Link>
        );
      })}
    </nav>
  );
}

function Tile({ label, value, detail, testId }: { label: string; value: string; detail?: string; testId: string }) {
  return (
    <div className="min-w-0 rounded-2xl border border-gray-200 bg-white p-4" data-testid={testId}>
      <dt className="text-sm font-semibold text-gray-700">{label}</dt>
      <dd className="mt-1 text-2xl font-extrabold text-gray-900 tabular-nums">{value}</dd>
      {detail ? <dd className="mt-1 text-sm text-gray-700">{detail}</dd> : null}
    </div>
  );
}

function AttentionItem({ label, value, to, tone }: { label: string; value: string; to?: string; tone: 'ok' | 'warn' }) {
  const body = (
    <>
      <span className="text-sm font-semibold text-gray-700">{label}</span>
      <span className={`text-lg font-extrabold tabular-nums ${tone === 'warn' ? 'text-red-700' : 'text-gray-900'}`}>
        {value}
      </span>
    </>
  );
  const box = 'flex min-w-0 items-center justify-between gap-3 rounded-2xl border border-gray-200 bg-white p-4';
  return (
    <li>
      {to ? (
        <Link to={to} className={`${box} hover:border-brand-600`}>
          {body}
        </Link>
      ) : (
        <div className={box}>{body}</div>
      )}
    </li>
  );
}

/** Whether a balance is below the panel's low-balance threshold (both decimal texts). */
function isBelow(balance: string, threshold: string | null): boolean {
  if (threshold === null) return false;
  const amount = Number(balance);
  return Number.isFinite(amount) && amount < Number(threshold);
}

export default function AdminDashboard({ loaderData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const range = rangeOf(`?${params.toString()}`);
  if (!loaderData.ok) {
    return (
      <section aria-labelledby="dashboard-title">
        <Title action={<RangePicker current={range} />} />
        <p role="alert" className="rounded-xl border border-red-200 bg-red-50 p-4 text-red-800">
          {loaderData.message}
        </p>
      </section>
    );
  }
  const { figures } = loaderData;
  const balances = figures.supplierBalances;
  const days = figures.series[0]?.days.map((day) => day.day) ?? [];
  const chargebacks = figures.byProvider.reduce((sum, row) => sum + row.disputes, 0);
  const secondPayments = figures.byProvider.reduce((sum, row) => sum + row.toRefund, 0);

  return (
    <section aria-labelledby="dashboard-title" data-testid="dashboard">
      <Title action={<RangePicker current={figures.range} />} />

      <h2 className="sr-only">Needs attention</h2>
      <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3" data-testid="dashboard-attention">
        <AttentionItem
          label="Orders flagged for review"
          value={count(figures.flaggedForReview)}
          to="/admin/all-orders"
          tone={figures.flaggedForReview > 0 ? 'warn' : 'ok'}
        />
        <AttentionItem
          label="Failed mail"
          value={count(figures.failedMail)}
          to="/admin/mail"
          tone={figures.failedMail > 0 ? 'warn' : 'ok'}
        />
        {/* Each opened chargeback and each second payment also flags its order for review. */}
        <AttentionItem
          label="Chargebacks in this period"
          value={count(chargebacks)}
          to="/admin/all-orders"
          tone={chargebacks > 0 ? 'warn' : 'ok'}
        />
        <AttentionItem
          label="Second payments to refund"
          value={count(secondPayments)}
          to="/admin/all-orders"
          tone={secondPayments > 0 ? 'warn' : 'ok'}
        />
        {balances.map(({ panelId, name, reading, lowBalanceThreshold }, index) => (
          <AttentionItem
            key={panelId}
            // The main panel (first) keeps the label owners know; panels added later go by their names.
            label={
              index === 0
                ? balances.length === 1
                  ? 'Supplier balance'
                  : `Supplier balance (${name})`
                : `Balance of ${name}`
            }
            value={'error' in reading ? 'Unavailable' : `${reading.balance} ${reading.currency}`.trim()}
            to="/admin/suppliers"
            tone={'error' in reading || isBelow(reading.balance, lowBalanceThreshold) ? 'warn' : 'ok'}
          />
        ))}
      </ul>
      {balances.map(({ panelId, name, reading }) =>
        'error' in reading ? (
          <p key={panelId} className="mt-2 text-sm text-gray-700">
            {balances.length === 1 ? reading.error : `${name}: ${reading.error}`}
          </p>
        ) : null,
      )}

      {figures.series.length === 0 ? (
        <p className="mt-8 rounded-2xl border border-dashed border-gray-300 bg-white p-6 text-gray-700">
          No checkouts, payments or refunds in the last {figures.range} days yet.
        </p>
      ) : (
        figures.series.map((series) => {
          const unit = { kind: 'money', currency: series.currency } as const;
          const format = (value: number) => formatUnit(unit, value);
          const { totals } = series;
          const unpaid = totals.checkouts - totals.paidCheckouts;
          return (
            <section
              key={series.currency}
              aria-label={`Sales in ${series.currency}`}
              className="mt-8"
              data-testid="dashboard-series"
            >
              <h2 className="text-lg font-bold text-gray-900">
                Last {figures.range} days{figures.series.length > 1 ? `, in ${series.currency}` : ''}
              </h2>
              <dl className="mt-3 grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
                <Tile
                  label="Revenue"
                  value={format(totals.revenue)}
                  detail={`Net of refunds ${format(totals.revenue - totals.refunded)}`}
                  testId="tile-revenue"
                />
                <Tile label="Paid orders" value={count(totals.payments)} testId="tile-payments" />
                <Tile
                  label="Refunds"
                  value={format(totals.refunded)}
                  detail={`${count(totals.refunds)} ${totals.refunds === 1 ? 'order' : 'orders'}`}
                  testId="tile-refunds"
                />
                <Tile
                  label="Checkouts paid"
                  value={totals.checkouts > 0 ? `${Math.round((totals.paidCheckouts / totals.checkouts) * 100)}%` : '–'}
                  detail={`${count(totals.paidCheckouts)} paid, ${count(unpaid)} not paid`}
                  testId="tile-checkouts"
                />
              </dl>
              <div className="mt-4 grid gap-4 xl:grid-cols-2">
                <DayChart
                  title="Revenue and refunds per day"
                  testId="chart-revenue"
                  days={days}
                  unit={unit}
                  series={[
                    { label: 'Revenue', values: series.days.map((d) => d.revenue), color: '#4f46e5', kind: 'line' },
                    { label: 'Refunds', values: series.days.map((d) => d.refunded), color: '#b91c1c', kind: 'line' },
                  ]}
                />
                <DayChart
                  title="Checkouts per day: paid and not paid"
                  testId="chart-checkouts"
                  days={days}
                  unit={{ kind: 'count' }}
                  series={[
                    {
                      label: 'Paid',
                      values: series.days.map((d) => d.paidCheckouts),
                      color: '#15803d',
                      kind: 'bars',
                    },
                    {
                      label: 'Not paid',
                      values: series.days.map((d) => d.checkouts - d.paidCheckouts),
                      color: '#9ca3af',
                      kind: 'bars',
                    },
                  ]}
                />
              </div>
            </section>
          );
        })
      )}

      <KindMoneyCard rows={figures.byKind} range={figures.range} />
      <ProviderMoneyCards rows={figures.byProvider} range={figures.range} />

      <div className="mt-8 grid gap-4 xl:grid-cols-2">
        <section aria-labelledby="statuses-title" className="min-w-0 rounded-2xl border border-gray-200 bg-white p-4">
          <h2 id="statuses-title" className="text-base font-bold text-gray-900">
            Orders by status (all time)
          </h2>
          <table className="mt-3 w-full text-left text-sm" data-testid="dashboard-statuses">
            <thead>
              <tr className="text-gray-700">
                <th scope="col" className="py-1 pr-3">
                  Order status
                </th>
                <th scope="col" className="py-1 pr-3">
                  Payment
                </th>
                <th scope="col" className="py-1 text-right">
                  Orders
                </th>
              </tr>
            </thead>
            <tbody>
              {figures.statuses.map((row) => (
                <tr key={`${row.orderStatus} ${row.paymentStatus}`} className="border-t border-gray-100">
                  <td className="py-1 pr-3">{row.orderStatus}</td>
                  <td className="py-1 pr-3">{row.paymentWords}</td>
                  <td className="py-1 text-right tabular-nums">{count(row.count)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
        <section aria-labelledby="delivery-title" className="min-w-0 rounded-2xl border border-gray-200 bg-white p-4">
          <h2 id="delivery-title" className="text-base font-bold text-gray-900">
            Average delivery time, last {figures.range} days
          </h2>
          {figures.delivery.length === 0 ? (
            <p className="mt-3 text-sm text-gray-700">No order was completed in this period.</p>
          ) : (
            <table className="mt-3 w-full text-left text-sm" data-testid="dashboard-delivery">
              <thead>
                <tr className="text-gray-700">
                  <th scope="col" className="py-1 pr-3">
                    Service
                  </th>
                  <th scope="col" className="py-1 pr-3 text-right">
                    Completed
                  </th>
                  <th scope="col" className="py-1 text-right">
                    Payment to completed
                  </th>
                </tr>
              </thead>
              <tbody>
                {figures.delivery.map((row) => (
                  <tr key={row.serviceSlug} className="border-t border-gray-100">
                    <td className="py-1 pr-3 break-words">{row.serviceName}</td>
                    <td className="py-1 pr-3 text-right tabular-nums">{count(row.completed)}</td>
                    <td className="py-1 text-right">{formatDuration(row.averageSeconds)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      </div>
    </section>
  );
}
