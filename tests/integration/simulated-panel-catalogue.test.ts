/**
 * The store's own simulated panel (no SMM_PANEL_URL) offers what the catalogue sells as it stands:
 * a subscription service mapped after the store started is on offer at once, with the
 * Subscriptions type its kind needs, so a sandbox purchase of it reaches the panel.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, startTestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';
import { AUTOMATIC_LIKES, DAILY_FOLLOWERS, subscriptionCatalogue } from '../support/subscription-catalogue.ts';

describe.each(dialects)('the simulated panel follows the catalogue (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, {});
    // After boot: the panel's list was made from the seed, which maps none of these ids.
    await t.store.catalogue.replaceCatalogue(subscriptionCatalogue);
  });
  afterAll(async () => {
    await t?.close();
  });

  let orders = 0;
  async function buy(slug: string, qty: number, name: string) {
    orders += 1;
    const call = (url: string, payload: object) =>
      t.app.inject({ method: 'POST', url, payload, remoteAddress: `10.58.0.${orders}` });
    const created = await call('/api/order', {
      type: 'Standard',
      slug,
      qty,
      name,
      email: `follow-${orders}@example.com`,
      order_id: String(200000 + orders),
    });
    expect(created.statusCode, created.body).toBe(200);
    const reference: string = created.json().data.razorpay_order_id;
    const paid = await call('/api/sandbox/pay', { razorpay_order_id: reference });
    expect((await call('/api/order/verify-payment', paid.json().data)).statusCode).toBe(200);
    while ((await t.store.worker.runOnce()) > 0) {
      // until nothing is due
    }
    return t.database.db
      .selectFrom('orders')
      .innerJoin('subscriptions', 'subscriptions.order_id', 'orders.id')
      .select(['orders.fulfilment_state', 'orders.error_message', 'subscriptions.starts_at', 'subscriptions.ends_at'])
      .where('orders.provider_order_id', '=', reference)
      .executeTakeFirstOrThrow();
  }

  it('sends automatic likes and daily followers mapped after boot to the panel', async () => {
    for (const [slug, qty, name] of [
      [AUTOMATIC_LIKES.slug, 50, 'follow.likes'],
      [DAILY_FOLLOWERS.slug, 50, 'follow.daily'],
    ] as const) {
      const order = await buy(slug, qty, name);
      expect(order, slug).toMatchObject({ fulfilment_state: 'submitted', error_message: null });
      expect(order.starts_at, slug).not.toBeNull();
      expect(new Date(order.ends_at ?? 0).getTime() - new Date(order.starts_at ?? 0).getTime()).toBe(30 * 86_400_000);
    }
  });
});
