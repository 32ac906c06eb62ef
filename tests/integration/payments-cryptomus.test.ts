/**
 * Crypto through Cryptomus next to cards through Solidgate, end to end through the real app on
 * each dialect, against local fakes that speak each vendor's protocol (signatures both ways):
 * the method chooser's prices, the hosted invoice, webhooks that pay an order exactly once
 * however they race with the buyer's return and the reconciler on two store instances, an
 * underpaid invoice, a buyer who pays by crypto after abandoning a card attempt (the second
 * payment is kept and refunded), and crypto refunds to an address the customer gives.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueSeed } from '../../core/catalogue/seed/catalogue-seed.ts';
import { RECONCILE_AFTER_MS } from '../../core/orders/reconcile.ts';
import { RefundRefused, giveRefundAddress, requestRefund } from '../../core/orders/refunds.ts';
import { type FakeCryptomus, startFakeCryptomus } from '../fakes/cryptomus.ts';
import { type FakeSolidgate, startFakeSolidgate } from '../fakes/solidgate.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { createTestClock } from '../support/clock.ts';
import { dialects } from '../support/databases.ts';
import { CRYPTOMUS_TEST_KEYS, SOLIDGATE_TEST_KEYS, cryptomusEnv, solidgateEnv } from '../support/provider-env.ts';

const followers = catalogueSeed.groups[0].services[0];
const standard = followers.plans[0];
const tier = standard.tiers[0];
const baseCents = Math.round(Number(tier.price) * 100);

describe.each(dialects)('crypto payments through Cryptomus on %s', (dialect) => {
  let t: TestApp;
  /** A second instance of the store on the same database. */
  let other: TestApp;
  let cryptomus: FakeCryptomus;
  let solidgate: FakeSolidgate;
  const clock = createTestClock();
  let clientId = 500_000;
  let address = 0;

  beforeAll(async () => {
    cryptomus = await startFakeCryptomus(CRYPTOMUS_TEST_KEYS);
    solidgate = await startFakeSolidgate(SOLIDGATE_TEST_KEYS);
    // Cryptomus takes the webhook's address with each invoice: it is the store's PUBLIC_URL.
    const env = { ...cryptomusEnv(cryptomus.url), ...solidgateEnv(solidgate.url) };
    // The first instance learns its address only once listening: start it, then the real one.
    const probe = await startTestApp(dialect, { env, overrides: { clock: clock.now } });
    const port = Number(new URL(await probe.app.listen({ port: 0, host: '127.0.0.1' })).port);
    await probe.app.close();
    const publicUrl = `http://127.0.0.1:${port}`;
    t = await startTestApp(dialect, {
      env: { ...env, PUBLIC_URL: publicUrl },
      overrides: { clock: clock.now },
      sameDatabaseAs: probe,
    });
    await t.app.listen({ port, host: '127.0.0.1' });
    other = await startTestApp(dialect, {
      env: { ...env, PUBLIC_URL: publicUrl },
      overrides: { clock: clock.now },
      sameDatabaseAs: probe,
    });
    solidgate.setWebhookUrl(`${publicUrl}/api/payments/solidgate/webhook`);
    // The probe owns the database; closing it last drops it.
    cleanup = async () => {
      await other.close();
      await t.close();
      await probe.store.worker.stop();
      await probe.store.mailer.close();
      await probe.database.dispose();
    };
  });
  let cleanup = async () => {};
  afterAll(async () => {
    await cleanup();
    await cryptomus?.close();
    await solidgate?.close();
  });

  const post = (app: TestApp, url: string, payload: object) =>
    app.app.inject({
      method: 'POST',
      url,
      payload,
      remoteAddress: `10.32.${Math.floor(++address / 250)}.${address % 250}`,
    });
  const form = (paymentMethod: string | undefined, id = String(++clientId)) => ({
    type: standard.type,
    slug: followers.slug,
    qty: tier.qty,
    name: 'crypto.buyer',
    email: `crypto${id}@example.com`,
    order_id: id,
    ...(paymentMethod ? { paymentMethod } : {}),
  });
  type Created = {
    orderId: string;
    amountCents: number;
    adjustmentCents: number;
    redirectUrl?: string;
    paymentMethod: string;
  };
  const createOrder = async (payload: object) => {
    const response = await post(t, '/api/order', payload);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: Created }>().data;
  };
  const orderRow = (orderId: string) =>
    t.database.db
      .selectFrom('orders')
      .selectAll()
      .where('provider_order_id', '=', `order_${orderId}`)
      .executeTakeFirstOrThrow();
  const count = async (orderId: string, kind: string) => {
    const order = await orderRow(orderId);
    const rows = await t.database.db
      .selectFrom('order_events')
      .select('id')
      .where('order_id', '=', order.id)
      .where('kind', '=', kind as never)
      .execute();
    return rows.length;
  };
  const jobs = async (key: string) =>
    (await t.database.db.selectFrom('jobs').select('id').where('dedupe_key', '=', key).execute()).length;
  const cryptoWebhook = (app: TestApp, body: string) =>
    app.app.inject({
      method: 'POST',
      url: '/api/payments/cryptomus/webhook',
      payload: body,
      headers: { 'content-type': 'application/json' },
    });

  it('lists both methods with their prices, and charges crypto its −5%', async () => {
    const detail = (
      await post(t, '/api/order/form-detail', { slug: followers.slug, qty: tier.qty, type: standard.type })
    ).json<{
      data: { paymentMethods: { id: string; charge: number; adjustmentPercent: number; default: boolean }[] };
    }>().data;
    const cryptoCents = Math.round(baseCents * 0.95);
    expect(detail.paymentMethods).toEqual([
      expect.objectContaining({
        id: 'card-3ds',
        adjustmentPercent: 5,
        default: true,
        charge: Math.round(baseCents * 1.05) / 100,
      }),
      expect.objectContaining({ id: 'crypto', adjustmentPercent: -5, default: false, charge: cryptoCents / 100 }),
    ]);
    const created = await createOrder(form('crypto'));
    expect(created).toMatchObject({
      paymentMethod: 'crypto',
      amountCents: cryptoCents,
      adjustmentCents: cryptoCents - baseCents,
    });
    expect(created.redirectUrl).toBe(cryptomus.pageUrl(created.orderId));
    expect(cryptomus.invoices.get(created.orderId)).toMatchObject({
      amount: (cryptoCents / 100).toFixed(2),
      currency: 'USD',
      url_callback: expect.stringMatching(/\/api\/payments\/cryptomus\/webhook$/),
      url_return: expect.stringMatching(new RegExp(`/order-confirm/${created.orderId}$`)),
    });
    expect(cryptomus.requests.every((r) => r.signatureOk)).toBe(true);
  });

  it('pays once whatever races: five webhooks, the buyer’s return and the reconciler on two instances', async () => {
    const created = await createOrder(form('crypto'));
    await cryptomus.pay(created.orderId, { sendWebhook: false });
    const body = cryptomus.webhookBody(created.orderId);
    clock.advance(RECONCILE_AFTER_MS + 1000);
    const instances = [t, other];
    const replies = await Promise.all([
      ...Array.from({ length: 5 }, (_, i) => cryptoWebhook(instances[i % 2], body)),
      post(t, '/api/order/check-payment', { orderId: created.orderId }),
      post(other, '/api/order/check-payment', { orderId: created.orderId }),
      t.store.orders.reconcile(),
      other.store.orders.reconcile(),
    ]);
    for (const reply of replies.slice(0, 7)) expect((reply as { statusCode: number }).statusCode).toBe(200);
    const order = await orderRow(created.orderId);
    expect(order).toMatchObject({ payment_status: 'paid', provider: 'cryptomus', payment_method: 'crypto' });
    expect(await count(created.orderId, 'payment.paid')).toBe(1);
    expect(await jobs(`event:order.paid:${order.id}`)).toBe(1);
    // Deliveries out of order: an earlier "waiting" and a "cancel" arriving after the payment.
    for (const stale of ['check', 'cancel'] as const)
      expect((await cryptoWebhook(other, cryptomus.webhookBody(created.orderId, stale))).statusCode).toBe(200);
    expect(await orderRow(created.orderId)).toMatchObject({ payment_status: 'paid', error_message: null });
    while ((await t.store.worker.runOnce()) + (await other.store.worker.runOnce()) > 0) {
      // the paid event, then the receipt and the supplier submission it enqueues
    }
    expect(await jobs(`receipt:${order.id}`)).toBe(1);
    expect(await jobs(`fulfil:${order.id}`)).toBe(1);
    const supplierOrders = await t.database.db
      .selectFrom('supplier_orders')
      .select('id')
      .where('order_id', '=', order.id)
      .execute();
    expect(supplierOrders).toHaveLength(1);
  });

  it('waits for a final payment, refuses a bad signature, and never pays an underpaid invoice', async () => {
    const created = await createOrder(form('crypto'));
    await cryptomus.pay(created.orderId, { status: 'paid', isFinal: false, sendWebhook: false });
    expect((await cryptoWebhook(t, cryptomus.webhookBody(created.orderId))).statusCode).toBe(200);
    expect((await orderRow(created.orderId)).payment_status).toBe('created');

    const forged = cryptomus.webhookBody(created.orderId, 'paid').replace('"sign":"', '"sign":"0');
    expect((await cryptoWebhook(t, forged)).statusCode).toBe(400);
    expect((await orderRow(created.orderId)).payment_status).toBe('created');

    const short = await createOrder(form('crypto'));
    const { delivery } = await cryptomus.pay(short.orderId, { status: 'wrong_amount' });
    expect(delivery?.responseStatus).toBe(200);
    expect((await cryptoWebhook(t, delivery!.body)).statusCode).toBe(200);
    const row = await orderRow(short.orderId);
    expect(row).toMatchObject({ payment_status: 'created', needs_review: 1 });
    expect(row.review_reason).toMatch(/^Underpaid: /);
    expect(await count(short.orderId, 'payment.underpaid')).toBe(1);
    const extra = await t.database.db.selectFrom('order_payments').selectAll().where('order_id', '=', row.id).execute();
    expect(extra).toMatchObject([{ role: 'extra', provider: 'cryptomus' }]);
  });

  it('a buyer who abandons the card page and pays by crypto pays one order; the late card payment is refunded', async () => {
    const id = String(++clientId);
    const card = await createOrder(form('card-3ds', id));
    expect(card.redirectUrl).toMatch(/\/payment-page\//);
    // Back on the order page, the same form with crypto: the same order, at crypto's price.
    const crypto = await createOrder(form('crypto', id));
    expect(crypto.orderId).toBe(card.orderId);
    expect(crypto.amountCents).toBe(Math.round(baseCents * 0.95));
    expect(await orderRow(card.orderId)).toMatchObject({
      payment_method: 'crypto',
      amount_e4: crypto.amountCents * 100,
    });

    await cryptomus.pay(crypto.orderId);
    expect(await orderRow(crypto.orderId)).toMatchObject({ payment_status: 'paid', provider: 'cryptomus' });
    // The card page was still open: that payment arrives too.
    expect(await solidgate.pay(card.orderId)).toBe(200);
    const order = await orderRow(card.orderId);
    expect(order).toMatchObject({ payment_status: 'paid', provider: 'cryptomus', needs_review: 1 });
    expect(order.review_reason).toMatch(/second payment/i);
    expect(await count(card.orderId, 'payment.paid')).toBe(1);
    const payments = await t.database.db
      .selectFrom('order_payments')
      .selectAll()
      .where('order_id', '=', order.id)
      .orderBy('id')
      .execute();
    expect(payments.map((p) => [p.provider, p.role])).toEqual([
      ['cryptomus', 'applied'],
      ['solidgate', 'extra'],
    ]);
    // Repeated deliveries of that card payment flag it once.
    const again = solidgate.orderWebhookBody(card.orderId);
    await t.app.inject({
      method: 'POST',
      url: '/api/payments/solidgate/webhook',
      payload: again.body,
      headers: again.headers,
    });
    expect(await count(card.orderId, 'payment.duplicate')).toBe(1);

    const extra = payments[1];
    const refunded = await requestRefund(
      { db: t.database.db, gateways: t.store.gateways, now: clock.now },
      {
        orderId: order.id,
        orderPaymentId: extra.id,
        amountE4: extra.amount_e4,
        reason: 'Paid twice',
        origin: 'extra',
        idempotencyKey: `extra-${extra.id}`,
        requestedBy: 'owner@example.com',
      },
    );
    expect(refunded.status).toBe('done');
    expect(solidgate.refunds).toContainEqual(
      expect.objectContaining({ order_id: card.orderId, amount: card.amountCents }),
    );
    // The order's own money is untouched: only the second payment went back.
    expect((await orderRow(card.orderId)).refunded_e4).toBe(0);
  });

  it('a lost webhook is found by the reconciler', async () => {
    const created = await createOrder(form('crypto'));
    await cryptomus.pay(created.orderId, { sendWebhook: false });
    clock.advance(RECONCILE_AFTER_MS + 1000);
    await other.store.orders.reconcile();
    expect((await orderRow(created.orderId)).payment_status).toBe('paid');
  });

  it('refunds crypto whole, to the address the customer gives through a single-use link', async () => {
    const created = await createOrder(form('crypto'));
    await cryptomus.pay(created.orderId);
    const order = await orderRow(created.orderId);
    const deps = { db: t.database.db, gateways: t.store.gateways, now: clock.now };
    const ask = (amountE4: number, idempotencyKey: string) =>
      requestRefund(deps, {
        orderId: order.id,
        amountE4,
        reason: 'Changed my mind',
        origin: 'owner',
        idempotencyKey,
        requestedBy: 'owner@example.com',
      });
    await expect(ask(10_000, 'crypto-part')).rejects.toThrow(RefundRefused);
    const asked = await ask(order.amount_e4, 'crypto-whole');
    expect(asked.status).toBe('awaiting_address');
    expect(cryptomus.refunds).toHaveLength(0);
    const event = await t.database.db
      .selectFrom('jobs')
      .select('payload_json')
      .where('dedupe_key', '=', `event:order.refund_address_needed:${asked.refundId}`)
      .executeTakeFirstOrThrow();
    const { token } = JSON.parse(event.payload_json) as { token: string };
    const stored = await t.database.db
      .selectFrom('refunds')
      .select('address_token_hash')
      .where('id', '=', asked.refundId)
      .executeTakeFirstOrThrow();
    expect(stored.address_token_hash).not.toBe(token);

    const wallet = 'TDD97yguPESTpcrJMqU6h2ozZbibv4Vaqm';
    const done = await giveRefundAddress(deps, token, wallet);
    expect(done.status).toBe('done');
    expect(cryptomus.refunds).toEqual([expect.objectContaining({ order_id: created.orderId, address: wallet })]);
    expect((await orderRow(created.orderId)).refunded_e4).toBe(order.amount_e4);
    await expect(giveRefundAddress(deps, token, wallet)).rejects.toThrow(RefundRefused);
    expect(cryptomus.refunds).toHaveLength(1);
  });
});
