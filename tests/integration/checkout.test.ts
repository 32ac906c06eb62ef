/**
 * Checkout end to end through the real app, on each dialect, against a local fake of Razorpay's
 * API, a fake oEmbed upstream and a real SMTP server: order creation, payment verification,
 * webhooks, reconciliation, the receipt, and the exactly-once rules.
 */
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { offerRecurringJobs } from '../../core/jobs/recurring.ts';
import {
  ABANDONED_AFTER_MS,
  PAYMENT_RECONCILE_JOB,
  RECONCILE_AFTER_MS,
  UNATTEMPTED_EXPIRY_MS,
} from '../../core/orders/reconcile.ts';
import { createTargetVerifier } from '../../core/verification/verifier.ts';
import { catalogueSeed } from '../../core/catalogue/seed/catalogue-seed.ts';
import { KNOWN_YOUTUBE_ID, UNKNOWN_YOUTUBE_ID, startFakeOembed } from '../fakes/oembed.ts';
import { type FakeRazorpay, startFakeRazorpay } from '../fakes/razorpay.ts';
import { type SmtpSink, startSmtpSink } from '../fakes/smtp.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { createTestClock } from '../support/clock.ts';
import { dialects } from '../support/databases.ts';
import { orderByReference } from '../support/order-reference.ts';

const keys = {
  keyId: 'rzp_test_boostly',
  keySecret: 'key-secret-for-tests',
  webhookSecret: 'webhook-secret-for-tests',
};
const followers = catalogueSeed.groups[0].services[0];
const standard = followers.plans[0];
const tier = standard.tiers[0];
/** A tier priced at 1 or less, to check the spec's +1 rule. */
const cheap = catalogueSeed.groups
  .flatMap((g) =>
    g.services.flatMap((s) => s.plans.flatMap((p) => p.tiers.map((t) => ({ service: s, plan: p, tier: t })))),
  )
  .find(
    ({ tier: t, service }) =>
      Number(t.price) <= 1 && !service.commentRequired && service.targetKind.startsWith('instagram'),
  )!;

let sequence = 100_000;
const nextClientId = () => String((sequence += 1));

describe.each(dialects)('checkout on %s', (dialect) => {
  let t: TestApp;
  let razorpay: FakeRazorpay;
  let smtp: SmtpSink;
  let oembed: Awaited<ReturnType<typeof startFakeOembed>>;

  beforeAll(async () => {
    razorpay = await startFakeRazorpay(keys);
    smtp = await startSmtpSink();
    oembed = await startFakeOembed();
    t = await startTestApp(dialect, {
      env: {
        RAZORPAY_KEY_ID: keys.keyId,
        RAZORPAY_KEY_SECRET: keys.keySecret,
        RAZORPAY_WEBHOOK_SECRET: keys.webhookSecret,
        RAZORPAY_API_URL: razorpay.url,
        SMTP_URL: smtp.url,
        PUBLIC_URL: 'https://shop.example',
      },
      overrides: {
        verifier: createTargetVerifier({
          fetch,
          timeoutMs: 500,
          oembedBase: { youtube: oembed.youtubeBase, tiktok: oembed.tiktokBase },
        }),
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([razorpay?.close(), smtp?.close(), oembed?.close()]);
  });
  beforeEach(() => {
    razorpay.setMode('normal');
    oembed.setMode('normal');
  });

  // Each call comes from its own address, so the per-client rate limits do not interfere.
  let clients = 0;
  const nextAddress = () => `10.0.${Math.floor(++clients / 250)}.${clients % 250}`;
  const post = (url: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url, payload: payload as object, remoteAddress: nextAddress() });
  const createOrder = async (overrides: Record<string, unknown> = {}) => {
    const response = await post('/api/order', {
      type: standard.type,
      slug: followers.slug,
      qty: tier.qty,
      name: 'boostly.test',
      email: 'Buyer@Example.com',
      amount: Number(tier.price),
      currency: 'USD',
      order_id: nextClientId(),
      ...overrides,
    });
    return response;
  };
  const orderRow = (reference: string) => orderByReference(t.database.db, reference);
  const events = async (providerOrderId: string) => {
    const order = await orderRow(providerOrderId);
    return t.database.db
      .selectFrom('order_events')
      .select(['kind'])
      .where('order_id', '=', order.id)
      .orderBy('id')
      .execute();
  };
  const jobsByKey = async (providerOrderId: string, key: (id: number) => string) => {
    const order = await orderRow(providerOrderId);
    return t.database.db.selectFrom('jobs').selectAll().where('dedupe_key', '=', key(order.id)).execute();
  };
  const receiptJobs = (providerOrderId: string) => jobsByKey(providerOrderId, (id) => `receipt:${id}`);
  const fulfilJobs = (providerOrderId: string) => jobsByKey(providerOrderId, (id) => `fulfil:${id}`);
  /** The outbox entry of the paid transition (core/orders/events.ts). */
  const paidEvents = (providerOrderId: string) => jobsByKey(providerOrderId, (id) => `event:order.paid:${id}`);
  /** Runs jobs until none is due: the paid event, then what its subscribers enqueued. */
  const drainJobs = async () => {
    while ((await t.store.worker.runOnce()) > 0) {
      // keep going until nothing is due
    }
  };
  const paidOrder = async (overrides: Record<string, unknown> = {}) => {
    const created = (await createOrder(overrides)).json().data;
    const { handlerResult, payment } = razorpay.pay(created.checkout.order_id);
    return { created, handlerResult, payment };
  };

  describe('form detail', () => {
    it('describes the package and its form fields', async () => {
      const response = await post('/api/order/form-detail', { slug: followers.slug, qty: tier.qty, type: 'standard' });
      expect(response.statusCode).toBe(200);
      const { data } = response.json();
      expect(data.fields[0]).toEqual({
        title: 'Instagram Username',
        placeholder: expect.any(String),
        icon: expect.any(String),
      });
      expect(data.fields[1].title).toBe('Email');
      expect(data.fields[2].list.map((p: { qty: number }) => p.qty)).toEqual(standard.tiers.map((x) => x.qty));
      expect(data.fields).toHaveLength(3);
      expect(data.selected.price).toBe(Number(tier.price));
    });

    it('adds the comment field when the service has one', async () => {
      const comments = catalogueSeed.groups[0].services.find((s) => s.commentRequired)!;
      const { data } = (
        await post('/api/order/form-detail', {
          slug: comments.slug,
          qty: comments.plans[0].tiers[0].qty,
          type: comments.plans[0].type,
        })
      ).json();
      expect(data.fields).toHaveLength(4);
      expect(data.fields[3].title).toBe('Comments');
    });

    it.each([
      [{ slug: followers.slug, qty: tier.qty }, 400, 'Invalid URL parameters!'],
      [{ slug: '', qty: tier.qty, type: 'Standard' }, 400, 'Invalid URL parameters!'],
      [{ slug: 'no-such-service', qty: tier.qty, type: 'Standard' }, 404, 'Package details not available'],
      [{ slug: followers.slug, qty: tier.qty, type: 'Platinum' }, 404, 'Package details not available'],
      [{ slug: followers.slug, qty: 7, type: 'Standard' }, 404, 'Selected package not found'],
    ])('answers %j with %i %s', async (body, status, message) => {
      const response = await post('/api/order/form-detail', body);
      expect(response.statusCode).toBe(status);
      expect(response.json()).toEqual({ isSuccessful: false, message });
    });
  });

  describe('order creation', () => {
    it('prices the order from the catalogue and opens a Razorpay order in cents', async () => {
      const response = await createOrder();
      expect(response.statusCode).toBe(200);
      const { data } = response.json();
      expect(data).toMatchObject({
        currency: 'USD',
        serviceName: followers.name,
        email: 'buyer@example.com',
        amountCents: Math.round(Number(tier.price) * 100),
      });
      expect(data.razorpay_order_id).toMatch(/^order_/);
      expect(data.checkout).toMatchObject({
        provider: 'razorpay',
        key: keys.keyId,
        order_id: expect.stringMatching(/^order_/),
        amount: data.amountCents,
        currency: 'USD',
      });
      expect(razorpay.orders.get(data.checkout.order_id)?.amount).toBe(data.amountCents);
      expect(razorpay.requests.every((r) => r.authorized)).toBe(true);
      const row = await orderRow(data.razorpay_order_id);
      expect(row).toMatchObject({
        payment_status: 'created',
        order_status: 'Pending',
        quantity: tier.qty,
        target: 'boostly.test',
        needs_review: 0,
      });
      // "@Boostly.Test" is the same account: stored in its normal form, and a replay matches it.
      const typed = await createOrder({ name: '@Boostly.Test' });
      expect((await orderRow(typed.json().data.razorpay_order_id)).target).toBe('boostly.test');
      expect(row.supplier_service_id).toBe(tier.supplierServiceId);
      expect((await events(data.razorpay_order_id)).map((e) => e.kind)).toEqual(['order.created']);
    });

    it('adds 1 to prices of 1 or less', async () => {
      const name =
        cheap.service.targetKind === 'instagram_post_url' ? 'https://www.instagram.com/p/Cabc123/' : 'boostly.test';
      const response = await createOrder({
        slug: cheap.service.slug,
        type: cheap.plan.type,
        qty: cheap.tier.qty,
        amount: Number(cheap.tier.price) + 1,
        name,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().data.amountCents).toBe(Math.round((Number(cheap.tier.price) + 1) * 100));
    });

    it('rejects a client amount that disagrees with the catalogue', async () => {
      const response = await createOrder({ amount: 0.01 });
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toMatch(/price of this package has changed/);
    });

    it.each([
      [{ name: '' }, 'Name is required'],
      [{ email: '' }, 'Email is required'],
      [{ email: 'not-an-email' }, 'Invalid email format'],
      [{ qty: 7 }, 'Selected package not found'],
      [{ name: 'not a valid username!' }, 'Invalid Instagram input'],
    ])('rejects %j with "%s"', async (overrides, message) => {
      const before = await t.database.db.selectFrom('orders').select('id').execute();
      const response = await createOrder(overrides);
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
      expect(response.json().message).toBe(message);
      expect(await t.database.db.selectFrom('orders').select('id').execute()).toHaveLength(before.length);
    });

    it('requires a comment when the service has a comment field, and a YouTube URL on YouTube services', async () => {
      const comments = catalogueSeed.groups[0].services.find((s) => s.commentRequired)!;
      const plan = comments.plans[0];
      const response = await createOrder({
        slug: comments.slug,
        type: plan.type,
        qty: plan.tiers[0].qty,
        amount: undefined,
        name: 'https://www.instagram.com/p/Cabc123/',
      });
      expect(response.json().message).toBe('Comments is required');
      const youtube = catalogueSeed.groups[1].services[0];
      const yt = await createOrder({
        slug: youtube.slug,
        type: youtube.plans[0].type,
        qty: youtube.plans[0].tiers[0].qty,
        amount: undefined,
        name: ' ',
      });
      expect(yt.json().message).toBe('YouTube URL is required');
    });

    it('checks YouTube videos upstream: unknown is refused, an outage flags the order for review', async () => {
      const youtube = catalogueSeed.groups[1].services[0];
      const base = {
        slug: youtube.slug,
        type: youtube.plans[0].type,
        qty: youtube.plans[0].tiers[0].qty,
        amount: undefined,
      };
      const missing = await createOrder({ ...base, name: `https://youtu.be/${UNKNOWN_YOUTUBE_ID}` });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().message).toBe('Invalid YouTube URL');

      oembed.setMode('broken');
      const unchecked = await createOrder({ ...base, name: `https://youtu.be/${KNOWN_YOUTUBE_ID}` });
      expect(unchecked.statusCode).toBe(200);
      const row = await orderRow(unchecked.json().data.razorpay_order_id);
      expect(row.needs_review).toBe(1);
      expect(row.review_reason).toMatch(/could not be verified/);
    });

    it('makes one order of a double click (same client order id), never two', async () => {
      const clientId = nextClientId();
      const [a, b, c] = await Promise.all([
        createOrder({ order_id: clientId }),
        createOrder({ order_id: clientId }),
        createOrder({ order_id: clientId }),
      ]);
      const ids = new Set([a, b, c].map((r) => r.json().data.razorpay_order_id));
      expect(ids.size).toBe(1);
      const rows = await t.database.db
        .selectFrom('orders')
        .select('id')
        .where('client_order_id', 'like', `${clientId}%`)
        .execute();
      expect(rows).toHaveLength(1);
    });

    it('answers a form id reused with another target as a fresh order: nothing tells a stranger the address has ordered', async () => {
      const clientId = nextClientId();
      const first = await createOrder({ order_id: clientId });
      expect(first.statusCode, first.body).toBe(200);
      // A stranger who guesses the e-mail and the form id, with another target: the same answer as
      // for an address that never ordered, and a new order of its own (the first is untouched).
      const reused = await createOrder({ order_id: clientId, name: 'someone.else' });
      const fresh = await createOrder({ email: 'never.ordered@example.com', name: 'someone.else' });
      expect(reused.statusCode, reused.body).toBe(200);
      expect(reused.statusCode).toBe(fresh.statusCode);
      expect(Object.keys(reused.json<{ data: object }>().data).sort()).toEqual(
        Object.keys(fresh.json<{ data: object }>().data).sort(),
      );
      const firstId = first.json<{ data: { razorpay_order_id: string } }>().data.razorpay_order_id;
      expect(reused.json<{ data: { razorpay_order_id: string } }>().data.razorpay_order_id).not.toBe(firstId);
      // The first form sent again is still the first order, never a second charge.
      const again = await createOrder({ order_id: clientId });
      expect(again.json<{ data: { razorpay_order_id: string } }>().data.razorpay_order_id).toBe(firstId);
      const reusedAgain = await createOrder({ order_id: clientId, name: 'someone.else' });
      expect(reusedAgain.json<{ data: { razorpay_order_id: string } }>().data.razorpay_order_id).toBe(
        reused.json<{ data: { razorpay_order_id: string } }>().data.razorpay_order_id,
      );
    });

    it('limits order creation per client with a 429 and a message', async () => {
      const from = (n: number) =>
        t.app.inject({
          method: 'POST',
          url: '/api/order',
          payload: { type: 'Standard', slug: followers.slug, qty: tier.qty, name: '', email: '', order_id: String(n) },
          remoteAddress: '192.0.2.77',
        });
      const statuses = [];
      for (let i = 0; i < 21; i += 1) statuses.push((await from(i)).statusCode);
      expect(statuses.slice(0, 20).every((s) => s === 400)).toBe(true);
      const limited = await from(99);
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toMatchObject({
        isSuccessful: false,
        message: expect.stringMatching(/^Too many requests/),
      });
    });

    it('answers 502 and stores nothing when the payment provider is down', async () => {
      razorpay.setMode('down');
      const clientId = nextClientId();
      const response = await createOrder({ order_id: clientId });
      expect(response.statusCode).toBe(502);
      expect(response.json().message).toMatch(/payment service is not available/);
      expect(
        await t.database.db
          .selectFrom('orders')
          .select('id')
          .where('client_order_id', 'like', `${clientId}%`)
          .execute(),
      ).toHaveLength(0);
    });
  });

  describe('payment', () => {
    it('verifies the signature, marks the order paid once and e-mails a receipt', async () => {
      const { created, handlerResult } = await paidOrder();
      const response = await post('/api/order/verify-payment', handlerResult);
      expect(response.statusCode).toBe(200);
      const orderId = created.razorpay_order_id.replace(/^order_/, '');
      expect(response.json().data).toEqual({ orderId });
      expect((await orderRow(created.razorpay_order_id)).payment_status).toBe('paid');

      // A second verify-payment (retry, double click) changes nothing and still succeeds.
      const again = await post('/api/order/verify-payment', handlerResult);
      expect(again.statusCode).toBe(200);
      expect((await events(created.razorpay_order_id)).filter((e) => e.kind === 'payment.paid')).toHaveLength(1);
      // The payment only announced itself: one order.paid event, committed with the transition.
      expect(await paidEvents(created.razorpay_order_id)).toHaveLength(1);
      expect(await receiptJobs(created.razorpay_order_id)).toHaveLength(0);

      await drainJobs();
      expect(await receiptJobs(created.razorpay_order_id)).toHaveLength(1);
      const mail = await smtp.waitForMessage(
        (m) => m.to.includes('buyer@example.com') && m.subject.includes(orderId),
        5_000,
      );
      expect(mail.text).toContain(followers.name);
      expect(mail.text).toContain(`https://shop.example/order-confirm/${orderId}`);
      expect(mail.html).toContain('boostly.test');
      expect((await receiptJobs(created.razorpay_order_id))[0].status).toBe('done');

      const status = (await t.app.inject({ method: 'GET', url: `/api/order/order-status?orderId=${orderId}` })).json()
        .data;
      // The same worker runs also submitted the paid order to the (simulated) supplier panel.
      expect(status).toMatchObject({
        razorPayOrderId: created.razorpay_order_id,
        paymentStatus: 'paid',
        orderStatus: 'Processing',
        serviceName: followers.name,
      });
      expect((await orderRow(created.razorpay_order_id)).supplier_order_id).toMatch(/^\d+$/);
      expect(status.email).toBe('bu•••@e•••.com');
    });

    it('a retried order.paid event enqueues no second receipt or submission', async () => {
      // A link of its own: the earlier tests' orders still run on theirs, and the store sends one
      // order per link at a time (decision 057).
      const { created, handlerResult } = await paidOrder({ name: 'retried.event' });
      expect((await post('/api/order/verify-payment', handlerResult)).statusCode).toBe(200);
      const [event] = await paidEvents(created.razorpay_order_id);
      await drainJobs();
      // The event job runs again (a worker died after its subscribers' commit but before `done`).
      await t.database.db
        .updateTable('jobs')
        .set({ status: 'pending', run_at: new Date(0).toISOString(), locked_by: null, locked_until: null })
        .where('id', '=', event.id)
        .execute();
      await drainJobs();
      expect(await paidEvents(created.razorpay_order_id)).toMatchObject([{ status: 'done', attempts: 2 }]);
      expect(await receiptJobs(created.razorpay_order_id)).toMatchObject([{ status: 'done' }]);
      expect(await fulfilJobs(created.razorpay_order_id)).toMatchObject([{ status: 'done' }]);
      const order = await orderRow(created.razorpay_order_id);
      expect(
        await t.database.db.selectFrom('supplier_orders').select('id').where('order_id', '=', order.id).execute(),
      ).toHaveLength(1);
    });

    it('rejects a tampered signature or another order’s payment and leaves the order unchanged', async () => {
      const { created, handlerResult } = await paidOrder();
      const tampered = await post('/api/order/verify-payment', {
        ...handlerResult,
        razorpay_signature: handlerResult.razorpay_signature.replace(/.$/, (c) => (c === '0' ? '1' : '0')),
      });
      expect(tampered.statusCode).toBe(400);
      expect(tampered.json().message).toBe('Invalid payment signature');

      const other = (await createOrder()).json().data;
      const crossed = await post('/api/order/verify-payment', {
        ...handlerResult,
        razorpay_order_id: other.razorpay_order_id,
      });
      expect(crossed.statusCode).toBe(400);
      expect((await orderRow(created.razorpay_order_id)).payment_status).toBe('created');
      expect((await orderRow(other.razorpay_order_id)).payment_status).toBe('created');

      const garbage = await post('/api/order/verify-payment', {
        razorpay_order_id: created.razorpay_order_id,
        razorpay_payment_id: 'pay_x',
        razorpay_signature: 'zz',
      });
      expect(garbage.statusCode).toBe(400);
      const missing = await post('/api/order/verify-payment', { razorpay_order_id: created.razorpay_order_id });
      expect(missing.statusCode).toBe(400);
    });

    it('survives verify-payment and webhooks racing many times over: one paid transition, one receipt', async () => {
      for (let round = 0; round < 5; round += 1) {
        const { created, handlerResult, payment } = await paidOrder();
        const captured = razorpay.webhook('payment.captured', payment);
        const orderPaid = razorpay.webhook('order.paid', payment);
        const calls = [];
        for (let i = 0; i < 4; i += 1) {
          calls.push(post('/api/order/verify-payment', handlerResult));
          calls.push(
            t.app.inject({
              method: 'POST',
              url: '/api/payments/razorpay/webhook',
              payload: captured.body,
              headers: captured.headers,
            }),
          );
          calls.push(
            t.app.inject({
              method: 'POST',
              url: '/api/payments/razorpay/webhook',
              payload: orderPaid.body,
              headers: orderPaid.headers,
            }),
          );
        }
        const responses = await Promise.all(calls);
        expect(responses.map((r) => r.statusCode).every((s) => s === 200)).toBe(true);
        expect((await events(created.razorpay_order_id)).filter((e) => e.kind === 'payment.paid')).toHaveLength(1);
        expect(await paidEvents(created.razorpay_order_id)).toHaveLength(1);
        expect((await orderRow(created.razorpay_order_id)).payment_id).toBe(payment.id);
      }
    });

    it('rejects webhooks with a bad signature, a wrong amount or a wrong currency', async () => {
      const { created, payment } = await paidOrder();
      const hook = razorpay.webhook('payment.captured', payment);
      const badSignature = await t.app.inject({
        method: 'POST',
        url: '/api/payments/razorpay/webhook',
        payload: hook.body,
        headers: { ...hook.headers, 'x-razorpay-signature': '0'.repeat(64) },
      });
      expect(badSignature.statusCode).toBe(400);

      for (const overrides of [{ amount: payment.amount - 1 }, { currency: 'INR' }]) {
        const wrong = razorpay.webhook('payment.captured', payment, overrides);
        const response = await t.app.inject({
          method: 'POST',
          url: '/api/payments/razorpay/webhook',
          payload: wrong.body,
          headers: wrong.headers,
        });
        expect(response.statusCode).toBe(400);
      }
      expect((await orderRow(created.razorpay_order_id)).payment_status).toBe('created');

      // A rejected event is not remembered as seen: Razorpay's retry of a corrected one still counts.
      const good = razorpay.webhook('payment.captured', payment);
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url: '/api/payments/razorpay/webhook',
            payload: good.body,
            headers: good.headers,
          })
        ).statusCode,
      ).toBe(200);
      expect((await orderRow(created.razorpay_order_id)).payment_status).toBe('paid');
    });

    it('records a failed payment, and a late successful one still marks the order paid', async () => {
      const created = (await createOrder()).json().data;
      const failed = razorpay.pay(created.checkout.order_id, 'failed');
      const failHook = razorpay.webhook('payment.failed', failed.payment);
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/payments/razorpay/webhook',
        payload: failHook.body,
        headers: failHook.headers,
      });
      expect(response.statusCode).toBe(200);
      const replay = await t.app.inject({
        method: 'POST',
        url: '/api/payments/razorpay/webhook',
        payload: failHook.body,
        headers: failHook.headers,
      });
      expect(replay.json().data.result).toBe('duplicate');
      expect((await orderRow(created.razorpay_order_id)).payment_status).toBe('fail');
      const status = (
        await t.app.inject({ method: 'GET', url: `/api/order/order-status?orderId=${created.razorpay_order_id}` })
      ).json().data;
      expect(status.paymentStatus).toBe('fail');

      const late = razorpay.pay(created.checkout.order_id);
      expect((await post('/api/order/verify-payment', late.handlerResult)).statusCode).toBe(200);
      expect((await orderRow(created.razorpay_order_id)).payment_status).toBe('paid');
    });

    it('the reconciler finds payments whose window was closed and expires abandoned orders', async () => {
      const paid = await paidOrder();
      const abandoned = (await createOrder()).json().data;
      const old = (ms: number) => new Date(Date.now() - ms).toISOString();
      await t.database.db
        .updateTable('orders')
        .set({ created_at: old(3 * 60_000) })
        .where('provider_order_id', '=', paid.created.razorpay_order_id)
        .execute();
      await t.database.db
        .updateTable('orders')
        .set({ created_at: old(25 * 3_600_000) })
        .where('provider_order_id', '=', abandoned.razorpay_order_id)
        .execute();

      const result = await t.store.orders.reconcile();
      expect(result.paid).toBeGreaterThanOrEqual(1);
      expect(result.expired).toBeGreaterThanOrEqual(1);
      expect((await orderRow(paid.created.razorpay_order_id)).payment_status).toBe('paid');
      expect((await orderRow(abandoned.razorpay_order_id)).payment_status).toBe('expired');
      expect(await paidEvents(paid.created.razorpay_order_id)).toHaveLength(1);
      // Running it again finds nothing new to do for these two.
      await t.store.orders.reconcile();
      expect((await events(paid.created.razorpay_order_id)).filter((e) => e.kind === 'payment.paid')).toHaveLength(1);
    });

    it('answers order-status for unknown ids with 404', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/api/order/order-status?orderId=nope' });
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe('Order not found');
    });
  });
});

describe.each(dialects)('sandbox checkout on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  const post = (url: string, payload: unknown) => t.app.inject({ method: 'POST', url, payload: payload as object });
  const create = async () =>
    (
      await post('/api/order', {
        type: 'Standard',
        slug: followers.slug,
        qty: tier.qty,
        name: 'sandbox.buyer',
        email: 'sb@example.com',
        order_id: nextClientId(),
      })
    ).json().data;

  it('pays through the sandbox window with Razorpay-style signed fields', async () => {
    const created = await create();
    expect(created.checkout).toEqual({
      provider: 'sandbox',
      order_id: expect.stringMatching(/^sbx_/),
      amountCents: created.amountCents,
      currency: 'USD',
      methodLabel: 'Card',
    });
    const paid = (await post('/api/sandbox/pay', { razorpay_order_id: created.razorpay_order_id })).json().data;
    expect(paid.razorpay_signature).toMatch(/^[0-9a-f]{64}$/);
    const verified = await post('/api/order/verify-payment', paid);
    expect(verified.statusCode).toBe(200);
    expect((await post('/api/sandbox/pay', { razorpay_order_id: created.razorpay_order_id })).statusCode).toBe(409);
    const forged = await post('/api/order/verify-payment', { ...paid, razorpay_payment_id: 'pay_forged' });
    expect(forged.statusCode).toBe(400);
  });

  it('records a failed sandbox payment as fail', async () => {
    const created = await create();
    const failed = (await post('/api/sandbox/fail', { razorpay_order_id: created.razorpay_order_id })).json().data;
    const response = await post('/api/order/payment-failed', {
      razorpay_order_id: created.razorpay_order_id,
      razorpay_payment_id: failed.paymentId,
      reason: 'card_declined',
    });
    expect(response.statusCode).toBe(200);
    const status = (
      await t.app.inject({ method: 'GET', url: `/api/order/order-status?orderId=${response.json().data.orderId}` })
    ).json().data;
    expect(status.paymentStatus).toBe('fail');
  });

  it('refuses webhooks when no webhook secret is configured', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/payments/razorpay/webhook',
      payload: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(400);
  });
});

describe.each(dialects)('payment reconciler on %s', (dialect) => {
  let t: TestApp;
  let razorpay: FakeRazorpay;
  const clock = createTestClock();
  const logged: { level: number; msg: string; orderId?: number; reason?: string }[] = [];
  const logger = pino(
    { level: 'warn' },
    { write: (line: string) => void logged.push(JSON.parse(line) as (typeof logged)[number]) },
  );

  beforeAll(async () => {
    razorpay = await startFakeRazorpay(keys);
    t = await startTestApp(dialect, {
      env: { RAZORPAY_KEY_ID: keys.keyId, RAZORPAY_KEY_SECRET: keys.keySecret, RAZORPAY_API_URL: razorpay.url },
      overrides: { clock: clock.now, logger },
    });
  });
  afterAll(async () => {
    await t?.close();
    await razorpay?.close();
  });
  beforeEach(() => razorpay.setMode('normal'));

  let clients = 0;
  const createOrder = async () => {
    clients += 1;
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/order',
      remoteAddress: `10.9.${Math.floor(clients / 250)}.${clients % 250}`,
      payload: {
        type: standard.type,
        slug: followers.slug,
        qty: tier.qty,
        name: 'rotation.test',
        email: `buyer${clients}@example.com`,
        order_id: nextClientId(),
      },
    });
    expect(response.statusCode).toBe(200);
    // The reference the fake Razorpay knows the attempt by (orderRow finds the order by it).
    return response.json<{ data: { checkout: { order_id: string } } }>().data.checkout.order_id;
  };
  const orderRow = (reference: string) => orderByReference(t.database.db, reference);
  const statuses = async (ids: string[]) =>
    (await Promise.all(ids.map((id) => orderRow(id)))).map((row) => row.payment_status);

  it('500 abandoned checkouts cannot starve a paid order whose callback was lost', async () => {
    const abandoned: string[] = [];
    while (abandoned.length < 500) abandoned.push(...(await Promise.all(Array.from({ length: 20 }, createOrder))));
    // One buyer opened the window and was declined: an attempt, so the longer window applies.
    const declined = await createOrder();
    razorpay.pay(declined, 'failed');
    // The buyer paid, but the window's callback never reached us and there is no webhook.
    const paid = await createOrder();
    razorpay.pay(paid);

    clock.advance(RECONCILE_AFTER_MS + 60_000);
    let runs = 0;
    while ((await orderRow(paid)).payment_status !== 'paid' && runs < 2) {
      runs += 1;
      await t.store.orders.reconcile();
    }
    expect((await orderRow(paid)).payment_status).toBe('paid');
    expect(runs).toBeLessThanOrEqual(2);
    // Every unpaid order was asked about once, and nothing was expired this early.
    const unpaid = await Promise.all([...abandoned, declined].map((id) => orderRow(id)));
    expect(unpaid.filter((row) => row.last_checked_at === null)).toHaveLength(0);
    expect(new Set(await statuses([...abandoned, declined]))).toEqual(new Set(['created']));

    // An hour on, the orders without any payment attempt expire; the declined one waits a day.
    clock.advance(UNATTEMPTED_EXPIRY_MS);
    // 501 unpaid orders, 500 a run: the rotation reaches the last one in the second run.
    const expired = (await t.store.orders.reconcile()).expired + (await t.store.orders.reconcile()).expired;
    expect(expired).toBe(500);
    expect(new Set(await statuses(abandoned))).toEqual(new Set(['expired']));
    expect((await orderRow(declined)).payment_status).toBe('created');
    clock.advance(ABANDONED_AFTER_MS);
    await t.store.orders.reconcile();
    expect((await orderRow(declined)).payment_status).toBe('expired');
  }, 120_000);

  it('keeps rotating when the provider fails for some orders', async () => {
    const first = await createOrder();
    const second = await createOrder();
    clock.advance(RECONCILE_AFTER_MS + 60_000);
    razorpay.setMode('down');
    const result = await t.store.orders.reconcile();
    expect(result.errors).toBeGreaterThanOrEqual(2);
    // Asked about (and failed): both go to the back of the rotation instead of blocking it.
    expect((await orderRow(first)).last_checked_at).not.toBeNull();
    expect((await orderRow(second)).last_checked_at).not.toBeNull();
    razorpay.setMode('normal');
    razorpay.pay(second);
    await t.store.orders.reconcile();
    expect((await orderRow(second)).payment_status).toBe('paid');
  });

  it('flags a captured payment with the wrong amount for review, once, with a timeline entry and a warning', async () => {
    const order = await createOrder();
    const { payment } = razorpay.pay(order);
    payment.amount -= 100; // captured, but a dollar short of the order
    clock.advance(RECONCILE_AFTER_MS + 60_000);
    const runReconcileJob = async () => {
      clock.advance(60_000);
      await offerRecurringJobs(t.database.db, [{ job: PAYMENT_RECONCILE_JOB, everyMs: 60_000 }], clock.now());
      while ((await t.store.worker.runOnce()) > 0) {
        // until the reconcile job (and anything it caused) is done
      }
    };
    await runReconcileJob();
    await runReconcileJob();

    const row = await orderRow(order);
    expect(row.payment_status).toBe('created');
    expect(row.needs_review).toBe(1);
    expect(row.review_reason).toBe(
      `Payment ${payment.id} was captured but not applied: Payment amount does not match the order`,
    );
    const mismatches = await t.database.db
      .selectFrom('order_events')
      .select('detail_json')
      .where('order_id', '=', row.id)
      .where('kind', '=', 'payment.mismatch')
      .execute();
    expect(mismatches).toHaveLength(1);
    expect(JSON.parse(mismatches[0]?.detail_json ?? '{}')).toMatchObject({
      paymentId: payment.id,
      source: 'reconciler',
    });
    const warnings = logged.filter((line) => line.orderId === row.id);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({
      level: 40,
      msg: 'captured payment does not match its order: flagged for review',
    });
  });
});
