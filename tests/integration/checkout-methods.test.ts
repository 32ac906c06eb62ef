/**
 * The checkout's method chooser, from the API's side, in the keyless store (the sandbox serves
 * every method): the form's data lists each method with its price for the package, an order is
 * charged exactly the chosen method's price, an unknown method is refused on its field, an
 * omitted one is the default card method, and the same form sent again with another method
 * moves the unpaid order to that method and price (a paid one is refused). The order page's first
 * HTML has the chooser with the default picked; the confirmation page names the method and its
 * price change, and says it is waiting while the payment is not confirmed. Needs the production
 * build for the pages (`npm run build`).
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
    t = await startTestApp(dialect, { withPages: true });
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
      .where('client_order_id', 'like', `${form.order_id}%`)
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

  it('renders the chooser in the order page’s first HTML, the default method picked and test mode said', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/order/${followers.slug}GOI${tier.qty}?type=${standard.type}`,
    });
    expect(response.statusCode).toBe(200);
    const html = response.body;
    const radios = [...html.matchAll(/<input[^>]*name="paymentMethod"[^>]*>/g)].map((match) => match[0]);
    expect(radios).toHaveLength(3);
    expect(radios.filter((radio) => /\schecked=""/.test(radio))).toEqual([expect.stringContaining('value="card"')]);
    expect(html).toContain('Test mode: no money moves.');
    expect(html).toMatch(/data-testid="method-crypto-badge"[^>]*>.*?−5%<\/span>/);
    expect(html).toMatch(/data-testid="method-card-3ds-badge"[^>]*>.*?\+5%<\/span>/);
    expect(html).toMatch(new RegExp(`data-testid="method-crypto-price"[^>]*>\\$${withPercent(-5).toFixed(2)}<`));
  });

  it('confirmation page: waiting while unpaid, the method, its discount line and the total', async () => {
    const created = (await post('/api/order', orderForm({ paymentMethod: 'crypto' }))).json().data;
    const html = (await t.app.inject({ method: 'GET', url: `/order-confirm/${created.orderId}` })).body;
    expect(html).toContain('Waiting for your payment to be confirmed…');
    expect(html).toMatch(/data-testid="order-method"[^>]*>Crypto</);
    const discount = `−$${(base - withPercent(-5)).toFixed(2)}`;
    expect(html).toMatch(new RegExp(`data-testid="order-adjustment"[^>]*>${discount.replace('$', '\\$')}<`));
    expect(html).toMatch(new RegExp(`data-testid="order-amount"[^>]*>\\$${withPercent(-5).toFixed(2)}<`));

    const paid = (await post('/api/sandbox/pay', { razorpay_order_id: created.checkout.order_id })).json().data;
    expect((await post('/api/order/verify-payment', paid)).statusCode).toBe(200);
    const after = (await t.app.inject({ method: 'GET', url: `/order-confirm/${created.orderId}` })).body;
    expect(after).not.toContain('Waiting for your payment to be confirmed');
    expect(after).toMatch(/data-testid="order-payment"[^>]*>Paid</);
  });
});
