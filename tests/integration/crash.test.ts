/**
 * The worst moment to die: the store has sent an order to the supplier and the supplier has
 * taken it, but the answer has not reached the store yet. A real server process (`server/main.ts`)
 * is killed with SIGKILL right then (a proxy in front of the fake panel forwards the `add` call
 * and holds its reply), and started again on the same database. The restarted store must not
 * guess: the order is flagged for review (`needs_review`) and the supplier never gets it twice.
 * The same for a subscription (automatic likes, decision 057), sent once as one `add`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DialectName } from '../../db/database.ts';
import { FAKE_AUTO_LIKES_SERVICE, type FakeSmmPanel, followersService, startFakeSmmPanel } from '../fakes/smm-panel.ts';
import { orderBody, supplierServiceId } from '../scale/order-body.ts';
import { startPanelProxy } from '../fakes/panel-proxy.ts';
import { processDatabase } from '../support/server-process.ts';
import { dialects } from '../support/databases.ts';
import { waitFor } from '../support/wait-for.ts';

const PANEL_KEY = 'crash-panel-key';
/** The shortest lease the store accepts: the restarted process takes the dead one's job over soon. */
const LEASE_SECONDS = 3;

/**
 * In front of the fake panel: forwards every call; the first `add` after `holdNextAdd()` is
 * forwarded too (the supplier takes the order) but its reply is kept from the store.
 */
async function startHoldingProxy(upstream: string) {
  const adds: string[] = [];
  let holding: ((order: string) => void) | null = null;
  const proxy = await startPanelProxy(upstream, {
    route: (call) => (call.action === 'add' && holding ? 'withhold-reply' : 'forward'),
    onReply: (call, text, route) => {
      if (call.action !== 'add') return;
      adds.push(text);
      if (route !== 'withhold-reply') return;
      const caught = holding;
      holding = null;
      caught?.(text);
    },
  });
  return {
    ...proxy,
    /** Every `add` the store sent, as the panel answered it. */
    adds,
    /** Resolves with the panel's answer once the next `add` has been taken and its reply held. */
    holdNextAdd: () => new Promise<string>((resolve) => (holding = resolve)),
  };
}

/** The promise's value, or a failure naming what did not happen in time. */
async function within<T>(promise: Promise<T>, ms: number, what: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out waiting for ${what()}`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A buyer's sandbox purchase on the running store: the order, the payment and the browser's
 * verification (which queues the fulfilment job). Returns the order's provider id.
 */
async function buyInSandbox(server: { url: string; output: () => string }, body: object): Promise<string> {
  const post = (path: string, payload: object) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    });
  const created = await post('/api/order', body);
  expect(created.status, server.output()).toBe(200);
  const { razorpay_order_id: providerOrderId } = ((await created.json()) as { data: { razorpay_order_id: string } })
    .data;
  const paid = await post('/api/sandbox/pay', { razorpay_order_id: providerOrderId });
  expect(paid.status, server.output()).toBe(200);
  const verified = await post('/api/order/verify-payment', ((await paid.json()) as { data: object }).data);
  expect(verified.status, server.output()).toBe(200);
  return providerOrderId;
}

describe.each(dialects)('a server killed inside a supplier submission (%s)', (dialect: DialectName) => {
  let panel: FakeSmmPanel;
  let proxy: Awaited<ReturnType<typeof startHoldingProxy>>;
  let store: Awaited<ReturnType<typeof processDatabase>>;

  beforeAll(async () => {
    panel = await startFakeSmmPanel({ key: PANEL_KEY });
    panel.services.push(followersService(supplierServiceId));
    proxy = await startHoldingProxy(panel.url);
    store = await processDatabase(dialect, 'crash');
  });
  afterAll(async () => {
    await store?.close();
    await proxy?.close();
    await panel?.close();
  });

  /** The store's environment: the fake panel behind the proxy, and short job leases. */
  const storeEnv = () => ({
    SMM_PANEL_URL: proxy.url,
    SMM_PANEL_KEY: PANEL_KEY,
    // Simulated payments with a (fake) real panel: the explicit opt-in of decision 014.
    SANDBOX_PAYMENTS: 'allow',
    RAZORPAY_KEY_ID: '',
    RAZORPAY_KEY_SECRET: '',
    JOB_LEASE_SECONDS: String(LEASE_SECONDS),
    JOB_POLL_MS: '100',
  });

  it(
    'flags the order for review after the restart and never sends it to the supplier twice',
    { timeout: 180_000 },
    async () => {
      const { database } = store;
      const env = storeEnv();
      const first = await store.start(env);

      // Paying (and the browser's verification) queues the fulfilment job; the supplier takes the
      // order and its reply is held.
      const submitted = proxy.holdNextAdd();
      const providerOrderId = await buyInSandbox(first, orderBody('crash', 1));
      const panelAnswer = JSON.parse(
        await within(submitted, 60_000, () => `the store to send the order to the supplier:\n${first.output()}`),
      ) as { order?: number };
      expect(panelAnswer.order).toBeGreaterThan(0);

      // Dead in the middle: the supplier has the order, the store has not recorded it.
      first.child.kill('SIGKILL');
      expect(await first.exited).toBe('SIGKILL');
      const row = () =>
        database.db
          .selectFrom('orders')
          .select(['id', 'payment_status', 'fulfilment_state', 'needs_review', 'review_reason'])
          .where('provider_order_id', '=', providerOrderId)
          .executeTakeFirstOrThrow();
      expect(await row()).toMatchObject({ payment_status: 'paid', fulfilment_state: 'submitting' });

      const second = await store.start(env);
      await waitFor(async () => (await row()).fulfilment_state === 'needs_review', {
        timeout: 30_000,
        interval: 200,
        message: 'the restarted store to flag the interrupted submission for review',
      });
      const flagged = await row();
      expect(flagged.needs_review).toBe(1);
      expect(flagged.review_reason).toMatch(/supplier/i);

      // Give the restarted store time for more attempts it must not make: two more leases.
      await new Promise((resolve) => setTimeout(resolve, 2 * LEASE_SECONDS * 1000));
      expect(proxy.adds).toHaveLength(1);
      expect(panel.orders.size).toBe(1);
      const supplierRows = await database.db
        .selectFrom('supplier_orders')
        .select('id')
        .where('order_id', '=', flagged.id)
        .execute();
      expect(supplierRows).toHaveLength(0);
      expect((await row()).fulfilment_state).toBe('needs_review');

      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    },
  );
  it(
    'never sends a subscription twice either: killed inside its submission, it is flagged, not resent',
    { timeout: 180_000 },
    async () => {
      const { database } = store;
      const env = storeEnv();
      // The package this suite buys, sold as automatic likes on the fake panel's Subscriptions
      // service (the catalogue was seeded by the first boot; the next boot reads it).
      const service = await database.db
        .selectFrom('services')
        .select('id')
        .where('slug', '=', orderBody('crash', 2).slug)
        .executeTakeFirstOrThrow();
      await database.db
        .updateTable('services')
        .set({ kind: 'automatic_likes', period_days: 30, posts_per_period: 30, post_delay_minutes: 0 })
        .where('id', '=', service.id)
        .execute();
      const plans = await database.db.selectFrom('plans').select('id').where('service_id', '=', service.id).execute();
      await database.db
        .updateTable('price_tiers')
        .set({ supplier_service_id: FAKE_AUTO_LIKES_SERVICE })
        .where(
          'plan_id',
          'in',
          plans.map((p) => p.id),
        )
        .execute();
      await database.db
        .updateTable('catalogue_content')
        .set((eb) => ({ version: eb('version', '+', 1) }))
        .where('id', '=', 1)
        .execute();
      const addsBefore = proxy.adds.length;
      const panelOrdersBefore = panel.orders.size;
      const first = await store.start(env);

      const submitted = proxy.holdNextAdd();
      const providerOrderId = await buyInSandbox(first, orderBody('crash', 2));
      await within(submitted, 60_000, () => `the store to send the subscription to the supplier:\n${first.output()}`);
      const sent = panel.addRequests().at(-1);
      expect(sent).toMatchObject({ service: FAKE_AUTO_LIKES_SERVICE, username: 'crash.buyer2', posts: '30' });

      first.child.kill('SIGKILL');
      expect(await first.exited).toBe('SIGKILL');
      const row = () =>
        database.db
          .selectFrom('orders')
          .select(['id', 'kind', 'fulfilment_state', 'needs_review'])
          .where('provider_order_id', '=', providerOrderId)
          .executeTakeFirstOrThrow();
      expect(await row()).toMatchObject({ kind: 'automatic_likes', fulfilment_state: 'submitting' });

      const second = await store.start(env);
      await waitFor(async () => (await row()).fulfilment_state === 'needs_review', {
        timeout: 30_000,
        interval: 200,
        message: 'the restarted store to flag the interrupted subscription for review',
      });
      await new Promise((resolve) => setTimeout(resolve, 2 * LEASE_SECONDS * 1000));
      expect(proxy.adds.length - addsBefore).toBe(1);
      expect(panel.orders.size - panelOrdersBefore).toBe(1);
      const flagged = await row();
      expect(flagged.needs_review).toBe(1);
      expect(
        await database.db.selectFrom('supplier_orders').select('id').where('order_id', '=', flagged.id).execute(),
      ).toHaveLength(0);

      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    },
  );
});
