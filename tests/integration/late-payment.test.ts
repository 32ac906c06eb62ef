/**
 * An expired order is never paid as is: its price is stale. The Razorpay order carries an expiry
 * matching the store's unpaid-order lifetime, and money that still arrives for an expired order
 * (webhooks delivered twice, racing the window's verify) is refunded once through Razorpay and
 * never fulfilled; the order's page says so. Against the fake Razorpay, with real signatures, on
 * each dialect.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueSeed } from '../../core/catalogue/seed/catalogue-seed.ts';
import { LATE_PAYMENT_MESSAGES } from '../../core/orders/late-payment.ts';
import { ABANDONED_AFTER_MS } from '../../core/orders/reconcile.ts';
import { type FakeRazorpay, startFakeRazorpay } from '../fakes/razorpay.ts';
import { type SmtpSink, startSmtpSink } from '../fakes/smtp.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';
import { orderByReference } from '../support/order-reference.ts';

const keys = { keyId: 'rzp_test_late', keySecret: 'late-key-secret', webhookSecret: 'late-webhook-secret' };
const followers = catalogueSeed.groups[0].services[0];
const standard = followers.plans[0];
const tier = standard.tiers[0];

describe.each(dialects)('a payment for an expired order on %s', (dialect) => {
  let t: TestApp;
  let razorpay: FakeRazorpay;
  let smtp: SmtpSink;
  let clients = 0;
  let clientOrderId = 700_000;

  beforeAll(async () => {
    razorpay = await startFakeRazorpay(keys);
    smtp = await startSmtpSink();
    t = await startTestApp(dialect, {
      env: {
        RAZORPAY_KEY_ID: keys.keyId,
        RAZORPAY_KEY_SECRET: keys.keySecret,
        RAZORPAY_WEBHOOK_SECRET: keys.webhookSecret,
        RAZORPAY_API_URL: razorpay.url,
        SMTP_URL: smtp.url,
        PUBLIC_URL: 'https://shop.example',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([razorpay?.close(), smtp?.close()]);
  });

  const post = (url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, payload, remoteAddress: `10.9.0.${(clients += 1) % 250}` });
  const createOrder = async (name: string) => {
    const response = await post('/api/order', {
      type: standard.type,
      slug: followers.slug,
      qty: tier.qty,
      name,
      email: 'late@example.com',
      amount: Number(tier.price),
      currency: 'USD',
      order_id: String((clientOrderId += 1)),
    });
    expect(response.statusCode).toBe(200);
    return response.json().data as { razorpay_order_id: string; checkout: { order_id: string } };
  };
  const drainJobs = async () => {
    while ((await t.store.worker.runOnce()) > 0) {
      // until nothing is due
    }
  };

  it('opens the Razorpay order with an expire_by at the end of the unpaid-order lifetime', async () => {
    const before = Date.now();
    const created = await createOrder('late.expiry');
    const providerOrder = razorpay.orders.get(created.checkout.order_id);
    const order = await orderByReference(t.database.db, created.razorpay_order_id);
    const expected = Math.ceil((Date.parse(order.created_at) + ABANDONED_AFTER_MS) / 1000);
    expect(providerOrder?.expire_by).toBe(expected);
    expect(providerOrder?.expire_by).toBeGreaterThanOrEqual(Math.floor(before / 1000) + 15 * 60);
  });

  it('refunds a captured payment for an expired order once, never fulfils it, and tells the buyer', async () => {
    const created = await createOrder('late.payment');
    const order = await orderByReference(t.database.db, created.razorpay_order_id);
    // Abandoned long enough ago for the reconciler to expire it.
    await t.database.db
      .updateTable('orders')
      .set({ created_at: new Date(Date.now() - ABANDONED_AFTER_MS - 3_600_000).toISOString() })
      .where('id', '=', order.id)
      .execute();
    await t.store.orders.reconcile();
    expect((await orderByReference(t.database.db, created.razorpay_order_id)).payment_status).toBe('expired');

    // The buyer paid in a window left open: the webhook twice, racing the window's verify.
    const { payment, handlerResult } = razorpay.pay(created.checkout.order_id);
    const captured = razorpay.webhook('payment.captured', payment);
    const replayed = razorpay.webhook('payment.captured', payment);
    const webhook = (hook: typeof captured) =>
      t.app.inject({
        method: 'POST',
        url: '/api/payments/razorpay/webhook',
        payload: hook.body,
        headers: hook.headers,
      });
    const replies = await Promise.all([
      webhook(captured),
      post('/api/order/verify-payment', handlerResult),
      webhook(replayed),
      webhook(captured),
      post('/api/order/verify-payment', handlerResult),
    ]);
    expect(replies.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    await drainJobs();
    await drainJobs();

    const after = await orderByReference(t.database.db, created.razorpay_order_id);
    expect(after.payment_status).toBe('expired');
    expect(after.payment_id).toBeNull();
    expect(after.supplier_order_id).toBeNull();
    expect(razorpay.refunds.filter((r) => r.payment_id === payment.id)).toEqual([
      expect.objectContaining({ amount: payment.amount }),
    ]);
    const refunds = await t.database.db.selectFrom('refunds').selectAll().where('order_id', '=', order.id).execute();
    expect(refunds).toMatchObject([{ status: 'done', amount_e4: payment.amount * 100 }]);
    const kinds = (
      await t.database.db.selectFrom('order_events').select('kind').where('order_id', '=', order.id).execute()
    ).map((e) => e.kind);
    expect(kinds.filter((k) => k === 'payment.after_expiry')).toHaveLength(1);
    expect(kinds).not.toContain('payment.paid');
    const fulfil = await t.database.db
      .selectFrom('jobs')
      .select('id')
      .where('dedupe_key', 'in', [`fulfil:${order.id}`, `receipt:${order.id}`])
      .execute();
    expect(fulfil).toHaveLength(0);

    const status = await t.app.inject({
      method: 'GET',
      url: `/api/order/order-status?orderId=${created.razorpay_order_id}`,
    });
    expect(status.json().data).toMatchObject({
      paymentStatus: 'expired',
      latePayment: { refund: 'refunded', message: LATE_PAYMENT_MESSAGES.refunded },
    });
    // Placing the same order again does not reopen it at its stale price.
    const again = await post('/api/order', {
      type: standard.type,
      slug: followers.slug,
      qty: tier.qty,
      name: 'late.payment',
      email: 'late@example.com',
      amount: Number(tier.price),
      currency: 'USD',
      order_id: String(clientOrderId),
    });
    expect(again.statusCode).toBe(409);
  });

  it("offers an expired order again at today's price: its package and account, never its old amount", async () => {
    const created = await createOrder('late.again');
    const orderStatus = async () =>
      (
        await t.app.inject({ method: 'GET', url: `/api/order/order-status?orderId=${created.razorpay_order_id}` })
      ).json().data as Record<string, unknown>;
    // Still payable: nothing to place again.
    expect(await orderStatus()).not.toHaveProperty('placeAgainPath');

    const order = await orderByReference(t.database.db, created.razorpay_order_id);
    await t.database.db
      .updateTable('orders')
      .set({ created_at: new Date(Date.now() - ABANDONED_AFTER_MS - 3_600_000).toISOString() })
      .where('id', '=', order.id)
      .execute();
    await t.store.orders.reconcile();

    const expired = await orderStatus();
    expect(expired).toMatchObject({
      paymentStatus: 'expired',
      placeAgainPath: `/order/${followers.slug}GOI${tier.qty}?type=${encodeURIComponent(standard.type)}&target=late.again`,
    });
    expect(expired).not.toHaveProperty('latePayment');
    // The path names no price: the order page prices it from today's catalogue.
    expect(String(expired.placeAgainPath)).not.toMatch(/amount|price/);
  });
});
