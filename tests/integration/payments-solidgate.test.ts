/**
 * Cards through Solidgate's hosted payment page, end to end through the real app on each
 * dialect, against a local fake that speaks Solidgate's protocol (signed both ways): the buyer
 * is sent to the hosted page, pays there, Solidgate's webhook pays the order exactly once
 * whatever else races it, a lost webhook is found by the reconciler, a chargeback flags the
 * order, and refunds go back through Solidgate.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueSeed } from '../../core/catalogue/seed/catalogue-seed.ts';
import { RECONCILE_AFTER_MS } from '../../core/orders/reconcile.ts';
import { requestRefund } from '../../core/orders/refunds.ts';
import { type FakeSolidgate, startFakeSolidgate } from '../fakes/solidgate.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { createTestClock } from '../support/clock.ts';
import { dialects } from '../support/databases.ts';
import { SOLIDGATE_TEST_KEYS, solidgateEnv } from '../support/provider-env.ts';

const followers = catalogueSeed.groups[0].services[0];
const standard = followers.plans[0];
const tier = standard.tiers[0];

describe.each(dialects)('Solidgate payments on %s', (dialect) => {
  let t: TestApp;
  let solidgate: FakeSolidgate;
  const clock = createTestClock();
  let clientId = 300_000;
  let address = 0;

  beforeAll(async () => {
    solidgate = await startFakeSolidgate(SOLIDGATE_TEST_KEYS);
    t = await startTestApp(dialect, {
      env: solidgateEnv(solidgate.url),
      overrides: { clock: clock.now },
    });
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    solidgate.setWebhookUrl(`${base}/api/payments/solidgate/webhook`);
  });
  afterAll(async () => {
    await t?.close();
    await solidgate?.close();
  });

  const post = (url: string, payload: object) =>
    t.app.inject({
      method: 'POST',
      url,
      payload,
      remoteAddress: `10.31.${Math.floor(++address / 250)}.${address % 250}`,
    });
  const createOrder = async (paymentMethod?: string) => {
    clientId += 1;
    const response = await post('/api/order', {
      type: standard.type,
      slug: followers.slug,
      qty: tier.qty,
      name: 'solidgate.buyer',
      email: `card${clientId}@example.com`,
      order_id: String(clientId),
      ...(paymentMethod ? { paymentMethod } : {}),
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{
      data: {
        orderId: string;
        razorpay_order_id: string;
        amountCents: number;
        redirectUrl?: string;
        paymentMethod: string;
      };
    }>().data;
  };
  const orderRow = (orderId: string) =>
    t.database.db
      .selectFrom('orders')
      .selectAll()
      .where('provider_order_id', '=', `order_${orderId}`)
      .executeTakeFirstOrThrow();
  const kinds = async (orderId: string) => {
    const order = await orderRow(orderId);
    const rows = await t.database.db
      .selectFrom('order_events')
      .select('kind')
      .where('order_id', '=', order.id)
      .orderBy('id')
      .execute();
    return rows.map((r) => r.kind);
  };
  const webhook = (body: string, headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: '/api/payments/solidgate/webhook', payload: body, headers });

  it('offers only its own method, the default card method, priced with its +5%', async () => {
    const form = await post('/api/order/form-detail', { slug: followers.slug, qty: tier.qty, type: standard.type });
    const detail = form.json<{
      data: { paymentMethods: { id: string; charge: number; default: boolean }[]; testMode: boolean };
    }>().data;
    expect(detail.testMode).toBe(false);
    expect(detail.paymentMethods).toEqual([
      expect.objectContaining({ id: 'card-3ds', default: true, adjustmentPercent: 5 }),
    ]);
    const created = await createOrder();
    expect(created.paymentMethod).toBe('card-3ds');
    expect(created.amountCents).toBe(Math.round(Number(tier.price) * 105));
    expect(detail.paymentMethods[0]?.charge).toBe(created.amountCents / 100);
    // `card` from a spec client means the default card method.
    expect((await createOrder('card')).paymentMethod).toBe('card-3ds');
    const crypto = await post('/api/order', {
      type: standard.type,
      slug: followers.slug,
      qty: tier.qty,
      name: 'solidgate.buyer',
      email: 'nocrypto@example.com',
      order_id: '399999',
      paymentMethod: 'crypto',
    });
    expect(crypto.statusCode).toBe(400);
    expect(crypto.json()).toMatchObject({ message: 'This payment method is not available. Please choose another.' });
  });

  it('sends the buyer to the hosted page and pays the order once from its webhook', async () => {
    const created = await createOrder();
    expect(created.redirectUrl).toMatch(new RegExp(`^${solidgate.url}/payment-page/`));
    const page = await fetch(created.redirectUrl!);
    expect(await page.text()).toContain(`${(created.amountCents / 100).toFixed(2)} USD`);
    const sold = solidgate.orders.get(created.orderId);
    expect(sold).toMatchObject({ amount: created.amountCents, currency: 'USD' });
    expect(sold?.success_url).toMatch(new RegExp(`/order-confirm/${created.orderId}$`));

    expect(await solidgate.pay(created.orderId)).toBe(200);
    const order = await orderRow(created.orderId);
    expect(order).toMatchObject({ payment_status: 'paid', provider: 'solidgate', payment_method: 'card-3ds' });
    expect(await kinds(created.orderId)).toEqual(['order.created', 'payment.paid']);
    const status = await t.app.inject({ method: 'GET', url: `/api/order/order-status?orderId=${created.orderId}` });
    expect(status.json()).toMatchObject({
      data: { paymentStatus: 'paid', paymentMethod: 'Card, Apple Pay or Google Pay' },
    });
  });

  it('replayed webhooks, the reconciler and a second instance of each race to one paid transition', async () => {
    const created = await createOrder();
    await solidgate.pay(created.orderId, { sendWebhook: false });
    const delivery = solidgate.orderWebhookBody(created.orderId);
    clock.advance(RECONCILE_AFTER_MS + 1000);
    const replies = await Promise.all([
      ...Array.from({ length: 5 }, () => webhook(delivery.body, delivery.headers)),
      t.store.orders.reconcile(),
      t.store.orders.reconcile(),
    ]);
    for (const reply of replies.slice(0, 5)) expect((reply as { statusCode: number }).statusCode).toBe(200);
    expect((await kinds(created.orderId)).filter((k) => k === 'payment.paid')).toHaveLength(1);
    const order = await orderRow(created.orderId);
    const payments = await t.database.db
      .selectFrom('order_payments')
      .selectAll()
      .where('order_id', '=', order.id)
      .execute();
    expect(payments).toMatchObject([{ role: 'applied', provider: 'solidgate' }]);
    const paidEvents = await t.database.db
      .selectFrom('jobs')
      .select('id')
      .where('dedupe_key', '=', `event:order.paid:${order.id}`)
      .execute();
    expect(paidEvents).toHaveLength(1);
  });

  it('refuses a tampered or unsigned webhook and changes nothing', async () => {
    const created = await createOrder();
    await solidgate.pay(created.orderId, { sendWebhook: false });
    const delivery = solidgate.orderWebhookBody(created.orderId);
    const tampered = delivery.body.replace(`"amount":${created.amountCents}`, `"amount":${created.amountCents + 1}`);
    expect(tampered).not.toBe(delivery.body);
    expect((await webhook(tampered, delivery.headers)).statusCode).toBe(400);
    expect((await webhook(delivery.body, { 'content-type': 'application/json' })).statusCode).toBe(400);
    expect((await orderRow(created.orderId)).payment_status).toBe('created');
    // The genuine delivery still counts afterwards.
    expect((await webhook(delivery.body, delivery.headers)).statusCode).toBe(200);
    expect((await orderRow(created.orderId)).payment_status).toBe('paid');
  });

  it('a declined card fails the attempt; a lost approval is found by the reconciler', async () => {
    const declined = await createOrder();
    expect(await solidgate.decline(declined.orderId)).toBe(200);
    expect(await orderRow(declined.orderId)).toMatchObject({ payment_status: 'fail' });

    const lost = await createOrder();
    await solidgate.pay(lost.orderId, { sendWebhook: false });
    clock.advance(RECONCILE_AFTER_MS + 1000);
    await t.store.orders.reconcile();
    expect((await orderRow(lost.orderId)).payment_status).toBe('paid');
  });

  it('records a chargeback once, flags the order, and refunds go back through Solidgate', async () => {
    const created = await createOrder();
    await solidgate.pay(created.orderId);
    const order = await orderRow(created.orderId);
    const first = await solidgate.chargeback(created.orderId);
    expect(first.status).toBe(200);
    expect((await webhook(first.body, first.headers)).statusCode).toBe(200);
    const disputes = await t.database.db
      .selectFrom('payment_disputes')
      .selectAll()
      .where('order_id', '=', order.id)
      .execute();
    expect(disputes).toMatchObject([{ provider: 'solidgate', amount_e4: created.amountCents * 100 }]);
    expect(await orderRow(created.orderId)).toMatchObject({ needs_review: 1 });
    expect((await kinds(created.orderId)).filter((k) => k === 'payment.disputed')).toHaveLength(1);

    const deps = { db: t.database.db, gateways: t.store.gateways, now: clock.now };
    const part = await requestRefund(deps, {
      orderId: order.id,
      amountE4: 10_000,
      reason: 'Goodwill',
      origin: 'owner',
      idempotencyKey: 'solidgate-part',
      requestedBy: 'owner@example.com',
    });
    expect(part.status).toBe('done');
    const rest = created.amountCents * 100 - 10_000;
    const all = await requestRefund(deps, {
      orderId: order.id,
      amountE4: rest,
      reason: 'Goodwill',
      origin: 'owner',
      idempotencyKey: 'solidgate-rest',
      requestedBy: 'owner@example.com',
    });
    expect(all.status).toBe('done');
    expect(solidgate.refunds.map((r) => r.amount)).toEqual([100, rest / 100]);
    expect((await orderRow(created.orderId)).refunded_e4).toBe(created.amountCents * 100);
    await expect(
      requestRefund(deps, {
        orderId: order.id,
        amountE4: 100,
        reason: 'Too much',
        origin: 'owner',
        idempotencyKey: 'solidgate-more',
        requestedBy: 'owner@example.com',
      }),
    ).rejects.toThrow('more than is left');
  });
});
