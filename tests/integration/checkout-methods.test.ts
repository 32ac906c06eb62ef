/**
 * The checkout's method chooser, from the API's side, in the keyless store (the sandbox serves
 * every method): the form's data lists each method with its price for the package, an order is
 * charged exactly the chosen method's price, an unknown method is refused on its field, an
 * omitted one is the default card method, and the same form sent again with another method
 * moves the unpaid order to that method and price (a paid one is refused).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueSeed } from '../../core/catalogue/seed/catalogue-seed.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';
import { orderByReference } from '../support/order-reference.ts';

const followers = catalogueSeed.groups[0].services[0];
const standard = followers.plans[0];
/** A package well above the minimum charge, so every method's percentage shows in cents. */
const tier = standard.tiers.find((t) => Number(t.price) >= 5) ?? standard.tiers[standard.tiers.length - 1];
const base = Number(tier.price);
/** The price with a percentage, rounded to whole cents as the store rounds it. */
const withPercent = (percent: number) => Math.round(base * (100 + percent)) / 100;

let sequence = 700_000;
const nextClientId = () => String((sequence += 1));

describe.each(dialects)('payment method chooser on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  // Each call from its own address, so the per-client rate limits stay out of the way.
  let clients = 0;
  const post = (url: string, payload: object) =>
    t.app.inject({
      method: 'POST',
      url,
      payload,
      remoteAddress: `10.7.${Math.floor(++clients / 250)}.${clients % 250}`,
    });
  const orderForm = (overrides: Record<string, unknown> = {}) => ({
    type: standard.type,
    slug: followers.slug,
    qty: tier.qty,
    name: 'method.buyer',
    email: 'methods@example.com',
    order_id: nextClientId(),
    ...overrides,
  });

  it('form-detail lists the methods with their prices for the package, the card method first and default', async () => {
    const response = await post('/api/order/form-detail', { slug: followers.slug, qty: tier.qty, type: standard.type });
    expect(response.statusCode).toBe(200);
    const detail = response.json().data;
    expect(detail.testMode).toBe(true);
    expect(detail.selected.charge).toBe(base);
    expect(detail.paymentMethods).toEqual([
      expect.objectContaining({ id: 'card', label: 'Card', adjustmentPercent: 0, charge: base, default: true }),
      expect.objectContaining({ id: 'card-3ds', adjustmentPercent: 5, charge: withPercent(5), default: false }),
      expect.objectContaining({
        id: 'crypto',
        label: 'Crypto',
        adjustmentPercent: -5,
        charge: withPercent(-5),
        default: false,
      }),
    ]);
    for (const method of detail.paymentMethods) expect(method.detail).not.toBe('');
  });

  it('charges the crypto price (−5%) when crypto is chosen, and the order records the method', async () => {
    const response = await post('/api/order', orderForm({ paymentMethod: 'crypto', amount: withPercent(-5) }));
    expect(response.statusCode).toBe(200);
    const created = response.json().data;
    expect(created.paymentMethod).toBe('crypto');
    expect(created.amountCents).toBe(Math.round(withPercent(-5) * 100));
    expect(created.adjustmentCents).toBe(Math.round((withPercent(-5) - base) * 100));
    expect(created.checkout).toMatchObject({
      provider: 'sandbox',
      methodLabel: 'Crypto',
      amountCents: created.amountCents,
    });
    const row = await orderByReference(t.database.db, created.razorpay_order_id);
    expect(row.payment_method).toBe('crypto');
    expect(row.amount_e4).toBe(created.amountCents * 100);

    const status = (
      await t.app.inject({ method: 'GET', url: `/api/order/order-status?orderId=${created.orderId}` })
    ).json().data;
    expect(status).toMatchObject({ paymentMethod: 'Crypto', amount: withPercent(-5), testMode: true });
    expect(status.adjustment).toBeCloseTo(withPercent(-5) - base, 4);
  });

  it('refuses an unknown method with a 400 that names paymentMethod, and stores nothing', async () => {
    const form = orderForm({ paymentMethod: 'paypal' });
    const response = await post('/api/order', form);
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.isSuccessful).toBe(false);
    expect(body.errors).toEqual([expect.objectContaining({ field: 'paymentMethod' })]);
    const stored = await t.database.db
      .selectFrom('orders')
      .select('id')
      .where('client_order_id', '=', form.order_id)
      .execute();
    expect(stored).toEqual([]);
  });

  it('means the default card method when paymentMethod is omitted', async () => {
    const response = await post('/api/order', orderForm({ amount: base }));
    expect(response.statusCode).toBe(200);
    const created = response.json().data;
    expect(created.paymentMethod).toBe('card');
    expect(created.amountCents).toBe(Math.round(base * 100));
    expect(created.adjustmentCents).toBe(0);
  });

  it('moves the unpaid order to another method and its price when the same form comes again; a paid one answers 409', async () => {
    const form = orderForm();
    const card = (await post('/api/order', { ...form, paymentMethod: 'card' })).json().data;
    const surcharged = await post('/api/order', { ...form, paymentMethod: 'card-3ds' });
    expect(surcharged.statusCode).toBe(200);
    const threeDs = surcharged.json().data;
    expect(threeDs.orderId).toBe(card.orderId);
    expect(threeDs.paymentMethod).toBe('card-3ds');
    expect(threeDs.amountCents).toBe(Math.round(withPercent(5) * 100));
    const row = await orderByReference(t.database.db, card.razorpay_order_id);
    expect(row).toMatchObject({ payment_method: 'card-3ds', amount_e4: threeDs.amountCents * 100 });

    // Back to card: the same order, its card attempt, the card price again.
    const again = (await post('/api/order', { ...form, paymentMethod: 'card' })).json().data;
    expect(again).toMatchObject({ orderId: card.orderId, paymentMethod: 'card', amountCents: card.amountCents });

    const paid = (await post('/api/sandbox/pay', { razorpay_order_id: again.checkout.order_id })).json().data;
    expect((await post('/api/order/verify-payment', paid)).statusCode).toBe(200);
    for (const method of ['crypto', 'card-3ds', 'card']) {
      const refused = await post('/api/order', { ...form, paymentMethod: method });
      expect(refused.statusCode, method).toBe(409);
      expect(refused.json().message).toBe('This order is already paid.');
    }
    const paidRow = await orderByReference(t.database.db, card.razorpay_order_id);
    expect(paidRow).toMatchObject({
      payment_status: 'paid',
      payment_method: 'card',
      amount_e4: card.amountCents * 100,
    });
  });
});
