/**
 * Honest claims (decision 031), through the real app and its server-rendered pages on
 * each dialect: a configured sale shows its banner and struck-through list prices only while it
 * runs, and checkout charges the reduced price (fee after the sale); an order keeps the price it
 * was created at; the page cache never serves a price across a sale boundary; the order page's
 * activity line is a real count; example reviews show only in the sandbox demo store.
 * Time moves with the store's clock override, never with sleeps.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderPath } from '../../core/catalogue/order-path.ts';
import { catalogueSeed } from '../../core/catalogue/seed/catalogue-seed.ts';
import { loadConfig } from '../../server/config.ts';
import { openStore } from '../../server/store.ts';
import { type FakeRazorpay, startFakeRazorpay } from '../fakes/razorpay.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { dialects, openTestDatabase } from '../support/databases.ts';
import { decodeEntities } from '../support/html.ts';

const SALE_START = Date.parse('2026-12-01T00:00:00Z');
const SALE_END = Date.parse('2026-12-08T00:00:00Z');
const HOUR = 3_600_000;
const SALE_ENV = {
  SALE_PERCENT: '20',
  SALE_STARTS_AT: new Date(SALE_START).toISOString(),
  SALE_ENDS_AT: new Date(SALE_END).toISOString(),
  SALE_SERVICES: 'all',
};

const instagram = catalogueSeed.groups[0];
const followers = instagram.services[0]; // instagram-followers, the home page's first service
const standard = followers.plans[0];
const firstTier = standard.tiers[0]; // 100 at 2.99 → 2.39 at 20% off
const cents = (price: string) => Math.round(Number(price) * 100);
/** 20% off, rounded down to cents (core/catalogue/sale.ts). */
const saleCents = (price: string) => Math.floor((cents(price) * 80) / 100);
/** An Instagram tier priced at 1.25 or less: 1 or less once 20% is off, so it carries the fee. */
const cheap = catalogueSeed.groups
  .flatMap((g) => g.services.flatMap((s) => s.plans.flatMap((p) => p.tiers.map((t) => ({ s, p, t })))))
  .find(({ s, t }) => !s.commentRequired && s.targetKind.startsWith('instagram') && Number(t.price) <= 1.25);

const money = (amountCents: number) => `$${(amountCents / 100).toFixed(2)}`;

describe.each(dialects)('a configured sale on %s', (dialect) => {
  let t: TestApp;
  let now = SALE_START - HOUR;
  let clients = 0;
  let sequence = 800_000;
  const nextAddress = () => `10.9.${Math.floor(++clients / 250)}.${clients % 250}`;

  beforeAll(async () => {
    t = await startTestApp(dialect, {
      withPages: true,
      env: SALE_ENV,
      overrides: { clock: () => new Date(now) },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  const page = async (url: string) => {
    const response = await t.app.inject({ method: 'GET', url, remoteAddress: nextAddress() });
    expect(response.statusCode, url).toBe(200);
    return decodeEntities(response.body);
  };
  const createOrder = async (slug: string, type: string, qty: number, extra: Record<string, unknown> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/order',
      remoteAddress: nextAddress(),
      payload: {
        type,
        slug,
        qty,
        name: 'sale.buyer',
        email: `sale.${(sequence += 1)}@example.com`,
        order_id: String(sequence),
        ...extra,
      },
    });
  const storedOrder = (providerOrderId: string) =>
    t.database.db
      .selectFrom('orders')
      .select(['price_e4', 'list_price_e4', 'amount_e4'])
      .where('provider_order_id', '=', providerOrderId)
      .executeTakeFirstOrThrow();

  it('before the sale: no banner, list prices on the pages and charged in full', async () => {
    now = SALE_START - HOUR;
    const home = await page('/');
    expect(home).not.toContain('data-testid="top-bar"');
    expect(home).not.toContain('data-testid="list-price"');
    expect(home).toContain(money(cents(firstTier.price)));
    const created = await createOrder(followers.slug, standard.type, firstTier.qty);
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().data.amountCents).toBe(cents(firstTier.price));
    // No sale: no list price on the order or in the payment window's data.
    expect(created.json().data.listPriceCents).toBeUndefined();
    expect((await storedOrder(created.json().data.razorpay_order_id)).list_price_e4).toBeNull();
  });

  it('the page cache does not serve the pre-sale page once the sale starts', async () => {
    now = SALE_START - 1;
    const before = await page('/');
    expect(before).not.toContain('data-testid="top-bar"');
    expect(await page('/')).toBe(before); // cached: the same bytes
    now = SALE_START;
    const during = await page('/');
    expect(during).toContain('data-testid="top-bar"');
  });

  it('during the sale: banner with the configured wording and real end, struck-through list prices', async () => {
    now = SALE_START + HOUR;
    const home = await page('/');
    expect(home).toContain('Flash sale: 20% OFF');
    expect(home).not.toContain('50% OFF');
    // The real end, counted from the render (the page may be the one cached at the start).
    expect(home).toMatch(/data-testid="countdown"[^>]*>16[78] hr 00 min 00 sec</);
    expect(home).toMatch(new RegExp(`data-testid="list-price"[^>]*>.*?\\${money(cents(firstTier.price))}</del>`));
    expect(home).toContain(money(saleCents(firstTier.price)));

    const service = await page(`/service/${followers.slug}`);
    expect(service).toContain('data-testid="top-bar"');
    expect(service).toMatch(new RegExp(`data-testid="original-price"[^>]*>\\${money(cents(firstTier.price))}<`));
    expect(service).toContain('Price before the sale');
    expect(service).toContain(`$${(saleCents(firstTier.price) / 100).toFixed(4)}`);

    const order = await page(orderPath(followers.slug, firstTier.qty, standard.type));
    // The order page has no top bar (spec layout rules, app/layout-rules.ts): the struck price says it.
    expect(order).toMatch(new RegExp(`data-testid="list-price"[^>]*>.*?\\${money(cents(firstTier.price))}</del>`));
    expect(order).toContain(money(saleCents(firstTier.price)));
    // The quantity dropdown too: the chosen package and every option, list price struck through.
    const dropdown = /data-testid="quantity-dropdown"[\s\S]*?<\/ul>/.exec(order)?.[0] ?? '';
    expect(dropdown).toMatch(
      new RegExp(
        `data-testid="list-price"[^>]*>.*?\\${money(cents(firstTier.price))}</del>.*?\\${money(saleCents(firstTier.price))}`,
      ),
    );
    const options = [...dropdown.matchAll(/data-testid="quantity-option"[\s\S]*?<\/a>/g)].map((match) => match[0]);
    expect(options).toHaveLength(standard.tiers.length);
    for (const [i, option] of options.entries()) {
      const tier = standard.tiers[i];
      expect(option).toContain(`${money(cents(tier.price))}</del>`);
      expect(option).toContain(money(saleCents(tier.price)));
    }
  });

  it('during the sale: the order is created and charged at the reduced price, and keeps it after the sale', async () => {
    now = SALE_START + HOUR;
    const created = await createOrder(followers.slug, standard.type, firstTier.qty, {
      amount: saleCents(firstTier.price) / 100,
    });
    expect(created.statusCode, created.body).toBe(200);
    const data = created.json().data;
    expect(data.amountCents).toBe(saleCents(firstTier.price));
    expect(data.packagePriceCents).toBe(saleCents(firstTier.price));
    // The payment window shows the list price struck through: the order remembers it (decision 038).
    expect(data.listPriceCents).toBe(cents(firstTier.price));
    expect(await storedOrder(data.razorpay_order_id)).toMatchObject({
      price_e4: saleCents(firstTier.price) * 100,
      list_price_e4: cents(firstTier.price) * 100,
      amount_e4: saleCents(firstTier.price) * 100,
    });

    // The sale ends before the buyer pays: the order still charges what it showed.
    now = SALE_END + HOUR;
    const paid = (
      await t.app.inject({
        method: 'POST',
        url: '/api/sandbox/pay',
        remoteAddress: nextAddress(),
        payload: { razorpay_order_id: data.razorpay_order_id },
      })
    ).json().data;
    const verified = await t.app.inject({
      method: 'POST',
      url: '/api/order/verify-payment',
      remoteAddress: nextAddress(),
      payload: paid,
    });
    expect(verified.statusCode, verified.body).toBe(200);
    const publicId = String(data.razorpay_order_id).replace(/^order_/, '');
    const status = (await t.app.inject({ method: 'GET', url: `/api/order/order-status?orderId=${publicId}` })).json()
      .data;
    expect(status.amount).toBe(saleCents(firstTier.price) / 100);
  });

  it.runIf(cheap !== undefined)('the processing fee for totals of 1 or less applies after the sale', async () => {
    now = SALE_START + HOUR;
    const { s, p, t: tier } = cheap!;
    const name = s.targetKind === 'instagram_post_url' ? 'https://www.instagram.com/p/Cabc123/' : 'sale.buyer';
    const created = await createOrder(s.slug, p.type, tier.qty, { name });
    expect(created.statusCode, created.body).toBe(200);
    const data = created.json().data;
    expect(data.packagePriceCents).toBe(saleCents(tier.price));
    expect(data.amountCents).toBe(saleCents(tier.price) + 100);
  });

  it('a price the page showed before the sale ended is refused, not charged differently', async () => {
    now = SALE_END;
    const created = await createOrder(followers.slug, standard.type, firstTier.qty, {
      amount: saleCents(firstTier.price) / 100,
    });
    expect(created.statusCode).toBe(409);
    expect(created.json().message).toContain(money(cents(firstTier.price)));
  });

  it('after the sale: no banner, full prices shown and charged', async () => {
    now = SALE_END + 2 * HOUR;
    for (const url of ['/', `/service/${followers.slug}`, orderPath(followers.slug, firstTier.qty, standard.type)]) {
      const html = await page(url);
      expect(html, url).not.toContain('data-testid="top-bar"');
      expect(html, url).not.toContain('data-testid="list-price"');
    }
    const created = await createOrder(followers.slug, standard.type, firstTier.qty);
    expect(created.json().data.amountCents).toBe(cents(firstTier.price));
  });

  it('the order page counts orders really paid in the last 24 hours', async () => {
    // One order was paid above, at SALE_END + 1 h (the clock's time then).
    now = SALE_END + 3 * HOUR;
    const orderUrl = orderPath(followers.slug, firstTier.qty, standard.type);
    const html = (await page(orderUrl)).replaceAll('<!-- -->', '');
    expect(html).not.toContain('208 people');
    expect(html).toMatch(/data-testid="live-users"[\s\S]*?<strong>1<\/strong> order paid in the last 24 hours/);
    now = SALE_END + 26 * HOUR;
    expect(await page(orderUrl)).not.toContain('data-testid="live-users"');
  });

  it('the demo store (sandbox payments) shows no example reviews (decision 039) and no press quote', async () => {
    const home = await page('/');
    expect(home).not.toContain('data-testid="reviews"');
    expect(home).not.toContain('Example reviews');
    const order = await page(orderPath(followers.slug, firstTier.qty, standard.type));
    expect(order).not.toContain('Creator Economy Review');
  });
});

describe.each(dialects)('a store taking real payments on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, {
      withPages: true,
      env: { RAZORPAY_KEY_ID: 'rzp_test_honest', RAZORPAY_KEY_SECRET: 'secret', RAZORPAY_WEBHOOK_SECRET: 'hook' },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('renders no reviews at all, no banner, and no invented counter', async () => {
    const home = decodeEntities((await t.app.inject({ method: 'GET', url: '/' })).body);
    expect(home).toContain(followers.name);
    expect(home).not.toContain('data-testid="reviews"');
    expect(home).not.toContain('Maya Thompson');
    expect(home).not.toContain('data-testid="top-bar"');
    const order = decodeEntities(
      (await t.app.inject({ method: 'GET', url: orderPath(followers.slug, firstTier.qty, standard.type) })).body,
    );
    expect(order).not.toContain('data-testid="live-users"'); // nothing paid yet
    expect(order).not.toContain('people are buying right now');
  });
});

describe.each(dialects)('a sale on some services on %s', (dialect) => {
  let t: TestApp;
  const tiktok = catalogueSeed.groups[2];
  const likes = tiktok.services.find((s) => s.slug === 'tiktok-likes')!;
  const other = tiktok.services.find((s) => s.slug !== 'tiktok-likes')!;
  beforeAll(async () => {
    t = await startTestApp(dialect, {
      withPages: true,
      env: { ...SALE_ENV, SALE_SERVICES: likes.slug },
      overrides: { clock: () => new Date(SALE_START + HOUR) },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('reduces only the listed services in the catalogue API, keeping the list price beside it', async () => {
    const { data } = (await t.app.inject({ method: 'GET', url: `/api/services/${tiktok.slug}` })).json();
    const tierOf = (slug: string) =>
      (data.services as { slug: string; plans: { list: { price: number; listPrice?: number }[] }[] }[]).find(
        (s) => s.slug === slug,
      )!.plans[0].list[0];
    const listed = likes.plans[0].tiers[0];
    expect(tierOf(likes.slug)).toMatchObject({
      price: saleCents(listed.price) / 100,
      listPrice: Number(listed.price),
    });
    expect(tierOf(other.slug).price).toBe(Number(other.plans[0].tiers[0].price));
    expect(tierOf(other.slug).listPrice).toBeUndefined();
  });

  it("shows the banner, naming the covered service, on every page of that service's group only (decision 038)", async () => {
    const html = async (url: string) => {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      return decodeEntities(response.body);
    };
    // The group's address redirects to its first service, whose page offers the whole group.
    const group = await t.app.inject({ method: 'GET', url: `/service/${tiktok.slug}` });
    expect(group.statusCode).toBe(302);
    for (const service of tiktok.services) {
      const page = await html(`/service/${service.slug}`);
      expect(page, service.slug).toContain('data-testid="top-bar"');
      expect(page, service.slug).toContain(`Flash sale: 20% OFF on ${likes.name}`);
    }
    expect(await html('/')).toContain(`Flash sale: 20% OFF on ${likes.name}`);
    // Another group, and an uncovered service's order page: no banner.
    expect(await html(`/service/${followers.slug}`)).not.toContain('data-testid="top-bar"');
  });
});

describe.each(dialects)("a sale in Razorpay's payment window on %s", (dialect) => {
  let t: TestApp;
  let razorpay: FakeRazorpay;
  const keys = { keyId: 'rzp_test_sale', keySecret: 'sale-secret', webhookSecret: 'sale-hook' };
  beforeAll(async () => {
    razorpay = await startFakeRazorpay(keys);
    t = await startTestApp(dialect, {
      env: {
        ...SALE_ENV,
        RAZORPAY_KEY_ID: keys.keyId,
        RAZORPAY_KEY_SECRET: keys.keySecret,
        RAZORPAY_WEBHOOK_SECRET: keys.webhookSecret,
        RAZORPAY_API_URL: razorpay.url,
      },
      overrides: { clock: () => new Date(SALE_START + HOUR) },
    });
  });
  afterAll(async () => {
    await t?.close();
    await razorpay?.close();
  });

  it('names the list price and the sale price in the description, and charges the sale price', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/order',
      payload: {
        type: standard.type,
        slug: followers.slug,
        qty: firstTier.qty,
        name: 'sale.razorpay',
        email: 'sale.razorpay@example.com',
        order_id: '700001',
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const data = created.json().data;
    expect(data.listPriceCents).toBe(cents(firstTier.price));
    expect(data.checkout).toMatchObject({
      provider: 'razorpay',
      amount: saleCents(firstTier.price),
      description: `${followers.name} (sale: ${money(cents(firstTier.price))} → ${money(saleCents(firstTier.price))})`,
    });
    expect(razorpay.orders.get(data.checkout.order_id)?.amount).toBe(saleCents(firstTier.price));
  });
});

describe.each(dialects)('sale configuration at boot on %s', (dialect) => {
  it('refuses to start with a sale on a service the catalogue does not have', async () => {
    const database = await openTestDatabase(dialect);
    try {
      const config = loadConfig({
        NODE_ENV: 'test',
        ...SALE_ENV,
        SALE_SERVICES: 'instagram-followers,no-such-service',
      });
      await expect(openStore(config, database)).rejects.toThrow('SALE_SERVICES: no such service: no-such-service');
    } finally {
      await database.dispose();
    }
  });
});
