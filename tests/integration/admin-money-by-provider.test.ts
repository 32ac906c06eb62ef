/**
 * The owner's money by payment provider, through the real app on each dialect: the dashboard's
 * figures per provider and method (payments, refunds, chargebacks, second payments to refund),
 * the orders list's provider filter, the method in words on its rows, the CSV's provider, method
 * and adjustment columns, and the indexes those reads walk (EXPLAIN of the very statements).
 *
 * Money arrives the real ways: sandbox orders paid through the API (card and crypto), and orders
 * paid through Razorpay by the payment transitions (an attempt, then markPaid, as the webhook and
 * the reconciler do), a second payment, a chargeback, refunds through requestRefund and through
 * the refund transitions.
 */
import { type RawBuilder, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrdersConsole } from '../../core/admin/orders-console.ts';
import { createOrdersSearch } from '../../core/admin/orders-search.ts';
import { providerMoneyQueries } from '../../core/admin/dashboard-money.ts';
import { catalogueSeed } from '../../core/catalogue/seed/catalogue-seed.ts';
import { requestRefund } from '../../core/orders/refunds.ts';
import {
  addPaymentAttempt,
  markPaid,
  recordDispute,
  reserveRefund,
  settleRefund,
} from '../../core/orders/transitions/index.ts';
import { seedAdmin } from '../support/admin-accounts.ts';
import { adminToken } from '../support/admin-session.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { type TestClock, createTestClock } from '../support/clock.ts';
import { dialects } from '../support/databases.ts';

const tiers = catalogueSeed.groups.flatMap((g) =>
  g.services.flatMap((s) => s.plans.flatMap((p) => p.tiers.map((t) => ({ service: s, plan: p, tier: t })))),
);
/** A package above the fee threshold, with a target checked by its shape only. */
const pack = tiers.find(
  (entry) =>
    !entry.service.commentRequired && entry.service.targetKind === 'instagram_username' && Number(entry.tier.price) > 5,
)!;

const DAY_MS = 86_400_000;

interface ProviderRow {
  provider: string;
  label: string;
  currency: string;
  payments: number;
  revenue: number;
  methods: { label: string; payments: number; revenue: number }[];
  refunds: number;
  refunded: number;
  disputes: number;
  disputed: number;
  toRefund: number;
  toRefundAmount: number;
}

/** A CSV body as rows of cells (every cell is quoted by the export). */
function parseCsv(body: string): string[][] {
  return body
    .trim()
    .split('\r\n')
    .map((line) => [...line.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => (m[1] ?? '').replaceAll('""', '"')));
}

describe.each(dialects)('money by payment provider on %s', (dialect) => {
  let t: TestApp;
  let clock: TestClock;
  let token: string;
  let clients = 0;
  const nextAddress = () => `10.31.${Math.floor(++clients / 250)}.${clients % 250}`;
  let sequence = 0;

  /** The orders, by what the test did with them. */
  const ids = { card: 0, crypto: 0, unpaid: 0, razorpay: 0, razorpayOld: 0 };
  let currency = '';
  const amountOf = async (orderId: number) =>
    Number(
      (await t.database.db.selectFrom('orders').select('amount_e4').where('id', '=', orderId).executeTakeFirstOrThrow())
        .amount_e4,
    ) / 10_000;

  const get = (url: string) =>
    t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` }, remoteAddress: nextAddress() });

  /** An order through the API, by the given method; returns its row id and reference. */
  async function createOrder(paymentMethod: string) {
    sequence += 1;
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/order',
      remoteAddress: nextAddress(),
      payload: {
        type: pack.plan.type,
        slug: pack.service.slug,
        qty: pack.tier.qty,
        name: `money.buyer${sequence}`,
        email: `money.buyer${sequence}@example.com`,
        order_id: String(310_000 + sequence),
        paymentMethod,
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const reference = created.json<{ data: { razorpay_order_id: string } }>().data.razorpay_order_id;
    const row = await t.database.db
      .selectFrom('orders')
      .select(['id', 'currency'])
      .where('provider_order_id', '=', reference)
      .executeTakeFirstOrThrow();
    currency = row.currency;
    return { id: row.id, reference };
  }

  /** Pays a sandbox order through the test-mode window's API, as the browser does. */
  async function paySandbox(reference: string) {
    const paid = await t.app.inject({
      method: 'POST',
      url: '/api/sandbox/pay',
      payload: { razorpay_order_id: reference },
      remoteAddress: nextAddress(),
    });
    expect(paid.statusCode, paid.body).toBe(200);
    const verified = await t.app.inject({
      method: 'POST',
      url: '/api/order/verify-payment',
      payload: paid.json<{ data: object }>().data,
      remoteAddress: nextAddress(),
    });
    expect(verified.statusCode, verified.body).toBe(200);
  }

  /**
   * An order paid through Razorpay: the buyer chose crypto first (the sandbox's attempt), then
   * paid by card at Razorpay, which the webhook reports for Razorpay's own order reference.
   */
  async function payThroughRazorpay(orderId: number, paymentId: string) {
    const reference = `order_rzp${orderId}x${dialect}`;
    const amount = await t.database.db
      .selectFrom('orders')
      .select('amount_e4')
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow();
    await addPaymentAttempt(t.database.db, {
      order_id: orderId,
      provider: 'razorpay',
      method: 'card',
      reference,
      amount_e4: Number(amount.amount_e4) + 500_00,
      adjustment_e4: 500_00,
      checkout_json: '{}',
      created_at: clock.now().toISOString(),
    });
    const paid = await t.database.db
      .transaction()
      .execute((trx) =>
        markPaid(trx, { provider: 'razorpay', reference, paymentId, source: 'webhook' }, { now: clock.now }),
      );
    expect(paid.outcome).toBe('paid');
    return reference;
  }

  beforeAll(async () => {
    clock = createTestClock();
    t = await startTestApp(dialect, { overrides: { clock: clock.now } });
    const credentials = { email: 'money.owner@example.com', password: 'a long enough owner password' };
    await seedAdmin(t.database.db, credentials.email, credentials.password, { verified: true });

    // 40 days ago: a Razorpay payment only the 90-day range holds.
    const old = await createOrder('crypto');
    ids.razorpayOld = old.id;
    await payThroughRazorpay(old.id, `pay_old${dialect}`);
    clock.advance(40 * DAY_MS);
    // Logged in now: a session does not last 40 days.
    token = await adminToken(t, credentials, nextAddress(), clock.now);

    const card = await createOrder('card');
    ids.card = card.id;
    await paySandbox(card.reference);
    const crypto = await createOrder('crypto');
    ids.crypto = crypto.id;
    await paySandbox(crypto.reference);
    ids.unpaid = (await createOrder('crypto')).id;

    const viaRazorpay = await createOrder('crypto');
    ids.razorpay = viaRazorpay.id;
    const reference = await payThroughRazorpay(viaRazorpay.id, `pay_first${dialect}`);
    // The buyer paid twice: the second payment is kept, to be refunded.
    const again = await t.database.db
      .transaction()
      .execute((trx) =>
        markPaid(
          trx,
          { provider: 'razorpay', reference, paymentId: `pay_second${dialect}`, source: 'webhook' },
          { now: clock.now },
        ),
      );
    expect(again.outcome).toBe('already-paid');
    const disputed = await t.database.db.transaction().execute((trx) =>
      recordDispute(
        trx,
        {
          provider: 'razorpay',
          reference,
          disputeId: `disp_${dialect}`,
          amountCents: 300,
          currency: 'USD',
          reason: 'fraudulent',
        },
        clock.now(),
      ),
    );
    expect(disputed).toBe(true);

    // A partial refund of the sandbox card order, the way the owner's refund asks for it.
    const refunded = await requestRefund(
      { db: t.database.db, gateways: t.store.gateways, now: clock.now },
      {
        orderId: card.id,
        amountE4: 20_000,
        reason: 'Part of it was not delivered',
        origin: 'owner',
        idempotencyKey: `money-refund-card-${dialect}`,
        requestedBy: credentials.email,
      },
    );
    expect(refunded.status).toBe('done');
    // A Razorpay refund the provider confirmed (by the refund transitions; no Razorpay keys here).
    const reserved = await reserveRefund(
      t.database.db,
      {
        orderId: viaRazorpay.id,
        amountE4: 10_000,
        reason: 'Goodwill',
        origin: 'owner',
        idempotencyKey: `money-refund-rzp-${dialect}`,
        requestedBy: credentials.email,
        wholeOnly: false,
      },
      clock.now().toISOString(),
    );
    if (reserved.outcome === 'refused') throw new Error(reserved.reason);
    expect(await settleRefund(t.database.db, reserved.refund.id, `rfnd_${dialect}`, clock.now().toISOString())).toBe(
      true,
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  async function byProvider(days: number): Promise<ProviderRow[]> {
    const reply = await get(`/api/admin/dashboard?days=${days}`);
    expect(reply.statusCode, reply.body).toBe(200);
    return reply.json<{ data: { byProvider: ProviderRow[] } }>().data.byProvider;
  }

  it('shows payments, refunds, chargebacks and second payments per provider and method, in words', async () => {
    const card = await amountOf(ids.card);
    const crypto = await amountOf(ids.crypto);
    const viaRazorpay = await amountOf(ids.razorpay);
    // The crypto discount (−5% by default) makes crypto the cheaper of the two sandbox payments.
    expect(crypto).toBeLessThan(card);

    const month = await byProvider(30);
    expect(month.map((row) => row.label)).toEqual(['Razorpay', 'Test payments']);
    const [razorpay, sandbox] = month;
    expect(sandbox).toEqual({
      provider: 'sandbox',
      label: 'Test payments',
      currency,
      payments: 2,
      revenue: Number((card + crypto).toFixed(4)),
      methods: [
        { label: 'Card', payments: 1, revenue: card },
        { label: 'Crypto', payments: 1, revenue: crypto },
      ],
      refunds: 1,
      refunded: 2,
      disputes: 0,
      disputed: 0,
      toRefund: 0,
      toRefundAmount: 0,
    });
    expect(razorpay).toEqual({
      provider: 'razorpay',
      label: 'Razorpay',
      currency,
      // The payment 40 days ago is outside the range.
      payments: 1,
      revenue: viaRazorpay,
      methods: [{ label: 'Card', payments: 1, revenue: viaRazorpay }],
      refunds: 1,
      refunded: 1,
      disputes: 1,
      disputed: 3,
      toRefund: 1,
      toRefundAmount: viaRazorpay,
    });

    const quarter = await byProvider(90);
    const old = await amountOf(ids.razorpayOld);
    expect(quarter.find((row) => row.provider === 'razorpay')).toMatchObject({
      payments: 2,
      revenue: Number((viaRazorpay + old).toFixed(4)),
    });
    // The week before the 40-day jump holds no money at all; second payments wait whatever the range.
    const week = await byProvider(7);
    expect(week.find((row) => row.provider === 'razorpay')).toMatchObject({ payments: 1, toRefund: 1 });
  });

  it('stops counting a second payment as waiting once its refund is asked for', async () => {
    const extra = await t.database.db
      .selectFrom('order_payments')
      .select(['id', 'amount_e4'])
      .where('order_id', '=', ids.razorpay)
      .where('role', '=', 'extra')
      .executeTakeFirstOrThrow();
    const reserved = await reserveRefund(
      t.database.db,
      {
        orderId: ids.razorpay,
        orderPaymentId: extra.id,
        amountE4: Number(extra.amount_e4),
        reason: 'Paid twice',
        origin: 'extra',
        idempotencyKey: `money-refund-extra-${dialect}`,
        requestedBy: null,
        wholeOnly: false,
      },
      clock.now().toISOString(),
    );
    expect(reserved.outcome).toBe('reserved');
    const razorpay = (await byProvider(30)).find((row) => row.provider === 'razorpay');
    expect(razorpay).toMatchObject({ toRefund: 0, toRefundAmount: 0, refunds: 1 });
  });

  it('filters the orders list by provider, names the method in words, and offers the providers that have orders', async () => {
    const list = async (query: string) => {
      const reply = await get(`/api/order/all-orders?${query}`);
      expect(reply.statusCode, reply.body).toBe(200);
      return reply.json<{
        data: {
          orderId: string;
          orderStatus: string;
          paymentStatus: string;
          paymentMethod: string;
          paymentProvider: string;
          methodAdjustment: number;
        }[];
        count: number;
        countExact: boolean;
        providers: { id: string; label: string }[];
      }>();
    };
    const all = await list('');
    expect(all.count).toBe(5);
    // The sandbox is configured; Razorpay has orders; Cryptomus and Solidgate have neither.
    expect(all.providers).toEqual([
      { id: 'sandbox', label: 'Test payments' },
      { id: 'razorpay', label: 'Razorpay' },
    ]);

    const razorpay = await list('provider=razorpay');
    expect(razorpay).toMatchObject({ count: 2, countExact: true });
    expect(razorpay.data.map((row) => [row.paymentProvider, row.paymentMethod, row.methodAdjustment])).toEqual([
      ['Razorpay', 'Card', 5],
      ['Razorpay', 'Card', 5],
    ]);
    const sandbox = await list('provider=sandbox');
    expect(sandbox.count).toBe(3);
    expect(sandbox.data.map((row) => row.paymentMethod)).toEqual(['Crypto', 'Crypto', 'Card']);
    expect(sandbox.data.find((row) => row.paymentMethod === 'Crypto')?.methodAdjustment).toBeLessThan(0);
    // With a status, and with a keyword: both narrow within the provider.
    const pendingHere = sandbox.data.filter((row) => row.orderStatus === 'Pending' || row.paymentStatus === 'created');
    expect(pendingHere.length).toBeGreaterThan(0);
    const pending = await list('provider=sandbox&status=Pending');
    expect(pending.data.map((row) => row.orderId)).toEqual(pendingHere.map((row) => row.orderId));
    expect((await list('provider=razorpay&status=Completed')).count).toBe(0);
    const keyword = await list('provider=razorpay&keyword=money.buyer');
    expect(keyword.count).toBe(2);
    expect((await list('provider=cryptomus')).count).toBe(0);
    // An empty provider is every provider, as browsers send empty fields.
    expect((await list('provider=')).count).toBe(5);

    const bad = await get('/api/order/all-orders?provider=paypal');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      isSuccessful: false,
      errors: [{ field: 'provider', message: expect.stringContaining('sandbox, razorpay, cryptomus, solidgate') }],
    });
  });

  it('pages a provider with more orders than it counts exactly, with an estimate flagged as one', async () => {
    const orders = createOrdersConsole({ db: t.database.db, limits: { statusScanLimit: 1 } });
    const first = await orders.list({ provider: 'sandbox', size: 2 });
    expect(first.rows).toHaveLength(2);
    expect(first.countExact).toBe(false);
    expect(first.count).toBeGreaterThanOrEqual(2);
    const second = await orders.list({ provider: 'sandbox', size: 2, page: 2 });
    // The last, partly filled page knows the exact count.
    expect(second).toMatchObject({ count: 3, countExact: true });
    expect(second.rows).toHaveLength(1);
    expect(new Set([...first.rows, ...second.rows].map((row) => row.orderId)).size).toBe(3);
  });

  it('exports the provider, the method in words and its adjustment in the CSV, for the filtered list', async () => {
    const reply = await get('/api/order/all-orders.csv?provider=razorpay');
    expect(reply.statusCode, reply.body).toBe(200);
    const [header, ...rows] = parseCsv(reply.body);
    // The order's kind closes the row (decision 057).
    expect(header?.slice(-4)).toEqual(['Payment provider', 'Payment method', 'Method adjustment', 'Kind']);
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.slice(-4, -1)).toEqual(['Razorpay', 'Card', '5']);
    const sandbox = parseCsv((await get('/api/order/all-orders.csv?provider=sandbox')).body).slice(1);
    expect(sandbox.map((row) => row.at(-3))).toEqual(['Crypto', 'Crypto', 'Card']);
    expect((await get('/api/order/all-orders.csv?provider=nobody')).statusCode).toBe(400);
  });

  it('reads each figure and the provider filter through their indexes', async () => {
    const { db } = t.database;
    /** The plan of a statement, as text, with sequential scans discouraged on PostgreSQL (the tables are tiny). */
    const planOf = async (statement: RawBuilder<unknown>): Promise<string> => {
      if (dialect === 'sqlite') {
        const { rows } = await sql<{ detail: string }>`explain query plan ${statement}`.execute(db);
        return rows.map((row) => row.detail).join('\n');
      }
      return db.transaction().execute(async (trx) => {
        await sql`set local enable_seqscan = off`.execute(trx);
        const { rows } = await sql<{ 'QUERY PLAN': string }>`explain ${statement}`.execute(trx);
        return rows.map((row) => row['QUERY PLAN']).join('\n');
      });
    };
    const queries = providerMoneyQueries('2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z');
    expect(await planOf(queries.payments)).toContain('order_payments_created');
    expect(await planOf(queries.refunds)).toContain('refunds_settled');
    expect(await planOf(queries.disputes)).toContain('payment_disputes_created');
    expect(await planOf(queries.waiting)).toContain('order_payments_extra');

    // The statement the list runs for a page of one provider's orders (orders-search.ts branchRows).
    const [branch] = createOrdersSearch({ db }).scopeOf(null, 'razorpay').branches;
    const plan = await planOf(sql`select id from orders where ${branch} order by created_at desc, id desc limit 20`);
    expect(plan).toContain('orders_provider_created');
    // SQLite walks the index in order (its rowid is the id): no sort of the provider's orders.
    if (dialect === 'sqlite') expect(plan).not.toContain('TEMP B-TREE');
  });
});
