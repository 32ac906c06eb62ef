import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type SimulatedPanelOptions,
  createSimulatedPanel,
  simulatedPanelFetch,
} from '../../core/fulfilment/simulated-panel.ts';
import { type SmmPanelError, createSmmPanelClient } from '../../core/fulfilment/smm-panel-client.ts';
import { type SupplierOrderStatus, type SupplierPanel, isSupplierStatusError } from '../../core/fulfilment/supplier.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { SIMULATED_PANEL_PATH, simulatedPanelApi } from '../../server/api/simulated-panel.ts';
import { type TestDatabase, dialects, openTestDatabase } from '../support/databases.ts';

const KEY = 'simulated-key';
const T0 = Date.parse('2025-03-01T12:00:00.000Z');
const DELIVERY_SECONDS = 100;
const SERVICES = [
  { service: '101', name: 'Instagram Followers', rate: '0.2782' },
  { service: '102', name: 'YouTube Views', rate: '1.50', min: 100, max: 5000 },
];

/** random() answers: outcome roll, start count share, partial share (see simulated-panel.ts). */
const COMPLETE = [0.5, 0.5, 0.5];
const PARTIAL = [0.01, 0.7, 0.5]; // < failureRate / 2; leaves 35 % undelivered
const CANCEL = [0.07, 0.2, 0.5]; // between failureRate / 2 and failureRate

describe.each(dialects)('simulated SMM panel on %s', (dialect) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let client: SupplierPanel;
  let url: string;
  let clock: number;
  let rolls: number[];

  const at = (seconds: number) => {
    clock = T0 + seconds * 1000;
  };
  const status = async (order: string): Promise<SupplierOrderStatus> => client.status(order);

  /** The panel's options as most tests want them: scripted random numbers and a clock the test moves. */
  const panelOptions = (): SimulatedPanelOptions => ({
    db: database.db,
    key: KEY,
    deliverySeconds: DELIVERY_SECONDS,
    failureRate: 0.1,
    random: () => {
      const next = rolls.shift();
      if (next === undefined) throw new Error('test ran out of random numbers');
      return next;
    },
    now: () => new Date(clock),
    services: SERVICES,
  });

  async function start(options: SimulatedPanelOptions = panelOptions()) {
    const panel = createSimulatedPanel(options);
    app = Fastify({ logger: false });
    await app.register(simulatedPanelApi, { panel });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    url = `http://127.0.0.1:${address.port}${SIMULATED_PANEL_PATH}`;
    client = createSmmPanelClient({ url, key: KEY, timeoutMs: 5000 });
    return panel;
  }

  beforeEach(async () => {
    database = await openTestDatabase(dialect);
    await migrateToLatest(database.db);
    clock = T0;
    rolls = [];
  });
  afterEach(async () => {
    await app?.close();
    await database.dispose();
  });

  it('migrations are idempotent', async () => {
    expect(await migrateToLatest(database.db)).toEqual([]);
    const order = await database.db.selectFrom('orders').select(['fulfilment_state', 'refunded_e4']).executeTakeFirst();
    expect(order).toBeUndefined();
  });

  it('lists its services and balance as panels do', async () => {
    await start();
    const services = await client.services();
    // Its own two, then the drip-feed and subscription services it always offers.
    expect(services.map((s) => s.service)).toEqual(['101', '102', '1111', '1121', '1131']);
    expect(services[0]).toMatchObject({
      service: '101',
      name: 'Instagram Followers',
      rate: 0.2782,
      rateE4: 2782,
      min: 1,
      refill: true,
      cancel: true,
    });
    expect(services[1]).toMatchObject({ service: '102', rateE4: 15000, min: 100, max: 5000 });
    expect(await client.balance()).toEqual({ balance: '1000.00', currency: 'USD' });
  });

  it('delivers gradually: Pending, In progress with falling remains, Completed', async () => {
    await start();
    rolls.push(...COMPLETE);
    const { order } = await client.add({ service: '101', link: 'https://instagram.com/someone', quantity: 1000 });
    expect(order).toMatch(/^\d+$/);

    expect(await status(order)).toEqual({
      status: 'Pending',
      rawStatus: 'Pending',
      charge: '0.2782',
      startCount: 2500,
      remains: 1000,
      currency: 'USD',
      posts: null,
      runs: null,
    });
    at(9);
    expect((await status(order)).status).toBe('Pending');

    at(20);
    const early = await status(order);
    expect(early).toMatchObject({ status: 'In Progress', rawStatus: 'In progress' });
    at(60);
    const later = await status(order);
    expect(later.rawStatus).toBe('In progress');
    expect(later.remains).toBeLessThan(early.remains as number);
    expect(later.remains).toBeGreaterThan(0);
    expect(later.remains).toBe(445); // 1000 − ⌊1000 × 0.5 / 0.9⌋

    at(100);
    expect(await status(order)).toMatchObject({
      status: 'Completed',
      rawStatus: 'Completed',
      remains: 0,
      charge: '0.2782',
    });
    const row = await database.db
      .selectFrom('simulated_panel_orders')
      .selectAll()
      .where('id', '=', Number(order))
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      status: 'Completed',
      remains: 0,
      outcome: 'complete',
      delivered_at: new Date(T0 + 100_000).toISOString(),
    });

    at(10_000); // final: stays as it was
    expect(await status(order)).toMatchObject({ status: 'Completed', remains: 0 });
  });

  it('sends status replies with numbers as strings, as real panels do', async () => {
    await start();
    rolls.push(...COMPLETE);
    const { order } = await client.add({ service: '102', link: 'https://youtu.be/abc', quantity: 200 });
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ key: KEY, action: 'status', order }).toString(),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      charge: '0.3000',
      start_count: '2500',
      status: 'Pending',
      remains: '200',
      currency: 'USD',
    });
  });

  it('accepts JSON bodies too', async () => {
    await start();
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key: KEY, action: 'balance' }),
    });
    expect(await response.json()).toEqual({ balance: '1000.00', currency: 'USD' });
  });

  it('a partial outcome ends Partial with the remains fixed at creation', async () => {
    await start();
    rolls.push(...PARTIAL);
    const { order } = await client.add({ service: '101', link: 'https://instagram.com/someone', quantity: 1000 });
    expect((await status(order)).startCount).toBe(3500); // ⌊0.7 × 5001⌋
    at(55);
    const midway = await status(order);
    expect(midway.rawStatus).toBe('In progress');
    expect(midway.remains).toBe(675); // 1000 − 650 × 0.45 / 0.9
    at(100);
    expect(await status(order)).toMatchObject({ status: 'Partial', rawStatus: 'Partial', remains: 350 });
  });

  it('a cancel outcome ends Canceled at 30 % with what was undelivered', async () => {
    await start();
    rolls.push(...CANCEL);
    const { order } = await client.add({ service: '101', link: 'https://instagram.com/someone', quantity: 900 });
    at(29);
    expect((await status(order)).rawStatus).toBe('In progress');
    at(30);
    const canceled = await status(order);
    expect(canceled).toMatchObject({ status: 'Canceled', rawStatus: 'Canceled' });
    expect(canceled.remains).toBe(700); // 900 − 900 × 0.2 / 0.9
    expect(canceled.remains).toBeGreaterThan(0);
    expect(canceled.remains).toBeLessThan(900);
  });

  it('a first read after the end jumps straight to the final status', async () => {
    await start();
    rolls.push(...PARTIAL);
    const { order } = await client.add({ service: '101', link: 'https://x.example/p', quantity: 10 });
    at(500);
    expect(await status(order)).toMatchObject({ status: 'Partial', remains: 4 }); // round(10 × 0.35)
  });

  it('multi-status mixes known orders and errors', async () => {
    await start();
    rolls.push(...COMPLETE, ...CANCEL);
    const first = await client.add({ service: '101', link: 'https://instagram.com/a', quantity: 100 });
    const second = await client.add({ service: '101', link: 'https://instagram.com/b', quantity: 100 });
    at(50);
    const result = await client.statuses([first.order, second.order, '999999', 'abc']);
    expect([...result.keys()]).toEqual([first.order, second.order, '999999', 'abc']);
    expect(result.get(first.order)).toMatchObject({ status: 'In Progress' });
    expect(result.get(second.order)).toMatchObject({ status: 'Canceled' });
    expect(result.get('999999')).toEqual({ error: 'Incorrect order ID' });
    expect(result.get('abc')).toEqual({ error: 'Incorrect order ID' });
    expect(isSupplierStatusError(result.get('999999')!)).toBe(true);
  });

  it('cancels orders still running, with remains = quantity − delivered; refuses finished ones', async () => {
    await start();
    rolls.push(...COMPLETE, ...COMPLETE);
    const running = await client.add({ service: '101', link: 'https://instagram.com/a', quantity: 1000 });
    at(1);
    const done = await client.add({ service: '101', link: 'https://instagram.com/b', quantity: 100 });
    at(55);
    const before = await status(running.order);
    expect(before.rawStatus).toBe('In progress');

    at(101);
    expect((await status(done.order)).status).toBe('Completed');
    at(55); // back to the moment of the cancel for the running order
    const replies = await client.cancel([running.order, done.order, '424242']);
    expect(replies).toEqual([
      { order: running.order, cancelled: true },
      { order: done.order, cancelled: false, error: 'Order cannot be canceled' },
      { order: '424242', cancelled: false, error: 'Incorrect order ID' },
    ]);
    at(200);
    expect(await status(running.order)).toMatchObject({ status: 'Canceled', remains: before.remains });
    expect(await client.cancel([running.order])).toEqual([
      { order: running.order, cancelled: false, error: 'Order cannot be canceled' },
    ]);
  });

  it('refills Completed orders only', async () => {
    await start();
    rolls.push(...COMPLETE);
    const { order } = await client.add({ service: '101', link: 'https://instagram.com/a', quantity: 100 });
    await expect(client.refill(order)).rejects.toMatchObject({
      kind: 'api',
      message: 'Refill is not available for this order',
    });
    at(100);
    const { refill } = await client.refill(order);
    expect(await client.refillStatus(refill)).toMatchObject({ status: 'Pending' });
    // One running refill per order, as real panels do.
    await expect(client.refill(order)).rejects.toMatchObject({
      kind: 'api',
      message: 'Refill is already in progress for this order',
    });
    at(130);
    expect(await client.refillStatuses([refill, '999'])).toEqual(
      new Map([
        [refill, { status: 'In progress', rawStatus: 'In progress' }],
        ['999', { error: 'Refill not found' }],
      ]),
    );
    at(200);
    expect(await client.refillStatus(refill)).toMatchObject({ status: 'Completed' });
    expect((await client.refill(order)).refill).not.toBe(refill);
    await expect(client.refill('31337')).rejects.toMatchObject({ kind: 'api', message: 'Incorrect order ID' });
  });

  it('validates new orders', async () => {
    await start();
    const attempt = (order: { service: string; link: string; quantity: number }) =>
      client.add(order).then(
        () => null,
        (error: SmmPanelError) => `${error.kind}: ${error.message}`,
      );
    expect(await attempt({ service: '999', link: 'https://x', quantity: 10 })).toBe('api: Incorrect service ID');
    expect(await attempt({ service: '101', link: '  ', quantity: 10 })).toBe('api: Incorrect link');
    expect(await attempt({ service: '101', link: 'https://x', quantity: 0 })).toBe('api: Incorrect quantity');
    expect(await attempt({ service: '101', link: 'https://x', quantity: 1.5 })).toBe('api: Incorrect quantity');
    expect(await attempt({ service: '102', link: 'https://x', quantity: 50 })).toBe(
      'api: Quantity less than minimal 100',
    );
    expect(await database.db.selectFrom('simulated_panel_orders').select('id').execute()).toEqual([]);
  });

  it('stores comments joined by newline', async () => {
    await start();
    rolls.push(...COMPLETE);
    const { order } = await client.add({
      service: '101',
      link: 'https://instagram.com/p/x',
      quantity: 2,
      comments: ['Nice', 'Wow'],
    });
    const row = await database.db
      .selectFrom('simulated_panel_orders')
      .select(['comments', 'charge_e4'])
      .where('id', '=', Number(order))
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ comments: 'Nice\nWow', charge_e4: 6 }); // 2782 × 2 / 1000 = 5.564, rounded
  });

  it('answers a wrong key and an unknown action with { error } and HTTP 200', async () => {
    await start();
    const wrong = createSmmPanelClient({ url, key: 'wrong' });
    await expect(wrong.balance()).rejects.toMatchObject({ kind: 'api', message: 'Invalid API key' });
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `key=${KEY}&action=dance`,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ error: 'Incorrect request' });
  });

  it('works in-process through the same client', async () => {
    const panel = await start();
    const local = createSmmPanelClient({
      url: 'http://simulated-panel/api/v2',
      key: KEY,
      fetch: simulatedPanelFetch(panel),
    });
    rolls.push(...COMPLETE);
    const { order } = await local.add({ service: '101', link: 'https://instagram.com/a', quantity: 10 });
    expect((await client.status(order)).status).toBe('Pending');
  });

  it('uses the default random source and failure rate when not given', async () => {
    // Without `random` the panel falls back to its own source.
    const { random: _scripted, ...options } = panelOptions();
    await start({ ...options, failureRate: 0 });
    const { order } = await client.add({ service: '101', link: 'https://instagram.com/a', quantity: 10 });
    at(100);
    expect((await status(order)).status).toBe('Completed');
  });
});
