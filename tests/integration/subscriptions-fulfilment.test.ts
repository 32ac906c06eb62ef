/**
 * Subscriptions at the supplier (decision 057), per dialect, through the real store, the real
 * panel client and the fake panel over HTTP, with a fake Razorpay for refunds and the store's
 * clock moved by the test: automatic likes reach the panel once as a subscription and daily
 * followers once as a drip-feed; the sync keeps what the panel reports; the panel's own end, the
 * period's end and a cancel (customer, owner) end them, refunded by the rule; one order per link
 * at a time (the queue, a renewal, racing submissions).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { catalogueSeed } from '../../core/catalogue/seed/catalogue-seed.ts';
import { releaseStaleLanes } from '../../core/fulfilment/lanes.ts';
import { issueRefillToken } from '../../core/fulfilment/refills/tokens.ts';
import { panelExpiry } from '../../core/fulfilment/smm-panel-client.ts';
import { SUBSCRIPTION_SYNC_MINUTES } from '../../core/fulfilment/sync.ts';
import { e4ToCents } from '../../core/money/money.ts';
import { progressOfRow } from '../../core/orders/subscription-delivery.ts';
import { DAY_MS, unservedShare } from '../../core/subscriptions/terms.ts';
import { loadInstallSecret } from '../../core/settings/install-secret.ts';
import { type FakeRazorpay, startFakeRazorpay } from '../fakes/razorpay.ts';
import {
  FAKE_AUTO_LIKES_SERVICE,
  FAKE_DRIP_FEED_FOLLOWERS_SERVICE,
  type FakeSmmPanel,
  startFakeSmmPanel,
} from '../fakes/smm-panel.ts';
import { adminToken } from '../support/admin-session.ts';
import { bumpCatalogueVersion } from '../support/catalogue-version.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { createTestClock } from '../support/clock.ts';
import { dialects } from '../support/databases.ts';
import { placePaidOrder } from '../support/paid-order.ts';

const keys = { keyId: 'rzp_test_subs', keySecret: 'subs-secret', webhookSecret: 'subs-webhook' };
const instagramFollowers = catalogueSeed.groups[0].services[0];
const tiktokFollowers = catalogueSeed.groups[2].services[0];
/** Sold as automatic likes in this suite: 100 likes on each new post, 30 posts, 15 minutes after each. */
const likes = { slug: instagramFollowers.slug, type: instagramFollowers.plans[0].type, qty: 100 };
/** Sold as daily followers in this suite: 100 followers a day for 30 days. */
const daily = { slug: tiktokFollowers.slug, type: tiktokFollowers.plans[0].type, qty: 100 };
const SYNC_GAP_MS = (SUBSCRIPTION_SYNC_MINUTES + 1) * 60_000;

let sequence = 910_000;

describe.each(dialects)('subscriptions at the supplier on %s', (dialect) => {
  let t: TestApp;
  let panel: FakeSmmPanel;
  let razorpay: FakeRazorpay;
  let admins = 0;
  let tokenKey: string;
  const clock = createTestClock();

  beforeAll(async () => {
    panel = await startFakeSmmPanel({ key: 'subs-panel-key', now: clock.now });
    razorpay = await startFakeRazorpay(keys);
    t = await startTestApp(dialect, {
      env: {
        SMM_PANEL_URL: panel.url,
        SMM_PANEL_KEY: 'subs-panel-key',
        RAZORPAY_KEY_ID: keys.keyId,
        RAZORPAY_KEY_SECRET: keys.keySecret,
        RAZORPAY_API_URL: razorpay.url,
      },
      overrides: { clock: clock.now },
    });
    await sellAsSubscriptions();
    tokenKey = await loadInstallSecret(db(), 'refill-token.key');
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([panel?.close(), razorpay?.close()]);
  });
  beforeEach(() => {
    panel.setMode('normal');
    panel.refuseCancel(null);
    panel.cancelAtOnce(true);
  });

  const db = () => t.database.db;
  const order = (id: number) => db().selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const subscription = (id: number) =>
    db().selectFrom('subscriptions').selectAll().where('order_id', '=', id).executeTakeFirstOrThrow();
  const refunds = (id: number) => db().selectFrom('refunds').selectAll().where('order_id', '=', id).execute();
  const addsFor = (target: string) =>
    panel.addRequests().filter((add) => add.link === target || add.username === target);
  const timeline = async (id: number) =>
    (await db().selectFrom('order_events').select('kind').where('order_id', '=', id).orderBy('id').execute()).map(
      (e) => e.kind,
    );

  /** The two seeded followers services, sold as the subscription kinds on the fake panel's services. */
  async function sellAsSubscriptions() {
    const remap = async (slug: string, serviceId: string) => {
      const service = await db().selectFrom('services').select('id').where('slug', '=', slug).executeTakeFirstOrThrow();
      const plans = await db().selectFrom('plans').select('id').where('service_id', '=', service.id).execute();
      await db()
        .updateTable('price_tiers')
        .set({ supplier_service_id: serviceId })
        .where(
          'plan_id',
          'in',
          plans.map((p) => p.id),
        )
        .execute();
    };
    await db()
      .updateTable('services')
      .set({ kind: 'automatic_likes', period_days: 30, posts_per_period: 30, post_delay_minutes: 15 })
      .where('slug', '=', likes.slug)
      .execute();
    await db()
      .updateTable('services')
      .set({ kind: 'daily_followers', period_days: 30 })
      .where('slug', '=', daily.slug)
      .execute();
    await remap(likes.slug, FAKE_AUTO_LIKES_SERVICE);
    await remap(daily.slug, FAKE_DRIP_FEED_FOLLOWERS_SERVICE);
    await bumpCatalogueVersion(t);
  }

  /** A signed-in admin now (the suite moves the clock by weeks: a session of an earlier test has expired). */
  async function adminBearer(): Promise<string> {
    admins += 1;
    const email = `subs.admin${admins}@example.com`;
    const password = 'a long enough admin password';
    await t.store.adminAuth.createAdmin(email, password);
    return adminToken(t, { email, password }, '10.77.0.1', clock.now);
  }

  /** Runs every due job now (events, fulfilment, refunds, mail). */
  async function drainJobs() {
    for (;;) {
      await db()
        .updateTable('jobs')
        .set({ run_at: new Date(0).toISOString() })
        .where('status', '=', 'pending')
        .execute();
      if ((await t.store.worker.runOnce()) === 0) return;
    }
  }

  /** One sync round as the recurring job runs it, after the subscriptions' sync gap, then its follow-up jobs. */
  async function syncRound() {
    clock.advance(SYNC_GAP_MS);
    await t.store.fulfilment.syncStatuses();
    await drainJobs();
  }

  /** A paid order through the real API (not yet sent: its jobs have not run). */
  async function paid(what: typeof likes, name: string): Promise<number> {
    sequence += 1;
    return placePaidOrder(t, razorpay, { sequence, name, type: what.type, slug: what.slug, qty: what.qty, subnet: 77 });
  }

  /** A paid order sent to the panel; returns its id and its supplier order id. */
  async function running(what: typeof likes, name = `subs.${sequence + 1}`) {
    const id = await paid(what, name);
    await drainJobs();
    const row = await order(id);
    expect(row.supplier_order_id).not.toBeNull();
    return { id, supplierOrderId: row.supplier_order_id!, target: row.target };
  }

  it('sends automatic likes once, as a subscription on the username until the end of the period', async () => {
    const id = await paid(likes, 'likes.once');
    const row = await order(id);
    await drainJobs();
    await drainJobs();
    expect(await t.store.fulfilment.submit(id)).toBe('skipped');
    const sent = addsFor(row.target);
    expect(sent).toHaveLength(1);
    const sub = await subscription(id);
    expect(sub.starts_at).not.toBeNull();
    expect(new Date(sub.ends_at!).getTime() - new Date(sub.starts_at!).getTime()).toBe(30 * DAY_MS);
    // The period starts when the order reached the supplier: right after its payment.
    const paidAt = new Date((await order(id)).paid_at!).getTime();
    expect(new Date(sub.starts_at!).getTime() - paidAt).toBeGreaterThanOrEqual(0);
    expect(new Date(sub.starts_at!).getTime() - paidAt).toBeLessThan(60_000);
    expect(sent[0]).toMatchObject({
      action: 'add',
      service: FAKE_AUTO_LIKES_SERVICE,
      username: row.target,
      min: '100',
      max: '100',
      posts: '30',
      delay: '15',
      expiry: panelExpiry(new Date(sub.ends_at!)),
    });
    expect(sent[0]).not.toHaveProperty('link');
    expect(await order(id)).toMatchObject({ fulfilment_state: 'submitted', order_status: 'Processing' });
  });

  it('sends daily followers once, as a drip-feed of one run a day for the period', async () => {
    const { id, target, supplierOrderId } = await running(daily, 'daily.once');
    const sent = addsFor(target);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      service: FAKE_DRIP_FEED_FOLLOWERS_SERVICE,
      link: target,
      quantity: '100',
      runs: '30',
      interval: '1440',
    });
    const supplierOrder = await db()
      .selectFrom('supplier_orders')
      .selectAll()
      .where('supplier_order_id', '=', supplierOrderId)
      .executeTakeFirstOrThrow();
    // Its remains count against the whole feed.
    expect(supplierOrder.quantity).toBe(3000);
    expect((await subscription(id)).starts_at).not.toBeNull();
  });

  it('keeps what the panel reports while they run: posts served, runs done', async () => {
    const likesOrder = await running(likes, 'likes.progress');
    const dailyOrder = await running(daily, 'daily.progress');
    panel.publishPosts(likesOrder.supplierOrderId, 3);
    panel.runDripFeed(dailyOrder.supplierOrderId, 2);
    await syncRound();
    expect(await subscription(likesOrder.id)).toMatchObject({ posts_served: 3, ended_at: null });
    expect((await subscription(likesOrder.id)).panel_status).toMatch(/in progress/i);
    expect(await order(likesOrder.id)).toMatchObject({ order_status: 'In Progress' });
    expect(await subscription(dailyOrder.id)).toMatchObject({ runs_done: 2, ended_at: null });
    expect(await order(dailyOrder.id)).toMatchObject({ order_status: 'In Progress', remains: 2800 });
  });

  it('ends automatic likes the panel cancels by itself, and refunds the unserved share by the rule', async () => {
    const { id, supplierOrderId } = await running(likes, 'likes.panel_ends');
    panel.publishPosts(supplierOrderId, 6);
    await syncRound();
    panel.endSubscription(supplierOrderId, 'Canceled');
    await syncRound();
    const sub = await subscription(id);
    expect(sub).toMatchObject({ end_reason: 'panel', posts_served: 6 });
    expect(sub.ended_at).not.toBeNull();
    const row = await order(id);
    expect(row.order_status).toBe('Partial');
    const share = unservedShare(progressOfRow(sub), new Date(sub.ended_at!), 'panel');
    // 24 of 30 posts left, and nearly all of the time: the posts' share is the smaller.
    expect(share).toBeCloseTo(0.8, 5);
    const made = await refunds(id);
    expect(made).toHaveLength(1);
    expect(made[0].amount_e4).toBe(Math.floor(e4ToCents(row.amount_e4) * share) * 100);
    expect(row.refunded_e4).toBe(made[0].amount_e4);
    // The sync asks again: still one refund.
    await syncRound();
    expect(await refunds(id)).toHaveLength(1);
  });

  it('treats automatic likes past their period as Completed even if the panel says nothing, with no refund', async () => {
    const { id, supplierOrderId } = await running(likes, 'likes.expires');
    panel.publishPosts(supplierOrderId, 2);
    await syncRound();
    clock.advance(30 * DAY_MS);
    await syncRound();
    expect(await order(id)).toMatchObject({ order_status: 'Completed' });
    expect(await subscription(id)).toMatchObject({ end_reason: 'expired', posts_served: 2 });
    expect(await refunds(id)).toHaveLength(0);
  });

  it('cancels at the panel when the customer asks from /client, and refunds by the rule', async () => {
    const { id, supplierOrderId } = await running(likes, 'likes.customer_cancels');
    const row = await order(id);
    const cancel = (token: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/order/subscription/cancel',
        payload: { orderId: row.provider_order_id, token },
        remoteAddress: `10.78.0.${(sequence % 200) + 1}`,
      });
    expect((await cancel('9999999999999.forged')).statusCode).toBe(403);
    const token = issueRefillToken(tokenKey, clock.now().getTime(), row.provider_order_id, row.email);
    const reply = await cancel(token);
    expect(reply.statusCode, reply.body).toBe(200);
    expect(reply.json().data).toMatchObject({ ended: true });
    expect(reply.json().data.message).toMatch(/will be refunded/);
    const cancels = panel.requests.filter((r) => r.form.action === 'cancel' && r.form.orders === supplierOrderId);
    expect(cancels).toHaveLength(1);
    await drainJobs();
    const sub = await subscription(id);
    expect(sub).toMatchObject({ end_reason: 'customer' });
    const ended = await order(id);
    expect(ended.order_status).toBe('Canceled');
    // Nothing served: the time share, nearly all of it.
    const share = unservedShare(progressOfRow(sub), new Date(sub.ended_at!), 'customer');
    expect(share).toBeGreaterThan(0.99);
    const made = await refunds(id);
    expect(made.map((r) => r.amount_e4)).toEqual([Math.floor(e4ToCents(ended.amount_e4) * share) * 100]);
    // Not running any more: 409.
    const again = await cancel(issueRefillToken(tokenKey, clock.now().getTime(), row.provider_order_id, row.email));
    expect(again.statusCode).toBe(409);
  });

  it('cancels daily followers when the owner asks, refunding the undelivered days', async () => {
    const { id, supplierOrderId } = await running(daily, 'daily.owner_cancels');
    panel.runDripFeed(supplierOrderId, 3);
    await syncRound();
    const row = await order(id);
    const reply = await t.app.inject({
      method: 'POST',
      url: `/api/admin/orders/${row.provider_order_id.replace(/^order_/, '')}/cancel-subscription`,
      headers: { authorization: `Bearer ${await adminBearer()}` },
      remoteAddress: '10.77.0.1',
    });
    expect(reply.statusCode, reply.body).toBe(200);
    expect(reply.json().data.ended).toBe(true);
    await drainJobs();
    expect(await subscription(id)).toMatchObject({ end_reason: 'owner', runs_done: 3 });
    const ended = await order(id);
    expect(ended).toMatchObject({ order_status: 'Partial', remains: 2700 });
    const made = await refunds(id);
    expect(made.map((r) => r.amount_e4)).toEqual([Math.floor((e4ToCents(ended.amount_e4) * 2700) / 3000) * 100]);
  });

  it('flags the order when the panel refuses the cancel, and keeps it running', async () => {
    const { id } = await running(likes, 'likes.cancel_refused');
    panel.refuseCancel('Subscription cannot be canceled');
    const row = await order(id);
    const reply = await t.app.inject({
      method: 'POST',
      url: `/api/admin/orders/${row.provider_order_id}/cancel-subscription`,
      headers: { authorization: `Bearer ${await adminBearer()}` },
      remoteAddress: '10.77.0.1',
    });
    expect(reply.statusCode, reply.body).toBe(200);
    expect(reply.json().data).toMatchObject({ ended: false });
    expect(reply.json().data.message).toMatch(/Subscription cannot be canceled/);
    expect(await order(id)).toMatchObject({ needs_review: 1, order_status: 'Processing' });
    expect(await subscription(id)).toMatchObject({ ended_at: null, end_reason: null });
  });

  it('sends one order per link: the second waits, queued, and goes when the first completes', async () => {
    const name = 'daily.same_link';
    // One after the other, so "first" is the one that takes the link (see the stale-lane test).
    const first = await paid(daily, name);
    await drainJobs();
    const second = await paid(daily, name);
    await drainJobs();
    const target = (await order(first)).target;
    expect(addsFor(target)).toHaveLength(1);
    expect(await order(second)).toMatchObject({ fulfilment_state: 'queued', supplier_order_id: null });
    expect(await timeline(second)).toContain('supplier.queued');
    // Syncing while the first runs does not send it.
    await syncRound();
    expect(addsFor(target)).toHaveLength(1);

    panel.runDripFeed((await order(first)).supplier_order_id!, 30);
    let rounds = 0;
    while ((await order(second)).supplier_order_id === null && rounds < 5) {
      rounds += 1;
      await syncRound();
    }
    console.info(`[${dialect}] the queued order reached the panel ${rounds} sync round(s) after the first completed`);
    expect(await order(first)).toMatchObject({ order_status: 'Completed' });
    expect(rounds).toBe(1);
    expect(addsFor(target)).toHaveLength(2);
    expect(await order(second)).toMatchObject({ fulfilment_state: 'submitted' });
  });

  it('starts a renewal only when the current period ends, never overlapping', async () => {
    const name = 'likes.renews';
    const current = await running(likes, name);
    const renewal = await paid(likes, name);
    await drainJobs();
    expect(await order(renewal)).toMatchObject({ fulfilment_state: 'queued' });
    panel.publishPosts(current.supplierOrderId, 1);
    await syncRound();
    expect(addsFor(current.target)).toHaveLength(1);
    const { ends_at: endsAt } = await subscription(current.id);
    clock.advance(30 * DAY_MS);
    await syncRound();
    expect(await order(current.id)).toMatchObject({ order_status: 'Completed' });
    expect(addsFor(current.target)).toHaveLength(2);
    const next = await subscription(renewal);
    expect(new Date(next.starts_at!).getTime()).toBeGreaterThanOrEqual(new Date(endsAt!).getTime());
  });

  it('never lets two racing submissions on one link both reach the panel', async () => {
    for (let round = 0; round < 5; round += 1) {
      const name = `daily.race${round}`;
      const a = await paid(daily, name);
      const b = await paid(daily, name);
      const outcomes = await Promise.all([t.store.fulfilment.submit(a), t.store.fulfilment.submit(b)]);
      const target = (await order(a)).target;
      expect(addsFor(target), `round ${round}: ${outcomes.join(', ')}`).toHaveLength(1);
      expect(outcomes.filter((o) => o === 'submitted')).toHaveLength(1);
      expect(outcomes.filter((o) => o === 'queued')).toHaveLength(1);
      await drainJobs();
      expect(addsFor(target)).toHaveLength(1);
    }
  });
  it('frees a link whose order ended without a word (refused for good meanwhile): the sync sends the next', async () => {
    const name = 'daily.stale_lane';
    // One after the other: the worker runs a batch's jobs side by side, so two orders drained
    // together may take the link in either order (the race test above covers that).
    const first = await paid(daily, name);
    await drainJobs();
    const second = await paid(daily, name);
    await drainJobs();
    expect(await order(second)).toMatchObject({ fulfilment_state: 'queued' });
    // An end that publishes no status change (as a refusal for good recorded by hand would).
    await db().updateTable('orders').set({ fulfilment_state: 'failed' }).where('id', '=', first).execute();
    expect(await releaseStaleLanes(db())).toBe(1);
    await drainJobs();
    expect(await order(second)).toMatchObject({ fulfilment_state: 'submitted' });
    expect(addsFor((await order(second)).target)).toHaveLength(2);
    expect(await releaseStaleLanes(db())).toBe(0);
  });
});
