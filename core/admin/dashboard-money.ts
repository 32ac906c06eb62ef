/**
 * The owner's money by payment provider for the dashboard's range: payments that paid an order
 * (by the day they arrived), refunds made (by the day the provider confirmed them), chargebacks
 * (by the day they were reported), and the second payments still waiting to be refunded.
 *
 * Each query walks one index over the range only (migrations 022 and 023), so its cost follows
 * the payments of the range, never the whole history. Partial-index predicates are written out,
 * not bound: SQLite uses a partial index only for a WHERE it can match to the index's own.
 * Amounts are added up in ten-thousandths per currency (never dollars and rupees together), and
 * refunds and chargebacks take their currency from their order.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { e4ToNumber } from '../money/money.ts';
import {
  type KindMoney,
  type ProviderMoney,
  REVENUE_KINDS,
  REVENUE_KIND_LABELS,
  type RevenueKind,
} from './dashboard-figures.ts';
import { methodLabel, providerLabel } from './payment-words.ts';

interface Sums {
  n: number | string;
  e4: number | string | null;
}

/**
 * The four reads behind the figures, between two instants: `from` included and `until` excluded
 * (ISO texts, which compare like the instants they name). Exported for the index checks in the
 * tests, which EXPLAIN these very statements.
 */
export function providerMoneyQueries(from: string, until: string) {
  return {
    // order_payments_created (created_at, provider): the range's payments, then their role.
    payments: sql<Sums & { provider: string; method: string; currency: string }>`
      select provider, method, currency, count(*) as n, sum(amount_e4) as e4
        from order_payments
       where created_at >= ${from} and created_at < ${until} and role = 'applied'
       group by provider, method, currency`,
    // refunds_settled (migration 023), partial on status = 'done'.
    refunds: sql<Sums & { provider: string; currency: string }>`
      select r.provider as provider, o.currency as currency, count(*) as n, sum(r.amount_e4) as e4
        from refunds r join orders o on o.id = r.order_id
       where r.status = 'done' and r.settled_at >= ${from} and r.settled_at < ${until}
       group by r.provider, o.currency`,
    // payment_disputes_created (created_at, provider).
    disputes: sql<Sums & { provider: string; currency: string }>`
      select d.provider as provider, o.currency as currency, count(*) as n, sum(d.amount_e4) as e4
        from payment_disputes d join orders o on o.id = d.order_id
       where d.created_at >= ${from} and d.created_at < ${until}
       group by d.provider, o.currency`,
    // order_payments_extra (migration 023), partial on role = 'extra'. A refund asked for and not
    // settled yet is on its way (or waits for the customer's address): not the owner's to do.
    waiting: sql<Sums & { provider: string; currency: string }>`
      select provider, currency, count(*) as n, sum(amount_e4 - refunded_e4 - refund_pending_e4) as e4
        from order_payments
       where role = 'extra' and amount_e4 > refunded_e4 + refund_pending_e4
       group by provider, currency`,
  };
}

/** The figures between two instants, `from` included and `until` excluded. */
export async function providerMoney(db: Kysely<Database>, from: string, until: string): Promise<ProviderMoney[]> {
  const queries = providerMoneyQueries(from, until);
  const [payments, refunds, disputes, waiting] = await Promise.all([
    queries.payments.execute(db),
    queries.refunds.execute(db),
    queries.disputes.execute(db),
    queries.waiting.execute(db),
  ]);

  interface Row extends Omit<ProviderMoney, 'revenue' | 'refunded' | 'disputed' | 'toRefundAmount' | 'methods'> {
    revenueE4: number;
    refundedE4: number;
    disputedE4: number;
    toRefundE4: number;
    methods: Map<string, { payments: number; revenueE4: number }>;
  }
  const rows = new Map<string, Row>();
  const rowOf = (provider: string, currency: string): Row => {
    const key = `${provider}\u0000${currency}`;
    const known = rows.get(key);
    if (known) return known;
    const row: Row = {
      provider,
      label: providerLabel(provider),
      currency,
      payments: 0,
      revenueE4: 0,
      methods: new Map(),
      refunds: 0,
      refundedE4: 0,
      disputes: 0,
      disputedE4: 0,
      toRefund: 0,
      toRefundE4: 0,
    };
    rows.set(key, row);
    return row;
  };

  for (const r of payments.rows) {
    const row = rowOf(r.provider, r.currency);
    const method = row.methods.get(r.method) ?? { payments: 0, revenueE4: 0 };
    method.payments += Number(r.n);
    method.revenueE4 += Number(r.e4 ?? 0);
    row.methods.set(r.method, method);
    row.payments += Number(r.n);
    row.revenueE4 += Number(r.e4 ?? 0);
  }
  for (const r of refunds.rows) {
    const row = rowOf(r.provider, r.currency);
    row.refunds += Number(r.n);
    row.refundedE4 += Number(r.e4 ?? 0);
  }
  for (const r of disputes.rows) {
    const row = rowOf(r.provider, r.currency);
    row.disputes += Number(r.n);
    row.disputedE4 += Number(r.e4 ?? 0);
  }
  for (const r of waiting.rows) {
    const row = rowOf(r.provider, r.currency);
    row.toRefund += Number(r.n);
    row.toRefundE4 += Number(r.e4 ?? 0);
  }

  return [...rows.values()]
    .sort((a, b) => a.label.localeCompare(b.label) || a.currency.localeCompare(b.currency))
    .map(({ revenueE4, refundedE4, disputedE4, toRefundE4, methods, ...counts }) => ({
      ...counts,
      revenue: e4ToNumber(revenueE4),
      refunded: e4ToNumber(refundedE4),
      disputed: e4ToNumber(disputedE4),
      toRefundAmount: e4ToNumber(toRefundE4),
      methods: [...methods.entries()]
        .map(([method, sums]) => ({
          label: methodLabel(method),
          payments: sums.payments,
          revenue: e4ToNumber(sums.revenueE4),
        }))
        .sort((a, b) => b.revenue - a.revenue || a.label.localeCompare(b.label)),
    }));
}

/**
 * The range's payments that paid an order, split one-off / subscription by the order's kind
 * (decision 057). The same walk as `payments` above (order_payments_created over the range),
 * each payment's order read by its primary key. Exported for the index checks in the tests.
 */
export function kindMoneyQuery(from: string, until: string) {
  return sql<Sums & { kind: string; currency: string }>`
    select o.kind as kind, p.currency as currency, count(*) as n, sum(p.amount_e4) as e4
      from order_payments p join orders o on o.id = p.order_id
     where p.created_at >= ${from} and p.created_at < ${until} and p.role = 'applied'
     group by o.kind, p.currency`;
}

/** Revenue per currency as one-off packages and subscriptions, both always named (a zero says "none yet"). */
export async function kindMoney(db: Kysely<Database>, from: string, until: string): Promise<KindMoney[]> {
  const { rows } = await kindMoneyQuery(from, until).execute(db);
  const byCurrency = new Map<string, Record<RevenueKind, { payments: number; revenueE4: number }>>();
  for (const row of rows) {
    const sums = byCurrency.get(row.currency) ?? {
      one_off: { payments: 0, revenueE4: 0 },
      subscription: { payments: 0, revenueE4: 0 },
    };
    byCurrency.set(row.currency, sums);
    const part = sums[row.kind === 'package' ? 'one_off' : 'subscription'];
    part.payments += Number(row.n);
    part.revenueE4 += Number(row.e4 ?? 0);
  }
  return [...byCurrency.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .flatMap(([currency, sums]) =>
      REVENUE_KINDS.map((kind) => ({
        kind,
        label: REVENUE_KIND_LABELS[kind],
        currency,
        payments: sums[kind].payments,
        revenue: e4ToNumber(sums[kind].revenueE4),
      })),
    );
}
