/**
 * One customer's orders in the console and the team's internal note on an order, per dialect,
 * through the real app: the list filtered by e-mail (exact, case-blind) with that customer's
 * totals (orders, paid, refunded), the filter's index, the note's limits and audit entry, and
 * the note absent from everything a customer is sent or shown.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDER_NOTE_MAX_LENGTH, OrderDetailSchema, OrdersListReplySchema } from '../../core/admin/contracts.ts';
import { customerPageQueries, customerTotalsQueries } from '../../core/admin/orders-customer.ts';
import { auditActionWords } from '../../core/audit/action-words.ts';
import { catalogueSeed } from '../../core/catalogue/seed/catalogue-seed.ts';
import { isPostgres } from '../../db/dialect.ts';
import { type SmtpSink, startSmtpSink } from '../fakes/smtp.ts';
import { seedAdmin } from '../support/admin-accounts.ts';
import { adminToken } from '../support/admin-session.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';

const followers = catalogueSeed.groups[0].services[0];
const tier = followers.plans[0].tiers[0];
const PASSWORD = 'a long enough admin password';

let sequence = 740_000;
const next = () => (sequence += 1);
/** A mark no customer text could contain by chance. */
const SECRET = 'NOTE-7f3a: customer phoned, refund by hand <b>not html</b>';

describe.each(dialects)('one customer’s orders and internal notes on %s', (dialect) => {
  let t: TestApp;
  let smtp: SmtpSink;
  let owner = '';
  let support = '';

  beforeAll(async () => {
    smtp = await startSmtpSink();
    t = await startTestApp(dialect, {
      withPages: true,
      env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://shop.example' },
    });
    const ownerEmail = `owner-${dialect}@customer-orders.example`;
    const created = await seedAdmin(t.database.db, ownerEmail, PASSWORD, { verified: true });
    await t.database.db.updateTable('admins').set({ role: 'owner' }).where('id', '=', created.id).execute();
    owner = await adminToken(t, { email: ownerEmail, password: PASSWORD }, '10.171.0.1');
    const supportEmail = `support-${dialect}@customer-orders.example`;
    const supportAdmin = await seedAdmin(t.database.db, supportEmail, PASSWORD, { verified: true });
    await t.database.db.updateTable('admins').set({ role: 'support' }).where('id', '=', supportAdmin.id).execute();
    support = await adminToken(t, { email: supportEmail, password: PASSWORD }, '10.171.0.2');
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const address = (n: number) => `10.172.${Math.floor(n / 250) % 250}.${n % 250}`;
  const post = (url: string, payload: object, remoteAddress: string) =>
    t.app.inject({ method: 'POST', url, payload, remoteAddress });
  const admin = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: object, token = owner) =>
    t.app.inject({
      method,
      url,
      ...(payload ? { payload } : {}),
      headers: { authorization: `Bearer ${token}` },
      remoteAddress: token === owner ? '10.171.0.1' : '10.171.0.2',
    });

  /** An order placed by `email` as a buyer does; paid in the sandbox unless `pay` is false. */
  async function placeOrder(email: string, pay = true) {
    const n = next();
    const created = await post(
      '/api/order',
      { type: 'Standard', slug: followers.slug, qty: tier.qty, name: `customer.${n}`, email, order_id: String(n) },
      address(n),
    );
    expect(created.statusCode, created.body).toBe(200);
    const { razorpay_order_id: reference, orderId } = created.json<{
      data: { razorpay_order_id: string; orderId: string };
    }>().data;
    if (pay) {
      const paid = await post('/api/sandbox/pay', { razorpay_order_id: reference }, address(n));
      expect(paid.statusCode, paid.body).toBe(200);
      const verified = await post('/api/order/verify-payment', paid.json<{ data: object }>().data, address(n));
      expect(verified.statusCode, verified.body).toBe(200);
    }
    const row = await t.database.db
      .selectFrom('orders')
      .selectAll()
      .where('provider_order_id', '=', reference)
      .executeTakeFirstOrThrow();
    return { orderId, reference, row };
  }

  const list = async (query: string) => {
    const response = await admin('GET', `/api/order/all-orders?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return OrdersListReplySchema.parse(response.json());
  };

  it('lists every order of one e-mail, exactly and case-blind, with the orders, paid and refunded above', async () => {
    const email = `buyer.${dialect}.${Date.now().toString(36)}@example.com`;
    const first = await placeOrder(email);
    const second = await placeOrder(email);
    const unpaid = await placeOrder(email, false);
    // Another customer whose address contains this one's: an exact filter leaves it out.
    await placeOrder(`x${email}`);

    const refund = await admin('POST', `/api/admin/orders/${first.orderId}/refunds`, {
      amountCents: 100,
      reason: 'Part of the order was late',
      idempotencyKey: crypto.randomUUID(),
    });
    expect(refund.statusCode, refund.body).toBe(200);

    const reply = await list(`email=${encodeURIComponent(` ${email.toUpperCase()} `)}`);
    expect(reply.data.map((row) => row.razorPayOrderId).sort()).toEqual(
      [first.reference, second.reference, unpaid.reference].sort(),
    );
    expect(reply.count).toBe(3);
    expect(reply.countExact).toBe(true);
    const paidE4 = first.row.amount_e4 + second.row.amount_e4;
    expect(reply.customer).toEqual({
      email,
      orders: 3,
      money: [{ currency: first.row.currency, paid: paidE4 / 10_000, refunded: 1 }],
    });

    // The other filters still narrow the list; the totals stay the customer's.
    const one = await list(`email=${encodeURIComponent(email)}&keyword=${encodeURIComponent(unpaid.row.target)}`);
    expect(one.data.map((row) => row.razorPayOrderId)).toEqual([unpaid.reference]);
    expect(one.customer?.orders).toBe(3);
    expect((await list(`email=${encodeURIComponent(email)}&status=Completed`)).data).toEqual([]);
    const paged = await list(`email=${encodeURIComponent(email)}&size=2&page=2`);
    expect(paged.data).toHaveLength(1);
    expect(paged.totalPages).toBe(2);

    // The export follows the filter: the header and this customer's three orders.
    const csv = await admin('GET', `/api/order/all-orders.csv?email=${encodeURIComponent(email)}`);
    expect(csv.statusCode).toBe(200);
    const lines = csv.body.trim().split('\r\n');
    expect(lines).toHaveLength(4);
    for (const reference of [first.reference, second.reference, unpaid.reference])
      expect(lines.some((line) => line.includes(reference.replace(/^order_/, '')))).toBe(true);

    // Without the filter there are no customer totals; an address with no orders has zero.
    expect((await list('')).customer).toBeUndefined();
    const nobody = await list(`email=${encodeURIComponent(`nobody.${dialect}@example.com`)}`);
    expect(nobody.data).toEqual([]);
    expect(nobody.customer).toEqual({ email: `nobody.${dialect}@example.com`, orders: 0, money: [] });
  });

  it('refuses an e-mail filter longer than an address can be, in words', async () => {
    const response = await admin('GET', `/api/order/all-orders?email=${'a'.repeat(250)}%40example.com`);
    expect(response.statusCode).toBe(400);
    expect(response.json<{ isSuccessful: boolean }>().isSuccessful).toBe(false);
  });

  it('finds a customer’s orders and totals through the e-mail index, never a scan of the orders', async () => {
    const email = 'plan@example.com';
    const queries = customerTotalsQueries(email);
    const page = customerPageQueries(t.database.db, { email, condition: null, keyword: '' }, 20, 0);
    for (const statement of [page.page, page.count, queries.orders, queries.money]) {
      const compiled = statement.compile(t.database.db);
      // One bound value (the e-mail) in each, then the page's limit and offset, written in for EXPLAIN.
      const params = compiled.parameters.map((value) => (typeof value === 'string' ? `'${value}'` : String(value)));
      if (isPostgres(t.database.db)) {
        const text = compiled.sql.replace(/\$(\d+)/g, (_, i: string) => params[Number(i) - 1] ?? '');
        // A test table is tiny: the planner must be told off a sequential scan to show the index it would use.
        const { rows } = await t.database.db.transaction().execute(async (trx) => {
          await sql`set local enable_seqscan = off`.execute(trx);
          return sql<{ 'QUERY PLAN': string }>`explain ${sql.raw(text)}`.execute(trx);
        });
        expect(rows.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/orders_email_created_at/);
      } else {
        let i = 0;
        const text = compiled.sql.replace(/\?/g, () => params[i++] ?? '');
        const { rows } = await sql<{ detail: string }>`explain query plan ${sql.raw(text)}`.execute(t.database.db);
        const plan = rows.map((r) => r.detail).join('\n');
        expect(plan).toMatch(/USING (COVERING )?INDEX orders_email_created_at/);
        expect(plan).not.toMatch(/SCAN o\b|SCAN orders\b/);
      }
    }
  });

  it('keeps an owner’s or support admin’s note, trimmed and as text, audited in words', async () => {
    const { orderId, row } = await placeOrder(`note.${dialect}.${next()}@example.com`);
    const saved = await admin('PUT', `/api/order/note/${orderId}`, { note: `  ${SECRET}  ` }, support);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<{ data: { text: string } }>().data.text).toBe(SECRET);

    const detail = await admin('GET', `/api/order/detail/${orderId}`);
    expect(OrderDetailSchema.parse(detail.json<{ data: unknown }>().data).note?.text).toBe(SECRET);
    const stored = await t.database.db
      .selectFrom('order_notes')
      .selectAll()
      .where('order_id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(stored.body).toBe(SECRET);

    const audit = await t.database.db
      .selectFrom('admin_audit')
      .selectAll()
      .where('action', '=', 'order.note')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ target_type: 'order', target_id: orderId, outcome: 200 });
    expect(auditActionWords(audit.action)).toBe("Changed an order's internal note");
    expect(JSON.parse(audit.summary ?? '{}')).toMatchObject({ before: { note: '' }, after: { note: SECRET } });

    const tooLong = await admin('PUT', `/api/order/note/${orderId}`, { note: 'x'.repeat(ORDER_NOTE_MAX_LENGTH + 1) });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json<{ message: string }>().message).toContain(`at most ${ORDER_NOTE_MAX_LENGTH} characters`);
    const atLimit = await admin('PUT', `/api/order/note/${orderId}`, { note: 'y'.repeat(ORDER_NOTE_MAX_LENGTH) });
    expect(atLimit.statusCode).toBe(200);

    const cleared = await admin('PUT', `/api/order/note/${orderId}`, { note: '   ' });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json<{ data: unknown }>().data).toBeNull();
    const after = await admin('GET', `/api/order/detail/${orderId}`);
    expect(OrderDetailSchema.parse(after.json<{ data: unknown }>().data).note).toBeNull();

    expect((await admin('PUT', '/api/order/note/order_NoSuchOrder1', { note: 'x' })).statusCode).toBe(404);
    expect(
      (
        await t.app.inject({
          method: 'PUT',
          url: `/api/order/note/${orderId}`,
          payload: { note: 'no token' },
        })
      ).statusCode,
    ).toBe(401);
  });

  it('never shows the note to the customer: status API, confirmation, order history, e-mails', async () => {
    const email = `private.${dialect}.${next()}@example.com`;
    // Noted before the payment, so every e-mail of the order is written after the note exists.
    const { orderId, reference, row } = await placeOrder(email, false);
    expect((await admin('PUT', `/api/order/note/${orderId}`, { note: SECRET })).statusCode).toBe(200);
    const n = next();
    const paid = await post('/api/sandbox/pay', { razorpay_order_id: reference }, address(n));
    expect((await post('/api/order/verify-payment', paid.json<{ data: object }>().data, address(n))).statusCode).toBe(
      200,
    );
    const since = smtp.messages.length;
    expect(
      (
        await admin('POST', `/api/admin/orders/${orderId}/refunds`, {
          amountCents: 50,
          reason: 'Goodwill',
          idempotencyKey: crypto.randomUUID(),
        })
      ).statusCode,
    ).toBe(200);
    for (let round = 0; round < 5; round += 1) await t.store.worker.runOnce();
    const marker = 'NOTE-7f3a';

    const status = await t.app.inject({ method: 'GET', url: `/api/order/order-status?orderId=${orderId}` });
    expect(status.statusCode, status.body).toBe(200);
    expect(status.body).not.toContain(marker);

    const confirmation = await t.app.inject({ method: 'GET', url: `/order-confirm/${orderId}` });
    expect(confirmation.statusCode).toBe(200);
    expect(confirmation.body).not.toContain(marker);

    const askCode = await post('/api/order/order-history/code', { email }, '10.173.0.1');
    expect(askCode.statusCode, askCode.body).toBe(200);
    await t.store.worker.runOnce();
    const codeMail = await smtp.waitForMessage((m) => m.to === email && m.subject.includes('code'), 5_000);
    const code = /^\s*(\d{6})\s*$/m.exec(codeMail.text)?.[1];
    expect(code).toBeDefined();
    const history = await t.app.inject({
      method: 'PATCH',
      url: '/api/order/order-history',
      payload: { email, code },
      remoteAddress: '10.173.0.1',
    });
    expect(history.statusCode, history.body).toBe(200);
    expect(history.body).toContain(reference.replace(/^order_/, ''));
    expect(history.body).not.toContain(marker);

    // Every e-mail queued for the customer (receipt, refund…) and every one delivered.
    const mails = await t.database.db
      .selectFrom('jobs')
      .select('payload_json')
      .where('kind', '=', 'mail.send')
      .where('payload_json', 'like', `%${email}%`)
      .execute();
    expect(mails.length).toBeGreaterThanOrEqual(2);
    for (const mail of mails) expect(mail.payload_json).not.toContain(marker);
    const delivered = smtp.messages.filter((m) => m.to === email);
    expect(delivered.length).toBeGreaterThanOrEqual(1);
    for (const message of delivered) {
      expect(message.text).not.toContain(marker);
      expect(message.html ?? '').not.toContain(marker);
    }
    expect(smtp.messages.length).toBeGreaterThan(since);
    expect(row.email).toBe(email);
  });
});
