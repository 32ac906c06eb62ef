/**
 * The panel protocol's drip-feed and subscription orders (`add` with `runs, interval`; `add` with
 * `username, min, max, posts, delay, expiry` on a Subscriptions service), through the store's real
 * client, against both panels that run the protocol: the tests' fake and the store's simulated
 * panel on each database dialect.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSimulatedPanel } from '../../core/fulfilment/simulated-panel.ts';
import {
  SIMULATED_INSTAGRAM_AUTO_LIKES_SERVICE,
  SIMULATED_INSTAGRAM_DRIP_FEED_FOLLOWERS_SERVICE,
  SIMULATED_TIKTOK_AUTO_LIKES_SERVICE,
  firstPostPhaseMinutes,
} from '../../core/fulfilment/simulated-panel-variants.ts';
import { type SmmPanelError, createSmmPanelClient, panelExpiry } from '../../core/fulfilment/smm-panel-client.ts';
import type { NewSupplierOrder, SupplierPanel } from '../../core/fulfilment/supplier.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { SIMULATED_PANEL_PATH, simulatedPanelApi } from '../../server/api/simulated-panel.ts';
import {
  FAKE_AUTO_LIKES_SERVICE,
  FAKE_DRIP_FEED_FOLLOWERS_SERVICE,
  type FakeSmmPanel,
  startFakeSmmPanel,
} from '../fakes/smm-panel.ts';
import { type TestDatabase, dialects, openTestDatabase } from '../support/databases.ts';

const KEY = 'subscriptions-key';
const T0 = Date.parse('2026-11-27T10:00:00.000Z');
const DAY = 86_400_000;
const HOUR = 3_600_000;

interface PanelUnderTest {
  client: SupplierPanel;
  url: string;
  /** A Subscriptions service, a drip-feed followers service and a one-off service, by id. */
  likes: string;
  followers: string;
  oneOff: string;
  close(): Promise<void>;
}

let clock = T0;
const now = () => new Date(clock);

/** The raw `status` reply, to see the fields the client does not read (`runs`). */
async function rawStatus(url: string, order: string): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ key: KEY, action: 'status', order }).toString(),
  });
  return (await response.json()) as Record<string, unknown>;
}

/** A raw `add`, to send what the client never would. */
async function rawAdd(url: string, fields: Record<string, string>): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ key: KEY, action: 'add', ...fields }).toString(),
  });
  expect(response.status).toBe(200);
  return response.json();
}

async function startFake(): Promise<PanelUnderTest & { fake: FakeSmmPanel }> {
  const fake = await startFakeSmmPanel({ key: KEY, now });
  return {
    fake,
    client: createSmmPanelClient({ url: fake.url, key: KEY, timeoutMs: 5000 }),
    url: fake.url,
    likes: FAKE_AUTO_LIKES_SERVICE,
    followers: FAKE_DRIP_FEED_FOLLOWERS_SERVICE,
    oneOff: '1',
    close: () => fake.close(),
  };
}

/** The simulated panel; `roll` is every random number (a subscription fails below failureRate / 2). */
async function startSimulated(database: TestDatabase, failureRate = 0, roll = 0.5): Promise<PanelUnderTest> {
  const panel = createSimulatedPanel({
    db: database.db,
    key: KEY,
    deliverySeconds: 100,
    failureRate,
    random: () => roll,
    now,
    services: [{ service: '101', name: 'Instagram Followers', rate: '0.90', min: 10, max: 10_000 }],
  });
  const app: FastifyInstance = Fastify({ logger: false });
  await app.register(simulatedPanelApi, { panel });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  const url = `http://127.0.0.1:${address.port}${SIMULATED_PANEL_PATH}`;
  return {
    client: createSmmPanelClient({ url, key: KEY, timeoutMs: 5000 }),
    url,
    likes: SIMULATED_INSTAGRAM_AUTO_LIKES_SERVICE,
    followers: SIMULATED_INSTAGRAM_DRIP_FEED_FOLLOWERS_SERVICE,
    oneOff: '101',
    close: () => app.close(),
  };
}

const dripFeed = (panel: PanelUnderTest, fields: Partial<NewSupplierOrder> = {}): NewSupplierOrder =>
  ({
    kind: 'drip-feed',
    service: panel.followers,
    link: 'https://instagram.com/someone',
    quantity: 50,
    runs: 30,
    interval: 1440,
    ...fields,
  }) as NewSupplierOrder;

const subscription = (panel: PanelUnderTest, fields: Partial<NewSupplierOrder> = {}): NewSupplierOrder =>
  ({
    kind: 'subscription',
    service: panel.likes,
    username: 'someone',
    min: 100,
    max: 100,
    posts: 30,
    delay: 0,
    expiry: new Date(T0 + 30 * DAY),
    ...fields,
  }) as NewSupplierOrder;

const refusalOf = (client: SupplierPanel, order: NewSupplierOrder) =>
  client.add(order).then(
    () => null,
    (error: SmmPanelError) => `${error.kind}: ${error.message}`,
  );

type Target = 'fake' | `simulated on ${string}`;
const targets: Target[] = ['fake', ...dialects.map((dialect): Target => `simulated on ${dialect}`)];

describe.each(targets)('drip-feed and subscription orders: %s panel', (target) => {
  let panel: PanelUnderTest;
  let database: TestDatabase | undefined;

  beforeEach(async () => {
    clock = T0;
    if (target === 'fake') {
      panel = await startFake();
    } else {
      database = await openTestDatabase(target === 'simulated on postgres' ? 'postgres' : 'sqlite');
      await migrateToLatest(database.db);
      panel = await startSimulated(database);
    }
  });
  afterEach(async () => {
    await panel.close();
    await database?.dispose();
    database = undefined;
  });

  it('lists a Subscriptions service and a followers service that takes drip-feed', async () => {
    const services = await panel.client.services();
    expect(services.find((s) => s.service === panel.likes)).toMatchObject({ type: 'Subscriptions', refill: false });
    expect(services.find((s) => s.service === panel.followers)).toMatchObject({ type: 'Default', cancel: true });
    const raw = await fetch(panel.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ key: KEY, action: 'services' }).toString(),
    }).then((r) => r.json() as Promise<Record<string, unknown>[]>);
    expect(raw.find((s) => String(s.service) === panel.followers)).toMatchObject({ dripfeed: true });
  });

  it('takes a drip-feed and reports the whole order: remains of quantity × runs, runs done', async () => {
    const { order } = await panel.client.add(dripFeed(panel));
    expect(await panel.client.status(order)).toMatchObject({ status: 'Pending', remains: 1500, posts: null });
    expect(await rawStatus(panel.url, order)).toMatchObject({ status: 'Pending', remains: '1500', runs: '0' });
  });

  it('takes a subscription and reports the posts served', async () => {
    const { order } = await panel.client.add(subscription(panel));
    const status = await panel.client.status(order);
    expect(status).toMatchObject({ status: 'Pending', posts: 0 });
    const multi = await panel.client.statuses([order]);
    expect(multi.get(order)).toMatchObject({ posts: 0 });
  });

  it('a one-off order reports neither posts nor runs', async () => {
    const { order } = await panel.client.add({ service: panel.oneOff, link: 'https://instagram.com/a', quantity: 100 });
    const raw = await rawStatus(panel.url, order);
    expect(raw).not.toHaveProperty('posts');
    expect(raw).not.toHaveProperty('runs');
  });

  it('refuses a drip-feed outside the service or with bad runs or interval', async () => {
    const { client } = panel;
    expect(await refusalOf(client, dripFeed(panel, { quantity: 5 }))).toBe('api: Quantity less than minimal 10');
    expect(await refusalOf(client, dripFeed(panel, { quantity: 5001 }))).toBe(
      'api: Quantity greater than maximal 5000',
    );
    expect(await refusalOf(client, dripFeed(panel, { runs: 0 }))).toBe('api: Incorrect runs');
    expect(await refusalOf(client, dripFeed(panel, { interval: 0 }))).toBe('api: Incorrect interval');
    expect(await refusalOf(client, dripFeed(panel, { service: panel.likes }))).toBe('api: Incorrect request');
    const base = { service: panel.followers, link: 'https://instagram.com/a', quantity: '50' };
    expect(await rawAdd(panel.url, { ...base, runs: '3' })).toEqual({ error: 'Incorrect interval' });
    expect(await rawAdd(panel.url, { ...base, runs: '1.5', interval: '60' })).toEqual({ error: 'Incorrect runs' });
    expect(await rawAdd(panel.url, { ...base, runs: '-2', interval: '60' })).toEqual({ error: 'Incorrect runs' });
    expect(await rawAdd(panel.url, { ...base, runs: '2', interval: 'daily' })).toEqual({ error: 'Incorrect interval' });
  });

  it('refuses a subscription on another type, and a plain order on a Subscriptions service', async () => {
    const { client } = panel;
    expect(await refusalOf(client, subscription(panel, { service: panel.followers }))).toBe(
      'api: Incorrect service ID',
    );
    expect(await refusalOf(client, subscription(panel, { service: panel.oneOff }))).toBe('api: Incorrect service ID');
    expect(await refusalOf(client, subscription(panel, { service: '987654' }))).toBe('api: Incorrect service ID');
    expect(await refusalOf(client, { service: panel.likes, link: 'https://instagram.com/a', quantity: 100 })).toBe(
      'api: Incorrect request',
    );
  });

  it("refuses a subscription's bad fields in the panel's words", async () => {
    const { client } = panel;
    const cases: [Partial<NewSupplierOrder>, string][] = [
      [{ username: ' ' }, 'Incorrect username'],
      [{ username: 'two words' }, 'Incorrect username'],
      [{ min: 0 }, 'Incorrect min or max'],
      [{ min: 200, max: 100 }, 'Incorrect min or max'],
      [{ min: 10, max: 100 }, 'Quantity less than minimal 50'],
      [{ min: 100, max: 6000 }, 'Quantity greater than maximal 5000'],
      [{ posts: 0 }, 'Incorrect posts'],
      [{ delay: 7 }, 'Incorrect delay'],
      [{ delay: 601 }, 'Incorrect delay'],
      [{ expiry: new Date(T0) }, 'Incorrect expiry date'], // today: nothing left to serve
      [{ expiry: new Date(T0 - DAY) }, 'Incorrect expiry date'],
    ];
    for (const [fields, error] of cases) {
      expect(await refusalOf(client, subscription(panel, fields)), JSON.stringify(fields)).toBe(`api: ${error}`);
    }
    const base = { service: panel.likes, username: 'someone', min: '100', max: '100', delay: '0' };
    for (const expiry of ['31/02/2027', '2027-01-01', '1/13/2027', 'soon', '']) {
      expect(await rawAdd(panel.url, { ...base, expiry }), expiry).toEqual({ error: 'Incorrect expiry date' });
    }
    expect(await rawAdd(panel.url, { ...base, delay: '' })).toEqual({ error: 'Incorrect delay' });
    const { delay: _delay, ...withoutDelay } = base;
    expect(await rawAdd(panel.url, withoutDelay)).toEqual({ error: 'Incorrect delay' });
    expect(await rawAdd(panel.url, { ...base, old_posts: 'x' })).toEqual({ error: 'Incorrect posts' });
    expect(await rawAdd(panel.url, { ...base, posts: '-1' })).toEqual({ error: 'Incorrect posts' });
    expect(await rawAdd(panel.url, { ...base, min: '', max: '100' })).toEqual({ error: 'Incorrect min or max' });
    // What nothing refused is one order; every refusal above created none.
    const accepted = (await rawAdd(panel.url, { ...base, expiry: '1/1/2027', old_posts: '2' })) as { order: number };
    expect(accepted.order).toEqual(expect.any(Number));
    const accepted2 = (await rawAdd(panel.url, { ...base, username: 'other', service: ` ${panel.likes} ` })) as {
      order: number;
    };
    expect(accepted2.order).toBe(accepted.order + 1);
  });

  it('takes every delay panels offer, and no posts or expiry (no limit)', async () => {
    for (const delay of [0, 5, 10, 15, 30, 60, 90, 600]) {
      await panel.client.add(subscription(panel, { delay }));
    }
    const { order } = await rawAdd(panel.url, {
      service: panel.likes,
      username: 'someone',
      min: '50',
      max: '5000',
      delay: '90',
    }).then((reply) => reply as { order: number });
    expect(await panel.client.status(String(order))).toMatchObject({ posts: 0 });
  });

  it('cancels a running subscription and a running drip-feed; a cancelled one is not cancelled again', async () => {
    const likes = await panel.client.add(subscription(panel));
    const followers = await panel.client.add(dripFeed(panel));
    expect(await panel.client.cancel([likes.order, followers.order])).toEqual([
      { order: likes.order, cancelled: true },
      { order: followers.order, cancelled: true },
    ]);
    expect(await panel.client.status(likes.order)).toMatchObject({ status: 'Canceled', posts: 0 });
    expect(await panel.client.status(followers.order)).toMatchObject({ status: 'Canceled', remains: 1500 });
    expect(await panel.client.cancel([likes.order])).toEqual([
      { order: likes.order, cancelled: false, error: 'Order cannot be canceled' },
    ]);
  });

  it('never refills a subscription (its service has no refill)', async () => {
    const { order } = await panel.client.add(subscription(panel));
    await expect(panel.client.refill(order)).rejects.toMatchObject({
      kind: 'api',
      message: 'Refill is disabled for this service',
    });
  });

  it('answers a JSON subscription add like a form one', async () => {
    const response = await fetch(panel.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        key: KEY,
        action: 'add',
        service: Number(panel.likes),
        username: 'someone',
        min: 100,
        max: 200,
        posts: 10,
        delay: 30,
        expiry: panelExpiry(new Date(T0 + 7 * DAY)),
      }),
    });
    expect(await response.json()).toEqual({ order: expect.any(Number) });
  });
});

describe('the fake panel plays drip-feeds and subscriptions', () => {
  let panel: Awaited<ReturnType<typeof startFake>>;
  beforeEach(async () => {
    clock = T0;
    panel = await startFake();
  });
  afterEach(() => panel.close());

  it('keeps every add it received, with the fields the store sent', async () => {
    await panel.client.add(subscription(panel));
    await panel.client.add(dripFeed(panel));
    await refusalOf(panel.client, subscription(panel, { delay: 7 }));
    expect(panel.fake.addRequests()).toEqual([
      {
        action: 'add',
        service: FAKE_AUTO_LIKES_SERVICE,
        username: 'someone',
        min: '100',
        max: '100',
        posts: '30',
        delay: '0',
        expiry: '27/12/2026',
      },
      {
        action: 'add',
        service: FAKE_DRIP_FEED_FOLLOWERS_SERVICE,
        link: 'https://instagram.com/someone',
        quantity: '50',
        runs: '30',
        interval: '1440',
      },
      expect.objectContaining({ delay: '7' }),
    ]);
    expect([...panel.fake.orders.values()].map((o) => [o.subscription, o.dripFeed])).toEqual([
      [
        { username: 'someone', min: 100, max: 100, posts: 30, oldPosts: null, delay: 0, expiry: '27/12/2026' },
        undefined,
      ],
      [undefined, { runs: 30, interval: 1440 }],
    ]);
  });

  it('publishPosts serves new posts until the subscription has served all it was bought for', async () => {
    const { order } = await panel.client.add(subscription(panel, { posts: 3 }));
    panel.fake.publishPosts(order, 2);
    expect(await panel.client.status(order)).toMatchObject({ status: 'In Progress', posts: 2 });
    panel.fake.publishPosts(order, 5);
    expect(await panel.client.status(order)).toMatchObject({ status: 'Completed', posts: 3 });
    expect(() => panel.fake.publishPosts(order)).toThrow(/Completed/);
  });

  it('runDripFeed delivers runs: remains falls by quantity per run, Completed after the last', async () => {
    const { order } = await panel.client.add(dripFeed(panel, { quantity: 20, runs: 3 }));
    panel.fake.runDripFeed(order);
    expect(await panel.client.status(order)).toMatchObject({ status: 'In Progress', remains: 40 });
    expect(await rawStatus(panel.url, order)).toMatchObject({ runs: '1', remains: '40' });
    panel.fake.runDripFeed(order, 5);
    expect(await panel.client.status(order)).toMatchObject({ status: 'Completed', remains: 0 });
    expect(await rawStatus(panel.url, order)).toMatchObject({ runs: '3' });
  });

  it('endSubscription: the panel ends it by itself, Canceled or Completed, keeping the posts served', async () => {
    const first = await panel.client.add(subscription(panel));
    const second = await panel.client.add(subscription(panel));
    panel.fake.publishPosts(first.order, 4);
    panel.fake.endSubscription(first.order);
    panel.fake.endSubscription(second.order, 'Completed');
    expect(await panel.client.status(first.order)).toMatchObject({ status: 'Canceled', posts: 4 });
    expect(await panel.client.status(second.order)).toMatchObject({ status: 'Completed', posts: 0 });
    expect(() => panel.fake.runDripFeed(first.order)).toThrow(/No drip-feed/);
  });
});

describe.each(dialects)('the simulated panel moves drip-feeds and subscriptions by the clock on %s', (dialect) => {
  let database: TestDatabase;
  let panel: PanelUnderTest;
  beforeEach(async () => {
    clock = T0;
    database = await openTestDatabase(dialect);
    await migrateToLatest(database.db);
  });
  afterEach(async () => {
    await panel.close();
    await database.dispose();
  });

  it('a drip-feed delivers one run per interval and completes after its last run', async () => {
    panel = await startSimulated(database);
    const { order } = await panel.client.add(dripFeed(panel, { quantity: 50, runs: 3, interval: 1440 }));
    clock = T0 + 9_000; // before the start (10 % of 100 s)
    expect(await rawStatus(panel.url, order)).toMatchObject({ status: 'Pending', runs: '0', remains: '150' });
    clock = T0 + 10_000;
    expect(await rawStatus(panel.url, order)).toMatchObject({ status: 'In progress', runs: '1', remains: '100' });
    clock = T0 + 10_000 + DAY - 1;
    expect(await rawStatus(panel.url, order)).toMatchObject({ runs: '1' });
    clock = T0 + 10_000 + DAY;
    expect(await rawStatus(panel.url, order)).toMatchObject({ status: 'In progress', runs: '2', remains: '50' });
    clock = T0 + 10_000 + 2 * DAY;
    expect(await panel.client.status(order)).toMatchObject({ status: 'Completed', remains: 0, charge: '0.1800' });
    const row = await database.db
      .selectFrom('simulated_panel_orders')
      .selectAll()
      .where('id', '=', Number(order))
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      kind: 'drip-feed',
      quantity: 50,
      runs: 3,
      run_interval_minutes: 1440,
      runs_done: 3,
      delivered_at: new Date(T0 + 10_000 + 2 * DAY).toISOString(),
    });
  });

  it('a subscription serves a new post every 20 hours after its delay, and completes at its expiry', async () => {
    panel = await startSimulated(database);
    const { order } = await panel.client.add(subscription(panel, { delay: 30, expiry: new Date(T0 + 3 * DAY) }));
    const phase = firstPostPhaseMinutes(Number(order), 1200);
    const firstServed = T0 + (phase + 30) * 60_000;
    clock = firstServed - 1;
    expect(await panel.client.status(order)).toMatchObject({ posts: 0 });
    clock = firstServed;
    expect(await panel.client.status(order)).toMatchObject({ status: 'In Progress', posts: 1 });
    clock = firstServed + 20 * HOUR;
    expect(await panel.client.status(order)).toMatchObject({ status: 'In Progress', posts: 2, charge: '0.0700' });
    // The expiry 30/11/2026 is served through its last day; the panel completes it at midnight.
    const endsAt = Date.parse('2026-12-01T00:00:00.000Z');
    clock = endsAt - 1;
    const before = await panel.client.status(order);
    expect(before.status).toBe('In Progress');
    clock = endsAt;
    const done = await panel.client.status(order);
    expect(done).toMatchObject({ status: 'Completed', posts: before.posts });
    expect(done.posts).toBe(1 + Math.floor((endsAt - 1 - firstServed) / (20 * HOUR)));
    clock = endsAt + 30 * DAY;
    expect(await panel.client.status(order)).toMatchObject({ status: 'Completed', posts: done.posts });
    const row = await database.db
      .selectFrom('simulated_panel_orders')
      .selectAll()
      .where('id', '=', Number(order))
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      kind: 'subscription',
      link: 'someone',
      username: 'someone',
      min_per_post: 100,
      max_per_post: 100,
      posts: 30,
      delay_minutes: 30,
      expires_at: new Date(endsAt).toISOString(),
      posts_served: done.posts,
      delivered_at: new Date(endsAt).toISOString(),
    });
  });

  it('a subscription completes once it has served its posts', async () => {
    panel = await startSimulated(database);
    const { order } = await panel.client.add(subscription(panel, { posts: 2 }));
    const firstServed = T0 + firstPostPhaseMinutes(Number(order), 1200) * 60_000;
    clock = firstServed + 20 * HOUR - 1;
    expect(await panel.client.status(order)).toMatchObject({ status: 'In Progress', posts: 1 });
    clock = firstServed + 20 * HOUR;
    expect(await panel.client.status(order)).toMatchObject({ status: 'Completed', posts: 2 });
  });

  it('the panel ends a subscription by itself (failure outcome): Canceled at 30 % of its period', async () => {
    panel = await startSimulated(database, 0.5, 0.2); // 0.2 < 0.5 / 2: the panel ends it
    const { order } = await panel.client.add(subscription(panel, { expiry: new Date(T0 + 10 * DAY) }));
    const endsAt = Date.parse('2026-12-08T00:00:00.000Z');
    const canceledAt = T0 + (endsAt - T0) * 0.3;
    clock = canceledAt - 1;
    expect((await panel.client.status(order)).status).toBe('In Progress');
    clock = canceledAt;
    const ended = await panel.client.status(order);
    expect(ended.status).toBe('Canceled');
    expect(ended.posts).toBeGreaterThan(0);
  });

  it('a cancel keeps the posts served and the runs done at that moment', async () => {
    panel = await startSimulated(database);
    const likes = await panel.client.add(subscription(panel));
    const followers = await panel.client.add(dripFeed(panel, { quantity: 10, runs: 5 }));
    clock = T0 + 3 * DAY;
    const served = (await panel.client.status(likes.order)).posts;
    expect(served).toBeGreaterThanOrEqual(3);
    expect(await panel.client.cancel([likes.order, followers.order])).toEqual([
      { order: likes.order, cancelled: true },
      { order: followers.order, cancelled: true },
    ]);
    clock = T0 + 20 * DAY;
    expect(await panel.client.status(likes.order)).toMatchObject({ status: 'Canceled', posts: served });
    expect(await rawStatus(panel.url, followers.order)).toMatchObject({ status: 'Canceled', runs: '3', remains: '20' });
  });

  it('lists the TikTok automatic likes service too, and its own services beside them', async () => {
    panel = await startSimulated(database);
    const ids = (await panel.client.services()).map((s) => s.service);
    expect(ids).toEqual([
      '101',
      SIMULATED_INSTAGRAM_AUTO_LIKES_SERVICE,
      SIMULATED_INSTAGRAM_DRIP_FEED_FOLLOWERS_SERVICE,
      SIMULATED_TIKTOK_AUTO_LIKES_SERVICE,
    ]);
  });
});
