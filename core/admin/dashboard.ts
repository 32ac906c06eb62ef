/**
 * The owner's dashboard (decision 042): money and orders per day, paid vs unpaid checkouts, the
 * status breakdown, average delivery time per service, and the counts that need someone's
 * attention. Every figure is read from tables kept by database triggers (migrations 007 and
 * 018) or from a partial index, so the dashboard costs the same at a thousand orders as at a
 * million (`npm run bench:admin` measures it).
 *
 * Days are UTC calendar days, the last `days` of them including today. Money stays per currency
 * (a store that sells in two currencies sees two series, never a sum of dollars and rupees).
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { e4ToNumber } from '../money/money.ts';
import type { CurrencySeries, DashboardDay, DashboardFigures, DashboardRange } from './dashboard-figures.ts';
import { kindMoney, providerMoney } from './dashboard-money.ts';
import { paymentStatusWords } from './payment-words.ts';

function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The `days` UTC days ending with `now`'s, oldest first. */
export function rangeDays(now: Date, days: number): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: days }, (_, i) => utcDay(new Date(today - (days - 1 - i) * 86_400_000)));
}

const emptyDay = (day: string): DashboardDay => ({
  day,
  checkouts: 0,
  paidCheckouts: 0,
  payments: 0,
  revenue: 0,
  refunds: 0,
  refunded: 0,
});

export function createDashboard(deps: { db: Kysely<Database>; now?: () => Date }) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());

  async function figures(range: DashboardRange): Promise<DashboardFigures> {
    const days = rangeDays(now(), range);
    const from = days[0] ?? utcDay(now());
    const to = days[days.length - 1] ?? from;
    // The range as instants: from the first day's midnight (UTC) up to the one after the last day.
    const until = utcDay(new Date(Date.parse(`${to}T00:00:00.000Z`) + 86_400_000));

    const [totals, statuses, delivery, flagged, byProvider, byKind] = await Promise.all([
      db.selectFrom('order_daily_totals').selectAll().where('day', '>=', from).where('day', '<=', to).execute(),
      sql<{
        order_status: string;
        payment_status: string;
        n: number | string;
      }>`select order_status, payment_status, n from order_counts where n <> 0 order by order_status, payment_status`.execute(
        db,
      ),
      db
        .selectFrom('service_delivery_daily')
        .select((eb) => [
          'service_slug',
          eb.fn.sum<number | string>('completed').as('completed'),
          eb.fn.sum<number | string>('delivery_seconds').as('seconds'),
        ])
        .where('day', '>=', from)
        .where('day', '<=', to)
        .groupBy('service_slug')
        .orderBy('service_slug')
        .execute(),
      // Served by the partial index orders_flagged_for_review (migration 018). The predicate is
      // written out, not bound: SQLite uses a partial index only for a WHERE it can match to the
      // index's own, and a bound parameter could be anything.
      db
        .selectFrom('orders')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where(sql<boolean>`needs_review = 1 or fulfilment_state = 'needs_review'`)
        .executeTakeFirstOrThrow(),
      providerMoney(db, `${from}T00:00:00.000Z`, `${until}T00:00:00.000Z`),
      kindMoney(db, `${from}T00:00:00.000Z`, `${until}T00:00:00.000Z`),
    ]);

    // Money is added up in ten-thousandths (exact), and turned into numbers at the end.
    interface DayE4 extends Omit<DashboardDay, 'revenue' | 'refunded'> {
      revenueE4: number;
      refundedE4: number;
    }
    const zero = (day: string): DayE4 => {
      const { revenue: _revenue, refunded: _refunded, ...counts } = emptyDay(day);
      return { ...counts, revenueE4: 0, refundedE4: 0 };
    };
    const byCurrency = new Map<string, Map<string, DayE4>>();
    for (const row of totals) {
      const known = byCurrency.get(row.currency) ?? new Map<string, DayE4>();
      byCurrency.set(row.currency, known);
      known.set(row.day, {
        day: row.day,
        checkouts: Number(row.checkouts),
        paidCheckouts: Number(row.converted),
        payments: Number(row.paid),
        revenueE4: Number(row.revenue_e4),
        refunds: Number(row.refunds),
        refundedE4: Number(row.refunded_e4),
      });
    }
    const toDay = ({ revenueE4, refundedE4, ...counts }: DayE4): DashboardDay => ({
      ...counts,
      revenue: e4ToNumber(revenueE4),
      refunded: e4ToNumber(refundedE4),
    });
    // The delivery table names services as the catalogue does; a handful of rows, one small read.
    const deliverySlugs = [...new Set(delivery.map((row) => row.service_slug))];
    const serviceNames = new Map(
      deliverySlugs.length === 0
        ? []
        : (await db.selectFrom('services').select(['slug', 'name']).where('slug', 'in', deliverySlugs).execute()).map(
            (row) => [row.slug, row.name] as const,
          ),
    );
    const series: CurrencySeries[] = [...byCurrency.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([currency, known]) => {
        const filled = days.map((day) => known.get(day) ?? zero(day));
        const total = filled.reduce((sum, day) => ({
          day: '',
          checkouts: sum.checkouts + day.checkouts,
          paidCheckouts: sum.paidCheckouts + day.paidCheckouts,
          payments: sum.payments + day.payments,
          revenueE4: sum.revenueE4 + day.revenueE4,
          refunds: sum.refunds + day.refunds,
          refundedE4: sum.refundedE4 + day.refundedE4,
        }));
        const { day: _day, ...totalsOnly } = toDay(total);
        return { currency, days: filled.map(toDay), totals: totalsOnly };
      });

    return {
      range,
      from,
      to,
      series,
      statuses: statuses.rows.map((row) => ({
        orderStatus: row.order_status,
        paymentStatus: row.payment_status,
        paymentWords: paymentStatusWords(row.payment_status),
        count: Number(row.n),
      })),
      delivery: delivery
        .map((row) => ({ slug: row.service_slug, completed: Number(row.completed), seconds: Number(row.seconds) }))
        .filter((row) => row.completed > 0)
        .map((row) => ({
          serviceSlug: row.slug,
          serviceName: serviceNames.get(row.slug) ?? row.slug,
          completed: row.completed,
          averageSeconds: Math.round(row.seconds / row.completed),
        })),
      flaggedForReview: Number(flagged.n),
      byProvider,
      byKind,
    };
  }

  return { figures };
}

export type Dashboard = ReturnType<typeof createDashboard>;
