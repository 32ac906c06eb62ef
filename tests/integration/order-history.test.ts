/**
 * The customer's order history through the real app, on each dialect, with a real SMTP sink:
 * the e-mailed one-time code, the same reply whatever the address, the code's failure modes,
 * the rows in the spec's shape, the resend throttle, validation and the per-client limits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueSeed } from '../../core/catalogue/seed/catalogue-seed.ts';
import { type SmtpSink, startSmtpSink } from '../fakes/smtp.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { createTestClock } from '../support/clock.ts';
import { dialects } from '../support/databases.ts';

const followers = catalogueSeed.groups[0].services[0];
const standard = followers.plans[0];
const tier = standard.tiers[0];

const CODE_SENT =
  'We sent a 6-digit code to this address. Enter it to see the orders placed with it (if there are none, you will see an empty list). The code is valid for 10 minutes.';

let sequence = 300_000;
const nextClientId = () => String((sequence += 1));
let mailboxes = 0;
/** A fresh address per test: codes, throttles and orders never leak between tests. */
const freshEmail = (label: string) => `${label}.${Date.now().toString(36)}.${(mailboxes += 1)}@example.com`;

describe.each(dialects)('order history on %s', (dialect) => {
  let t: TestApp;
  let smtp: SmtpSink;
  /** The store's clock; tests only ever move it forward. */
  const clock = createTestClock();

  beforeAll(async () => {
    smtp = await startSmtpSink();
    t = await startTestApp(dialect, {
      env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://shop.example' },
      overrides: { clock: clock.now },
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  // Each call comes from its own address, so the per-client rate limits do not interfere.
  let clients = 0;
  const nextAddress = () => `10.1.${Math.floor(++clients / 250)}.${clients % 250}`;
  const call = (method: 'POST' | 'PATCH', url: string, payload: unknown, remoteAddress = nextAddress()) =>
    t.app.inject({ method, url, payload: payload as object, remoteAddress });
  const askCode = (email: unknown, from?: string) =>
    call('POST', '/api/order/order-history/code', email === undefined ? {} : { email }, from);
  const lookup = (email: unknown, code: unknown, from?: string) =>
    call('PATCH', '/api/order/order-history', { email, code }, from);

  /** Sends queued mail and returns the newest code e-mailed to `email` after `since` messages. */
  async function codeMailFor(email: string, since: number) {
    await t.store.worker.runOnce();
    const mail = await smtp.waitForMessage(
      (m) => smtp.messages.indexOf(m) >= since && m.to === email && m.subject.includes('code'),
      5_000,
    );
    const match = /^\s*(\d{6})\s*$/m.exec(mail.text);
    expect(match, `no code line in:\n${mail.text}`).not.toBeNull();
    return { mail, code: match![1] };
  }

  /** Asks for a code (expects 200) and reads it from the e-mail. */
  async function codeFor(email: string): Promise<string> {
    const since = smtp.messages.length;
    const response = await askCode(email);
    expect(response.statusCode, response.body).toBe(200);
    return (await codeMailFor(email.trim().toLowerCase(), since)).code;
  }

  /** An order through the API: created, then paid in the sandbox and verified, unless `pay` is false. */
  async function placeOrder(email: string, name: string, pay = true): Promise<string> {
    const created = await call('POST', '/api/order', {
      type: standard.type,
      slug: followers.slug,
      qty: tier.qty,
      name,
      email,
      order_id: nextClientId(),
    });
    expect(created.statusCode, created.body).toBe(200);
    const providerOrderId: string = created.json().data.razorpay_order_id;
    if (pay) {
      const paid = await call('POST', '/api/sandbox/pay', { razorpay_order_id: providerOrderId });
      expect(paid.statusCode, paid.body).toBe(200);
      const verified = await call('POST', '/api/order/verify-payment', paid.json().data);
      expect(verified.statusCode, verified.body).toBe(200);
    }
    return providerOrderId;
  }

  const setCreatedAt = (providerOrderId: string, iso: string) =>
    t.database.db
      .updateTable('orders')
      .set({ created_at: iso })
      .where('provider_order_id', '=', providerOrderId)
      .execute();

  describe('asking for a code', () => {
    it('e-mails a 6-digit code, and answers an address with orders exactly like one without', async () => {
      const buyer = freshEmail('has.orders');
      await placeOrder(buyer, 'history.buyer');
      const stranger = freshEmail('no.orders');

      const since = smtp.messages.length;
      const withOrders = await askCode(buyer.toUpperCase());
      const withoutOrders = await askCode(` ${stranger} `);
      for (const response of [withOrders, withoutOrders]) {
        expect(response.statusCode).toBe(200);
        expect(response.headers['cache-control']).toBe('private, no-store');
      }
      expect(withOrders.body).toBe(withoutOrders.body);
      expect(withOrders.json()).toEqual({ isSuccessful: true, message: CODE_SENT });

      for (const email of [buyer, stranger]) {
        const { mail, code } = await codeMailFor(email, since);
        expect(mail.subject).toBe('Your Boostly code');
        expect(mail.text).toContain('valid for 10 minutes');
        expect(mail.text).toContain('https://shop.example/client');
        expect(mail.html).toContain(code);
        // Only the code's HMAC is stored.
        const row = await t.database.db
          .selectFrom('one_time_codes')
          .selectAll()
          .where('subject', '=', email)
          .executeTakeFirstOrThrow();
        expect(row.purpose).toBe('order-history');
        expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
        expect(row.code_hash).not.toContain(code);
      }
    });

    it('throttles a resend with 429 and a message, and queues no second e-mail', async () => {
      const email = freshEmail('resend');
      expect((await askCode(email)).statusCode).toBe(200);
      const jobsBefore = await t.database.db.selectFrom('jobs').select('id').where('kind', '=', 'mail.send').execute();

      const again = await askCode(email);
      expect(again.statusCode).toBe(429);
      expect(again.headers['cache-control']).toBe('private, no-store');
      expect(again.json()).toEqual({
        isSuccessful: false,
        message: expect.stringMatching(/^Please wait \d+ seconds? before asking for a new code\.$/),
      });
      const seconds = Number(/\d+/.exec(again.json().message)![0]);
      expect(seconds).toBeGreaterThan(0);
      expect(seconds).toBeLessThanOrEqual(60);
      const jobsAfter = await t.database.db.selectFrom('jobs').select('id').where('kind', '=', 'mail.send').execute();
      expect(jobsAfter).toHaveLength(jobsBefore.length);
    });

    it.each([
      [undefined, 'Email is required'],
      ['', 'Email is required'],
      ['   ', 'Email is required'],
      ['not-an-email', 'Invalid email'],
      ['a@b', 'Invalid email'],
      [`${'x'.repeat(250)}@example.com`, 'Invalid email'],
    ])('answers %j with 400 %s', async (email, message) => {
      const response = await askCode(email);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ isSuccessful: false, message, errors: [{ field: 'email', message }] });
    });
  });

  describe('looking up orders', () => {
    it("returns only that address's orders, newest first, in the spec's shape; abandoned checkouts are left out", async () => {
      const email = freshEmail('lookup');
      const oldest = await placeOrder(email, 'history.buyer');
      const unpaid = await placeOrder(email, 'history.second', false);
      const abandoned = await placeOrder(email, 'history.abandoned', false);
      const newest = await placeOrder(email, 'history.third');
      const someoneElse = await placeOrder(freshEmail('other'), 'other.buyer');
      await setCreatedAt(oldest, '2030-01-01T10:00:00.000Z');
      await setCreatedAt(unpaid, '2030-01-02T10:00:00.000Z');
      await setCreatedAt(abandoned, '2030-01-03T10:00:00.000Z');
      await setCreatedAt(newest, '2030-01-04T10:00:00.000Z');
      await t.database.db
        .updateTable('orders')
        .set({ payment_status: 'expired' })
        .where('provider_order_id', '=', abandoned)
        .execute();
      // After the worker ran (it also submits paid orders to the supplier, which sets statuses).
      const code = await codeFor(email);
      await t.database.db
        .updateTable('orders')
        .set({ order_status: 'In Progress', error_message: 'Supplier is slow today' })
        .where('provider_order_id', '=', oldest)
        .execute();

      // The address is normalised the same way as when the code was asked for.
      const response = await lookup(`  ${email.toUpperCase()} `, code);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['cache-control']).toBe('private, no-store');
      const { isSuccessful, data } = response.json();
      expect(isSuccessful).toBe(true);
      expect(data.map((row: { razorPayOrderId: string }) => row.razorPayOrderId)).toEqual([newest, unpaid, oldest]);
      expect(data.map((row: { razorPayOrderId: string }) => row.razorPayOrderId)).not.toContain(someoneElse);

      const stored = await t.database.db
        .selectFrom('orders')
        .selectAll()
        .where('provider_order_id', '=', oldest)
        .executeTakeFirstOrThrow();
      expect(data[2]).toEqual({
        razorPayOrderId: oldest,
        serviceId: followers.slug,
        name: 'history.buyer',
        serviceName: followers.name,
        quantity: tier.qty,
        price: stored.amount_e4 / 10_000,
        packagePrice: stored.price_e4 / 10_000,
        refunded: 0,
        refundedAt: null,
        currency: 'USD',
        orderStatus: 'In Progress',
        paymentStatus: 'paid',
        orderDate: '2030-01-01T10:00:00.000Z',
        errorMessage: 'Supplier is slow today',
        email,
      });
      expect(data[2].price).toBe(Number(tier.price));
      expect(data[2].razorPayOrderId).toMatch(/^order_/);
      expect(data[1]).toMatchObject({
        paymentStatus: 'created',
        orderStatus: 'Pending',
        errorMessage: null,
        name: 'history.second',
      });
      expect(data[0]).toMatchObject({ paymentStatus: 'paid', name: 'history.third' });

      // A code works once.
      const replay = await lookup(email, code);
      expect(replay.statusCode).toBe(400);
      expect(replay.json()).toEqual({ isSuccessful: false, message: 'Ask for a code first.' });
    });

    it('answers an address without orders with an empty list', async () => {
      const email = freshEmail('empty');
      const response = await lookup(email, await codeFor(email));
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ isSuccessful: true, data: [] });
    });

    it('returns at most 200 orders, the newest', async () => {
      const email = freshEmail('many');
      const template = await t.database.db
        .selectFrom('orders')
        .selectAll()
        .where('provider_order_id', '=', await placeOrder(email, 'many.orders'))
        .executeTakeFirstOrThrow();
      const { id: _id, ...base } = template;
      const extra = Array.from({ length: 204 }, (_, i) => ({
        ...base,
        provider_order_id: `order_bulk${dialect}${Date.now().toString(36)}${i}`,
        client_order_id: String(900_000 + i),
        payment_id: null,
        created_at: new Date(Date.UTC(2031, 0, 1) + i * 60_000).toISOString(),
      }));
      await t.database.db.insertInto('orders').values(extra).execute();

      const response = await lookup(email, await codeFor(email));
      const { data } = response.json();
      expect(data).toHaveLength(200);
      expect(data[0].razorPayOrderId).toBe(extra[203].provider_order_id);
      expect(data[199].razorPayOrderId).toBe(extra[4].provider_order_id);
      const dates = data.map((row: { orderDate: string }) => row.orderDate);
      expect([...dates].sort().reverse()).toEqual(dates);
    });

    it("refuses a wrong code with 'Invalid code' and locks after 5 wrong guesses", async () => {
      const email = freshEmail('guesses');
      const code = await codeFor(email);
      const wrong = code === '000000' ? '111111' : '000000';
      const messages: string[] = [];
      for (let i = 0; i < 5; i += 1) {
        const response = await lookup(email, wrong);
        expect(response.statusCode).toBe(400);
        messages.push(response.json().message);
      }
      expect(messages).toEqual([
        'Invalid code',
        'Invalid code',
        'Invalid code',
        'Invalid code',
        'Too many wrong codes. Ask for a new one.',
      ]);
      const right = await lookup(email, code);
      expect(right.statusCode).toBe(400);
      expect(right.json()).toEqual({ isSuccessful: false, message: 'Too many wrong codes. Ask for a new one.' });
    });

    it("refuses an expired code with 'This code has expired. Ask for a new one.'", async () => {
      const email = freshEmail('expired');
      const code = await codeFor(email);
      // Ten minutes on, on the store's clock (which the codes service reads).
      clock.advance(10 * 60_000 + 1_000);
      const response = await lookup(email, code);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ isSuccessful: false, message: 'This code has expired. Ask for a new one.' });
    });

    it("answers 'Ask for a code first.' when no code was asked for", async () => {
      const response = await lookup(freshEmail('never.asked'), '123456');
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ isSuccessful: false, message: 'Ask for a code first.' });
    });

    it('a code for one address does not open another', async () => {
      const owner = freshEmail('owner');
      const victim = freshEmail('victim');
      await placeOrder(victim, 'victim.account');
      const code = await codeFor(owner);
      expect((await askCode(victim)).statusCode).toBe(200);
      const response = await lookup(victim, code);
      // Another address's code is a wrong guess (unless it happens to be the same 6 digits).
      expect(response.statusCode).toBe(400);
      expect(response.json().isSuccessful).toBe(false);
    });

    it.each([
      [{ email: '', code: '123456' }, 'Email is required', 'email'],
      [{ code: '123456' }, 'Email is required', 'email'],
      [{ email: 'nope', code: '123456' }, 'Invalid email', 'email'],
      [{ email: 'someone@example.com', code: '' }, 'Code is required', 'code'],
      [{ email: 'someone@example.com' }, 'Code is required', 'code'],
    ])('answers %j with 400 %s', async (body, message, field) => {
      const response = await call('PATCH', '/api/order/order-history', body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ isSuccessful: false, message, errors: [{ field, message }] });
    });
  });

  describe('rate limits per client', () => {
    it('allows 5 code requests a minute, then 429', async () => {
      const from = '192.0.2.10';
      const statuses: number[] = [];
      for (let i = 0; i < 5; i += 1) statuses.push((await askCode('not-an-email', from)).statusCode);
      expect(statuses).toEqual([400, 400, 400, 400, 400]);
      const limited = await askCode(freshEmail('limited'), from);
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['cache-control']).toBe('private, no-store');
      expect(limited.json()).toMatchObject({
        isSuccessful: false,
        message: expect.stringMatching(/^Too many requests/),
      });
    });

    it('allows 10 lookups a minute, then 429', async () => {
      const from = '192.0.2.11';
      const statuses: number[] = [];
      for (let i = 0; i < 10; i += 1) statuses.push((await lookup('not-an-email', '123456', from)).statusCode);
      expect(statuses.every((s) => s === 400)).toBe(true);
      const limited = await lookup(freshEmail('limited'), '123456', from);
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toMatchObject({
        isSuccessful: false,
        message: expect.stringMatching(/^Too many requests/),
      });
    });
  });
});
