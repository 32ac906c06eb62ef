/**
 * The input boundary (decision 017): no input gives a 500 or slips past it.
 *
 * - A NUL byte or a right-to-left override (U+202E) in any text field of the public endpoints
 *   and the admin search answers 400 in the envelope, naming the field (PostgreSQL refused NUL
 *   with a 500; SQLite's FTS5 search broke the CSV stream half-way).
 * - E-mail addresses follow one syntax: what is stored is what is mailed.
 * - payment-failed takes a reason code, never free text, and the CSV defuses formulas in every cell.
 * - TRACE, over-long path parameters and signed webhooks of an unexpected shape answer clean 4xx.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSV_HEADER } from '../../core/admin/orders-csv.ts';
import { createAdminSessions } from '../../core/auth/admin-sessions.ts';
import { catalogueSeed } from '../../core/catalogue/seed/catalogue-seed.ts';
import { hmacSha256Hex } from '../../core/payments/signatures.ts';
import { isEmail, normaliseEmail } from '../../core/email.ts';
import { FailureSchema } from '../../server/api/envelope.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';

const NUL = '\u0000';
const RLO = '\u202E';
const followers = catalogueSeed.groups[0].services[0];
const plan = followers.plans[0];
const tier = plan.tiers[0];
const WEBHOOK_SECRET = 'boundary-webhook-secret';

let sequence = 300_000;
const nextClientId = () => String((sequence += 1));

describe('the e-mail syntax', () => {
  it('accepts dot-atom addresses and refuses quotes, brackets, spaces, control and bidi characters', () => {
    for (const ok of [
      'jane.doe@example.com',
      "o'brien+tag@mail.example.co.uk",
      'a_b-c!#$%&*/=?^`{|}~@x.io',
      'x@xn--bcher-kva.example',
    ])
      expect(isEmail(ok), ok).toBe(true);
    for (const bad of [
      '"quoted"@example.com',
      'a<b@example.com',
      'a b@example.com',
      'a@exa mple.com',
      `a${NUL}@example.com`,
      `a${RLO}moc.elpmaxe@example.com`,
      'a@example.com\u2066',
      'a..b@example.com',
      '.a@example.com',
      'a.@example.com',
      'a@example',
      'a@-example.com',
      'a@example.c0m',
      'a@[127.0.0.1]',
      'a@b@example.com',
      `${'a'.repeat(65)}@example.com`,
      `a@${'b'.repeat(250)}.com`,
    ])
      expect(isEmail(bad), JSON.stringify(bad)).toBe(false);
    expect(normaliseEmail('  Jane.Doe@Example.COM ')).toBe('Jane.Doe@example.com');
  });
});

describe.each(dialects)('the input boundary on %s', (dialect) => {
  let t: TestApp;
  let token = '';
  let remote = 0;
  // Each request from its own loopback-like address, so the per-route rate limits stay out of the way.
  const nextAddress = () => `10.91.${Math.floor((remote += 1) / 250) % 250}.${remote % 250}`;
  const send = (
    method: 'GET' | 'POST' | 'PATCH',
    url: string,
    payload?: object,
    headers: Record<string, string> = {},
  ) => t.app.inject({ method, url, headers, remoteAddress: nextAddress(), ...(payload ? { payload } : {}) });
  const admin = (url: string) => send('GET', url, undefined, { authorization: `Bearer ${token}` });

  async function createOrder(overrides: Record<string, unknown> = {}) {
    return send('POST', '/api/order', {
      type: plan.type,
      slug: followers.slug,
      qty: tier.qty,
      name: 'boundary_buyer',
      email: 'boundary.buyer@example.com',
      order_id: nextClientId(),
      ...overrides,
    });
  }

  beforeAll(async () => {
    t = await startTestApp(dialect);
    const { id } = await t.store.adminAuth.createAdmin('boundary.admin@example.com', 'a long enough admin password');
    await t.database.db.updateTable('admins').set({ is_verified: 1 }).where('id', '=', id).execute();
    token = (await createAdminSessions({ db: t.database.db, now: () => new Date() }).issue(id, new Date())).token;
  });
  afterAll(async () => {
    await t?.close();
  });

  function expectRefused(response: { statusCode: number; json(): unknown }, field: string) {
    expect(response.statusCode).toBe(400);
    const body = response.json() as { isSuccessful: boolean; errors?: { field: string }[] };
    expect(body.isSuccessful).toBe(false);
    expect(body.errors?.map((error) => error.field)).toContain(field);
  }

  describe.each([
    ['NUL', NUL],
    ['U+202E', RLO],
  ])('a %s in a text field', (_name, bad) => {
    it('is refused with 400 by login, verify-otp and both order-history calls', async () => {
      expectRefused(await send('POST', '/api/auth/login', { email: `a${bad}@example.com`, password: 'x' }), 'email');
      expectRefused(
        await send('POST', '/api/auth/login', { email: 'boundary.admin@example.com', password: `pw${bad}` }),
        'password',
      );
      expectRefused(
        await send('POST', '/api/auth/verify-otp', { email: `a${bad}@example.com`, otp: '123456' }),
        'email',
      );
      expectRefused(await send('POST', '/api/auth/verify-otp', { email: 'a@example.com', otp: `12345${bad}6` }), 'otp');
      expectRefused(await send('POST', '/api/order/order-history/code', { email: `a${bad}@example.com` }), 'email');
      expectRefused(
        await send('PATCH', '/api/order/order-history', { email: `a${bad}@example.com`, code: '123456' }),
        'email',
      );
    });

    it('is refused with 400 by order creation, status, payment and sandbox calls', async () => {
      expectRefused(await createOrder({ name: `buyer${bad}` }), 'name');
      expectRefused(await createOrder({ email: `buyer${bad}@example.com` }), 'email');
      expectRefused(await createOrder({ comment: `hello${bad}` }), 'comment');
      expectRefused(await createOrder({ slug: `${followers.slug}${bad}` }), 'slug');
      expectRefused(await send('GET', `/api/order/order-status?orderId=${encodeURIComponent(`abc${bad}`)}`), 'orderId');
      const orderId = `order_x${bad}`;
      expectRefused(await send('POST', '/api/sandbox/pay', { razorpay_order_id: orderId }), 'razorpay_order_id');
      expectRefused(await send('POST', '/api/sandbox/fail', { razorpay_order_id: orderId }), 'razorpay_order_id');
      expectRefused(
        await send('POST', '/api/order/payment-failed', { razorpay_order_id: orderId }),
        'razorpay_order_id',
      );
      expectRefused(
        await send('POST', '/api/order/verify-payment', {
          razorpay_order_id: 'order_x',
          razorpay_payment_id: `pay_x${bad}`,
          razorpay_signature: 'ab',
        }),
        'razorpay_payment_id',
      );
      // Keys are checked too, nested ones included.
      expectRefused(await createOrder({ [`extra${bad}`]: { deeper: 1 } }), `extra${bad}`);
    });

    it('is refused with 400 by the admin search and its CSV export, before any row is streamed', async () => {
      const keyword = encodeURIComponent(`a${bad}b`);
      expectRefused(await admin(`/api/order/all-orders?keyword=${keyword}`), 'keyword');
      const csv = await admin(`/api/order/all-orders.csv?keyword=${keyword}`);
      expectRefused(csv, 'keyword');
      expect(csv.headers['content-type']).toMatch(/^application\/json/);
      expectRefused(await admin(`/api/order/detail/${encodeURIComponent(`x${bad}`)}`), 'orderId');
    });
  });

  it('keeps line breaks and tabs in the comment (a textarea) and refuses them in single-line fields', async () => {
    expectRefused(await createOrder({ name: 'two\nlines' }), 'name');
    expectRefused(await createOrder({ email: 'a\t@example.com' }), 'email');
    const commented = catalogueSeed.groups
      .flatMap((group) => group.services)
      .find((service) => service.commentRequired && service.targetKind.startsWith('instagram'));
    if (!commented) throw new Error('the catalogue has no Instagram service that takes a comment');
    const commentPlan = commented.plans[0];
    const created = await createOrder({
      slug: commented.slug,
      type: commentPlan.type,
      qty: commentPlan.tiers[0].qty,
      name:
        commented.targetKind === 'instagram_username' ? 'boundary_buyer' : 'https://www.instagram.com/p/Cb0undary1/',
      comment: 'first line\n\tsecond line',
    });
    expect(created.statusCode, created.body).toBe(200);
  });

  it('stores the address exactly as it is mailed and refuses the ones a mailer would read differently', async () => {
    for (const email of [
      '"a b"@example.com',
      'a<b@example.com',
      'x@example.com>, y@evil.example',
      'a@example.com\u2066',
    ])
      expectRefused(await createOrder({ email }), 'email');
    const created = await createOrder({ email: '  Mixed.Case+Tag@Example.COM ' });
    expect(created.statusCode, created.body).toBe(200);
    const { razorpay_order_id } = created.json<{ data: { razorpay_order_id: string } }>().data;
    const row = await t.database.db
      .selectFrom('orders')
      .select('email')
      .where('provider_order_id', '=', razorpay_order_id)
      .executeTakeFirstOrThrow();
    expect(row.email).toBe('mixed.case+tag@example.com');
    expect(isEmail(row.email)).toBe(true);
  });

  it('takes a reason code at payment-failed, records its fixed sentence, and the CSV defuses every cell', async () => {
    // A valid address may start with = + or - (RFC 5322 atext): the CSV must defuse it.
    const created = await createOrder({ email: '=2+5+csvcheck@example.com' });
    expect(created.statusCode, created.body).toBe(200);
    const { razorpay_order_id } = created.json<{ data: { razorpay_order_id: string } }>().data;

    const freeText = await send('POST', '/api/order/payment-failed', {
      razorpay_order_id,
      reason: '=cmd|" /C calc"!A0',
    });
    expectRefused(freeText, 'reason');
    const recorded = await send('POST', '/api/order/payment-failed', { razorpay_order_id, reason: 'card_declined' });
    expect(recorded.statusCode, recorded.body).toBe(200);
    const row = await t.database.db
      .selectFrom('orders')
      .select(['error_message', 'payment_status'])
      .where('provider_order_id', '=', razorpay_order_id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ payment_status: 'fail', error_message: 'Card declined' });

    const csv = await admin('/api/order/all-orders.csv?keyword=csvcheck%40example.com');
    expect(csv.statusCode).toBe(200);
    const lines = csv.body.split('\r\n').filter(Boolean);
    expect(lines[0]).toBe(CSV_HEADER.map((cell) => `"${cell}"`).join(','));
    expect(lines).toHaveLength(2);
    // Every cell quoted; the address's formula start is behind a quote mark inside its cell.
    expect(lines[1]).toMatch(/^"([^"]|"")*"(,"([^"]|"")*")*$/);
    expect(lines[1]).toContain(`"'=2+5+csvcheck@example.com"`);
    expect(lines[1]).toContain('"Card declined"');
  });

  it('answers TRACE with 405 and over-long path parameters with a 4xx, all in the envelope', async () => {
    for (const url of ['/', '/order/instagram-followers', '/api/services']) {
      const response = await t.app.inject({ method: 'TRACE', url });
      expect(response.statusCode, url).toBe(405);
      expect(FailureSchema.safeParse(response.json()).success, url).toBe(true);
    }
    const longSlug = await send('GET', `/api/services/${'x'.repeat(300)}`);
    expectRefused(longSlug, 'slug');
    const longOrderId = await admin(`/api/order/detail/${'x'.repeat(300)}`);
    expectRefused(longOrderId, 'orderId');
    for (const url of [`/api/services/${'x'.repeat(5000)}`, `/api/${'x'.repeat(5000)}`]) {
      const huge = await send('GET', url);
      expect(huge.statusCode).toBe(404);
      expect(huge.headers['content-type']).toMatch(/^application\/json/);
      expect(FailureSchema.safeParse(huge.json()).success).toBe(true);
    }
  });
});

describe.each(dialects)('Razorpay webhooks on %s', (dialect) => {
  let razorpayApp: TestApp;

  beforeAll(async () => {
    razorpayApp = await startTestApp(dialect, {
      env: {
        RAZORPAY_KEY_ID: 'rzp_test_boundary',
        RAZORPAY_KEY_SECRET: 'boundary-key-secret',
        RAZORPAY_WEBHOOK_SECRET: WEBHOOK_SECRET,
        // Never called: webhooks are answered from the signed body alone.
        RAZORPAY_API_URL: 'http://127.0.0.1:9',
      },
    });
  });
  afterAll(async () => {
    await razorpayApp?.close();
  });

  it('refuses a correctly signed webhook of an unexpected shape with 400', async () => {
    const signed = (body: string) =>
      razorpayApp.app.inject({
        method: 'POST',
        url: '/api/payments/razorpay/webhook',
        payload: body,
        headers: { 'content-type': 'application/json', 'x-razorpay-signature': hmacSha256Hex(WEBHOOK_SECRET, body) },
      });
    for (const body of [
      'null',
      '[]',
      '"text"',
      '{}',
      '{"event":42}',
      '{"event":"payment.captured","payload":{"payment":{"entity":{"order_id":123}}}}',
      '{"event":"payment.captured","payload":{"payment":{"entity":{"id":"pay_1","order_id":"order_1","amount":"100"}}}}',
      '{"event":"order.paid","payload":{"order":{"entity":{"id":["x"]}}}}',
      `{"event":"payment.captured","payload":{"payment":{"entity":{"id":"pay_1","order_id":"order_\\u0000"}}}}`,
    ]) {
      const response = await signed(body);
      expect(response.statusCode, body).toBe(400);
      expect(FailureSchema.safeParse(response.json()).success, body).toBe(true);
    }
    // Razorpay's nulls are read as absent: a well-formed event for an unknown order is still processed.
    const fine = await signed(
      '{"event":"payment.failed","payload":{"payment":{"entity":{"id":"pay_2","order_id":null,"error_description":null}}}}',
    );
    expect(fine.statusCode, fine.body).toBe(200);
  });
});
