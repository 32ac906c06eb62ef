/**
 * The owner's dashboard figures (core/admin/dashboard.ts) and the trigger-kept totals behind them
 * (migration 018), on both dialects. The totals are checked against a recount from the orders
 * table after a long random history of inserts, payments, completions, refunds, edits and
 * deletes, so a trigger that misses a case fails here.
 */
import type { Insertable } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDashboard, rangeDays } from '../../core/admin/dashboard.ts';
import type { OrderStatus } from '../../core/orders/status.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import type { OrdersTable } from '../../db/schema.ts';
import { type TestDatabase, dialects, openTestDatabase } from '../support/databases.ts';

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return { next, int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)) };
}

const NOW = new Date('2026-11-23T15:00:00.000Z');
const at = (daysAgo: number, hour = 10) =>
  new Date(Date.UTC(2026, 10, 23 - daysAgo, hour, 0, 0)).toISOString().replace(/\.\d{3}Z$/, '.000Z');

let sequence = 0;
function orderRow(overrides: {
  created_at: string;
  currency?: string;
  service_slug?: string;
  amount_e4?: number;
  payment_status?: OrdersTable['payment_status'];
  order_status?: OrderStatus;
  paid_at?: string | null;
  refunded_e4?: number;
  needs_review?: number;
}): Insertable<OrdersTable> {
  sequence += 1;
  return {
    provider: 'sandbox',
    provider_order_id: `order_dash${String(sequence).padStart(8, '0')}`,
    client_order_id: String(sequence).padStart(6, '0'),
    email: `buyer${sequence}@example.com`,
    service_slug: overrides.service_slug ?? 'instagram-followers',
    service_name: 'Instagram Followers',
    plan_type: 'Standard',
    quantity: 100,
    target: 'someone',
    target_kind: 'instagram_username',
    comment: null,
    supplier_service_id: '1',
    price_e4: 12_900,
    amount_e4: overrides.amount_e4 ?? 12_900,
    currency: overrides.currency ?? '$',
    payment_status: overrides.payment_status ?? 'created',
    order_status: overrides.order_status ?? 'Pending',
    payment_id: overrides.paid_at ? `pay_${sequence}` : null,
    review_reason: null,
    error_message: null,
    created_at: overrides.created_at,
    updated_at: overrides.created_at,
    paid_at: overrides.paid_at ?? null,
    supplier_order_id: null,
    start_count: null,
    remains: null,
    supplier_charge_e4: null,
    status_synced_at: null,
    ...(overrides.refunded_e4 === undefined ? {} : { refunded_e4: overrides.refunded_e4 }),
    ...(overrides.needs_review === undefined ? {} : { needs_review: overrides.needs_review }),
  };
}

interface Recount {
  totals: Map<string, number[]>;
  delivery: Map<string, number[]>;
}

describe.each(dialects)('dashboard on %s', (dialect) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await openTestDatabase(dialect);
    await migrateToLatest(database.db);
  });
  afterEach(async () => {
    await database.dispose();
  });

  /** The definition of every total, recomputed from the orders themselves. */
  async function recount(): Promise<Recount> {
    const orders = await database.db.selectFrom('orders').selectAll().execute();
    const totals = new Map<string, number[]>();
    const delivery = new Map<string, number[]>();
    const add = (map: Map<string, number[]>, key: string, values: number[]) => {
      const current = map.get(key) ?? values.map(() => 0);
      map.set(
        key,
        current.map((value, i) => value + (values[i] ?? 0)),
      );
    };
    for (const o of orders) {
      add(totals, `${o.created_at.slice(0, 10)} ${o.currency}`, [1, o.paid_at ? 1 : 0, 0, 0, 0, 0]);
      if (o.paid_at) add(totals, `${o.paid_at.slice(0, 10)} ${o.currency}`, [0, 0, 1, o.amount_e4, 0, 0]);
      if (o.refunded_at) add(totals, `${o.refunded_at.slice(0, 10)} ${o.currency}`, [0, 0, 0, 0, 1, o.refunded_e4]);
      if (o.completed_at && o.paid_at) {
        const seconds = Math.round((Date.parse(o.completed_at) - Date.parse(o.paid_at)) / 1000);
        add(delivery, `${o.completed_at.slice(0, 10)} ${o.service_slug}`, [1, seconds]);
      }
    }
    const nonZero = (map: Map<string, number[]>) =>
      new Map([...map].filter(([, values]) => values.some((v) => v !== 0)).sort(([a], [b]) => a.localeCompare(b)));
    return { totals: nonZero(totals), delivery: nonZero(delivery) };
  }

  async function stored(): Promise<Recount> {
    const totals = await database.db.selectFrom('order_daily_totals').selectAll().orderBy('day').execute();
    const delivery = await database.db.selectFrom('service_delivery_daily').selectAll().execute();
    const keep = (entries: [string, number[]][]) =>
      new Map(entries.filter(([, values]) => values.some((v) => v !== 0)).sort(([a], [b]) => a.localeCompare(b)));
    return {
      totals: keep(
        totals.map((r) => [
          `${r.day} ${r.currency}`,
          [r.checkouts, r.converted, r.paid, r.revenue_e4, r.refunds, r.refunded_e4].map(Number),
        ]),
      ),
      delivery: keep(
        delivery.map((r) => [`${r.day} ${r.service_slug}`, [Number(r.completed), Number(r.delivery_seconds)]]),
      ),
    };
  }

  it('keeps the daily totals equal to a recount through a random history of writes', async () => {
    const { db } = database;
    const rng = random(dialect === 'sqlite' ? 18 : 81);
    const ids: number[] = [];
    for (let step = 0; step < 160; step += 1) {
      const choice = ids.length < 5 ? 0 : rng.int(0, 9);
      const id = ids[rng.int(0, Math.max(0, ids.length - 1))];
      const when = at(rng.int(0, 40), rng.int(0, 23));
      if (choice <= 2 || id === undefined) {
        const paid = rng.next() < 0.4 ? at(rng.int(0, 40), rng.int(0, 23)) : null;
        const row = orderRow({
          created_at: when,
          currency: rng.next() < 0.8 ? '$' : '₹',
          service_slug: rng.next() < 0.5 ? 'instagram-followers' : 'tiktok-likes',
          amount_e4: rng.int(1, 500) * 100,
          ...(paid ? { paid_at: paid, payment_status: 'paid' as const } : {}),
          ...(paid && rng.next() < 0.3 ? { order_status: 'Completed' as const } : {}),
        });
        // A few inserted as already refunded, as the bench's seeding does.
        if (paid && rng.next() < 0.1) Object.assign(row, { refunded_e4: 100, order_status: 'Canceled' });
        const inserted = await db.insertInto('orders').values(row).returning('id').executeTakeFirstOrThrow();
        ids.push(inserted.id);
      } else if (choice === 3) {
        await db
          .updateTable('orders')
          .set({ paid_at: when, payment_status: 'paid', updated_at: when })
          .where('id', '=', id)
          .where('paid_at', 'is', null)
          .execute();
      } else if (choice === 4) {
        await db
          .updateTable('orders')
          .set({ order_status: 'Completed', updated_at: when })
          .where('id', '=', id)
          .execute();
      } else if (choice === 5) {
        await db
          .updateTable('orders')
          .set((eb) => ({ refunded_e4: eb('refunded_e4', '+', rng.int(1, 99) * 100), updated_at: when }))
          .where('id', '=', id)
          .execute();
      } else if (choice === 6) {
        // Edits that feed no total, and ones that move an order between currencies or services.
        await db
          .updateTable('orders')
          .set(
            rng.next() < 0.5
              ? { target: `t${step}`, updated_at: when }
              : { currency: '€', service_slug: 'youtube-views', amount_e4: rng.int(1, 90) * 100 },
          )
          .where('id', '=', id)
          .execute();
      } else if (choice === 7) {
        await db
          .updateTable('orders')
          .set({ order_status: 'In Progress', updated_at: when })
          .where('id', '=', id)
          .execute();
      } else if (choice === 8) {
        // Several rows in one statement (PostgreSQL's statement triggers see them together).
        await db
          .updateTable('orders')
          .set({ order_status: 'Completed', updated_at: when })
          .where('id', 'in', ids.slice(0, rng.int(1, 6)))
          .where('paid_at', 'is not', null)
          .execute();
      } else {
        await db.deleteFrom('orders').where('id', '=', id).execute();
        ids.splice(ids.indexOf(id), 1);
      }
    }
    const expected = await recount();
    expect(expected.totals.size).toBeGreaterThan(20);
    expect(expected.delivery.size).toBeGreaterThan(3);
    expect(await stored()).toEqual(expected);
  });

  it('sets completed_at and refunded_at once, at the change, and never moves them', async () => {
    const { db } = database;
    const row = orderRow({ created_at: at(5), paid_at: at(5, 11), payment_status: 'paid' });
    const { id } = await db.insertInto('orders').values(row).returning('id').executeTakeFirstOrThrow();
    await db
      .updateTable('orders')
      .set({ order_status: 'Completed', updated_at: at(3) })
      .where('id', '=', id)
      .execute();
    await db
      .updateTable('orders')
      .set({ refunded_e4: 500, updated_at: at(2) })
      .where('id', '=', id)
      .execute();
    await db
      .updateTable('orders')
      .set({ refunded_e4: 900, updated_at: at(1), target: 'changed' })
      .where('id', '=', id)
      .execute();
    const after = await db
      .selectFrom('orders')
      .select(['completed_at', 'refunded_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(after).toEqual({ completed_at: at(3), refunded_at: at(2) });
  });

  it('answers the figures for 7, 30 and 90 days, per currency, with every day present', async () => {
    const { db } = database;
    const group = await db
      .insertInto('service_groups')
      .values({ slug: 'instagram', title: 'Instagram', image: '', position: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('services')
      .values({
        group_id: group.id,
        slug: 'instagram-followers',
        name: 'Instagram Followers',
        title_html: '',
        description: '',
        image: '',
        target_kind: 'username',
        comment_required: 0,
        position: 1,
        published_at: null,
        period_days: null,
        posts_per_period: null,
        post_delay_minutes: null,
      })
      .execute();
    const rows = [
      orderRow({ created_at: at(0, 9), paid_at: at(0, 9), payment_status: 'paid', amount_e4: 12_900 }),
      orderRow({ created_at: at(0, 9) }),
      orderRow({ created_at: at(1, 9), paid_at: at(0, 8), payment_status: 'paid', amount_e4: 10_000 }),
      orderRow({
        created_at: at(20),
        paid_at: at(20, 11),
        payment_status: 'paid',
        amount_e4: 50_000,
        currency: '₹',
        order_status: 'Completed',
        needs_review: 1,
      }),
      orderRow({ created_at: at(100), paid_at: at(100), payment_status: 'paid', amount_e4: 99_000 }),
    ];
    const ids: number[] = [];
    for (const row of rows)
      ids.push((await db.insertInto('orders').values(row).returning('id').executeTakeFirstOrThrow()).id);
    const first = ids[0] ?? 0;
    await db
      .updateTable('orders')
      .set({ order_status: 'Completed', updated_at: at(0, 12) })
      .where('id', '=', first)
      .execute();
    await db
      .updateTable('orders')
      .set({ refunded_e4: 2_500, updated_at: at(0, 13) })
      .where('id', '=', first)
      .execute();
    await db
      .updateTable('orders')
      .set({ fulfilment_state: 'needs_review' })
      .where('id', '=', ids[1] ?? 0)
      .execute();

    const dashboard = createDashboard({ db, now: () => NOW });
    const week = await dashboard.figures(7);
    expect(week.from).toBe('2026-11-17');
    expect(week.to).toBe('2026-11-23');
    expect(week.series.map((s) => s.currency)).toEqual(['$']);
    const dollars = week.series[0];
    expect(dollars?.days).toHaveLength(7);
    expect(dollars?.days.at(-1)).toEqual({
      day: '2026-11-23',
      checkouts: 2,
      paidCheckouts: 1,
      payments: 2,
      revenue: 2.29,
      refunds: 1,
      refunded: 0.25,
    });
    expect(dollars?.days.at(-2)).toMatchObject({ day: '2026-11-22', checkouts: 1, paidCheckouts: 1, payments: 0 });
    expect(dollars?.totals).toEqual({
      checkouts: 3,
      paidCheckouts: 2,
      payments: 2,
      revenue: 2.29,
      refunds: 1,
      refunded: 0.25,
    });
    // The service by its catalogue name, the payment state in words: never a slug or a raw state.
    expect(week.delivery).toEqual([
      {
        serviceSlug: 'instagram-followers',
        serviceName: 'Instagram Followers',
        completed: 1,
        averageSeconds: 3 * 3600,
      },
    ]);
    expect(week.flaggedForReview).toBe(2);
    expect(week.statuses).toEqual(
      expect.arrayContaining([
        { orderStatus: 'Completed', paymentStatus: 'paid', paymentWords: 'Paid', count: 2 },
        { orderStatus: 'Pending', paymentStatus: 'created', paymentWords: 'Awaiting payment', count: 1 },
      ]),
    );

    const month = await dashboard.figures(30);
    expect(month.series.map((s) => [s.currency, s.totals.revenue])).toEqual([
      ['$', 2.29],
      ['₹', 5],
    ]);
    expect(month.delivery.map((d) => d.completed)).toEqual([2]);
    const quarter = await dashboard.figures(90);
    expect(quarter.series[0]?.days).toHaveLength(90);
    expect(quarter.series[0]?.totals.payments).toBe(2);
  });
});

describe('rangeDays', () => {
  it('ends with today (UTC) and crosses month ends', () => {
    expect(rangeDays(new Date('2026-03-02T23:59:00Z'), 3)).toEqual(['2026-02-28', '2026-03-01', '2026-03-02']);
  });
});
