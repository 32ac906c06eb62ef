/**
 * What a buyer reads about subscriptions (decision 057), through the real app on each dialect:
 * the order page's words before payment (form-detail), the lane notice the target check adds when
 * the account already has a live order of the same kind, and the confirmation page's and /client's
 * view of a running, a queued and an ended subscription. Orders go through the real checkout and
 * the sandbox payment; the progress is the rows the status sync writes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e4ToNumber, formatMoney } from '../../core/money/money.ts';
import { DAY_MS, formatPeriodDate } from '../../core/subscriptions/terms.ts';
import { type SmtpSink, startSmtpSink } from '../fakes/smtp.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { createTestClock } from '../support/clock.ts';
import { dialects } from '../support/databases.ts';
import { AUTOMATIC_LIKES, DAILY_FOLLOWERS, subscriptionCatalogue } from '../support/subscription-catalogue.ts';

let sequence = 400_000;
const nextClientId = () => String((sequence += 1) % 1_000_000).padStart(6, '0');
let mailboxes = 0;
const freshEmail = (label: string) => `${label}.${Date.now().toString(36)}.${(mailboxes += 1)}@example.com`;
let names = 0;
/** A fresh Instagram username per test: lanes never leak between tests. */
const freshName = (label: string) => `${label}.${Date.now().toString(36)}.${(names += 1)}`.slice(0, 30);

const LANE_NOTICE = 'This account already has an order of this kind running. Yours will start when it finishes';

describe.each(dialects)('subscriptions for the buyer on %s', (dialect) => {
  let t: TestApp;
  let smtp: SmtpSink;
  const clock = createTestClock();

  beforeAll(async () => {
    smtp = await startSmtpSink();
    t = await startTestApp(dialect, {
      env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://shop.example' },
      overrides: { clock: clock.now },
    });
    await t.store.catalogue.replaceCatalogue(subscriptionCatalogue);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  let clients = 0;
  const nextAddress = () => `10.57.${Math.floor(++clients / 250)}.${clients % 250}`;
  const call = (method: 'POST' | 'PATCH' | 'GET', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      ...(payload === undefined ? {} : { payload: payload as object }),
      remoteAddress: nextAddress(),
    });

  const drainJobs = async () => {
    while ((await t.store.worker.runOnce()) > 0) {
      // until nothing is due
    }
  };

  /** An order through the API, paid in the sandbox and verified unless `pay` is false. */
  async function placeOrder(options: { slug: string; qty: number; name: string; email: string; pay?: boolean }) {
    const created = await call('POST', '/api/order', {
      type: 'Standard',
      slug: options.slug,
      qty: options.qty,
      name: options.name,
      email: options.email,
      order_id: nextClientId(),
    });
    expect(created.statusCode, created.body).toBe(200);
    const providerOrderId: string = created.json().data.razorpay_order_id;
    if (options.pay !== false) {
      const paid = await call('POST', '/api/sandbox/pay', { razorpay_order_id: providerOrderId });
      expect(paid.statusCode, paid.body).toBe(200);
      const verified = await call('POST', '/api/order/verify-payment', paid.json().data);
      expect(verified.statusCode, verified.body).toBe(200);
    }
    await drainJobs();
    const { id } = await t.database.db
      .selectFrom('orders')
      .select('id')
      .where('provider_order_id', '=', providerOrderId)
      .executeTakeFirstOrThrow();
    return { id, providerOrderId };
  }

  /** What the status sync writes for a subscription the panel runs: its dates and progress. */
  async function markRunning(
    orderId: number,
    progress: { startedDaysAgo: number; postsServed?: number; runsDone?: number },
  ) {
    const now = clock.now().getTime();
    const startsAt = new Date(now - progress.startedDaysAgo * DAY_MS);
    const endsAt = new Date(startsAt.getTime() + 30 * DAY_MS);
    await t.database.db
      .updateTable('orders')
      .set({ fulfilment_state: 'submitted', supplier_order_id: `9${orderId}`, order_status: 'In Progress' })
      .where('id', '=', orderId)
      .execute();
    await t.database.db
      .updateTable('subscriptions')
      .set({
        starts_at: startsAt.toISOString(),
        ends_at: endsAt.toISOString(),
        posts_served: progress.postsServed ?? null,
        runs_done: progress.runsDone ?? null,
        panel_status: 'In progress',
      })
      .where('order_id', '=', orderId)
      .execute();
    return { startsAt, endsAt };
  }

  const verifyTarget = (instaId: string, slug?: string) =>
    call('POST', '/api/services/verify-insta-url', { instaId, kind: 'username', ...(slug ? { slug } : {}) });

  async function codeFor(email: string): Promise<string> {
    const since = smtp.messages.length;
    const asked = await call('POST', '/api/order/order-history/code', { email });
    expect(asked.statusCode, asked.body).toBe(200);
    await drainJobs();
    const mail = await smtp.waitForMessage(
      (m) => smtp.messages.indexOf(m) >= since && m.to === email && m.subject.includes('code'),
      5_000,
    );
    return /^\s*(\d{6})\s*$/m.exec(mail.text)![1];
  }

  async function historyOf(email: string) {
    const code = await codeFor(email);
    const response = await call('PATCH', '/api/order/order-history', { email, code });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as Record<string, unknown>[];
  }

  describe('the order page before payment', () => {
    it('says what one period of automatic likes covers, and words the tiers per post', async () => {
      const response = await call('POST', '/api/order/form-detail', {
        slug: AUTOMATIC_LIKES.slug,
        qty: 100,
        type: 'Standard',
      });
      expect(response.statusCode, response.body).toBe(200);
      const detail = response.json().data;
      expect(detail.subscription).toEqual({
        coverage: 'up to 30 new posts, 100 likes each, for 30 days',
        renewal: 'No automatic charge: 3 days before the end we e-mail you a link to renew.',
      });
      expect(detail.selected.text).toBe('100 likes per post');
      expect(detail.fields[2].list.map((tier: { text: string }) => tier.text)).toEqual([
        '50 likes per post',
        '100 likes per post',
        '250 likes per post',
      ]);
    });

    it('says what daily followers deliver in all, and words the tiers per day', async () => {
      const response = await call('POST', '/api/order/form-detail', {
        slug: DAILY_FOLLOWERS.slug,
        qty: 50,
        type: 'Standard',
      });
      const detail = response.json().data;
      expect(detail.subscription.coverage).toBe('50 followers a day for 30 days (1,500 in all)');
      expect(detail.fields[2].list.map((tier: { text: string }) => tier.text)).toEqual([
        '50 followers a day',
        '100 followers a day',
      ]);
    });

    it('leaves a one-off package as it was', async () => {
      const response = await call('POST', '/api/order/form-detail', {
        slug: 'instagram-followers',
        qty: 100,
        type: 'Standard',
      });
      const detail = response.json().data;
      expect(detail.subscription).toBeUndefined();
      expect(detail.selected.text).toBe('100 Followers');
    });
  });

  describe('the lane notice', () => {
    it('tells the buyer when the account has a live order of this kind, and when theirs will start', async () => {
      const name = freshName('lane.owner');
      const free = await verifyTarget(name, AUTOMATIC_LIKES.slug);
      expect(free.statusCode, free.body).toBe(200);
      expect(free.json().data.laneNotice).toBeUndefined();

      // An unpaid order holds nothing.
      await placeOrder({ slug: AUTOMATIC_LIKES.slug, qty: 50, name, email: freshEmail('other'), pay: false });
      expect((await verifyTarget(name, AUTOMATIC_LIKES.slug)).json().data.laneNotice).toBeUndefined();

      const holder = await placeOrder({ slug: AUTOMATIC_LIKES.slug, qty: 100, name, email: freshEmail('holder') });
      // Paid, not at the supplier yet: a whole period from now.
      const waiting = (await verifyTarget(`@${name.toUpperCase()}`, AUTOMATIC_LIKES.slug)).json().data;
      expect(waiting.status).toBe('verified');
      expect(waiting.laneNotice).toBe(
        `${LANE_NOTICE}, expected by ${formatPeriodDate(new Date(clock.now().getTime() + 30 * DAY_MS))}.`,
      );

      // Running at the supplier: its end; a second one queued behind it adds a period.
      const { endsAt } = await markRunning(holder.id, { startedDaysAgo: 10, postsServed: 4 });
      const running = (await verifyTarget(name, AUTOMATIC_LIKES.slug)).json().data.laneNotice;
      expect(running).toBe(`${LANE_NOTICE}, expected by ${formatPeriodDate(endsAt)}.`);
      const queued = await placeOrder({ slug: AUTOMATIC_LIKES.slug, qty: 50, name, email: freshEmail('second') });
      await t.database.db
        .updateTable('orders')
        .set({ fulfilment_state: 'queued' })
        .where('id', '=', queued.id)
        .execute();
      expect((await verifyTarget(name, AUTOMATIC_LIKES.slug)).json().data.laneNotice).toBe(
        `${LANE_NOTICE}, expected by ${formatPeriodDate(new Date(endsAt.getTime() + 30 * DAY_MS))}.`,
      );
      // Nothing about that order leaks: no id, no e-mail, no package.
      expect(running).not.toContain(holder.providerOrderId);
      expect(running).not.toContain('holder');

      // Another kind on the same account, another account, or no service: no notice.
      expect((await verifyTarget(name, DAILY_FOLLOWERS.slug)).json().data.laneNotice).toBeUndefined();
      expect(
        (await verifyTarget(freshName('someone.else'), AUTOMATIC_LIKES.slug)).json().data.laneNotice,
      ).toBeUndefined();
      expect((await verifyTarget(name)).json().data.laneNotice).toBeUndefined();
      expect((await verifyTarget(name, 'no-such-service')).json().data.laneNotice).toBeUndefined();

      // Once both are final, the lane is free.
      await t.database.db
        .updateTable('orders')
        .set({ order_status: 'Completed' })
        .where('id', 'in', [holder.id, queued.id])
        .execute();
      expect((await verifyTarget(name, AUTOMATIC_LIKES.slug)).json().data.laneNotice).toBeUndefined();
    });

    it('covers one-off packages on the same link, without a date nobody can promise', async () => {
      const name = freshName('package.lane');
      await placeOrder({ slug: 'instagram-followers', qty: 100, name, email: freshEmail('pkg') });
      // Daily followers and follower packages deliver to the same link: one lane.
      expect((await verifyTarget(name, DAILY_FOLLOWERS.slug)).json().data.laneNotice).toBe(`${LANE_NOTICE}.`);
      expect((await verifyTarget(name, 'instagram-followers')).json().data.laneNotice).toBe(`${LANE_NOTICE}.`);
      // Automatic likes act on new posts, not the link: not held back by a followers order.
      expect((await verifyTarget(name, AUTOMATIC_LIKES.slug)).json().data.laneNotice).toBeUndefined();
    });

    it('answers a malformed slug with 400, never a 500', async () => {
      const response = await call('POST', '/api/services/verify-insta-url', {
        instaId: 'someone',
        slug: 'x'.repeat(101),
      });
      expect(response.statusCode).toBe(400);
    });
  });

  describe('the confirmation page and /client', () => {
    it('show a running subscription with its real end date and progress, and /client the proof for its buttons', async () => {
      const email = freshEmail('running');
      const name = freshName('running');
      const order = await placeOrder({ slug: AUTOMATIC_LIKES.slug, qty: 100, name, email });
      const { endsAt } = await markRunning(order.id, { startedDaysAgo: 12, postsServed: 12 });
      const coverage = `up to 30 new posts, 100 likes each, until ${formatPeriodDate(endsAt)}`;

      const status = await call('GET', `/api/order/order-status?orderId=${order.providerOrderId}`);
      expect(status.statusCode, status.body).toBe(200);
      const view = status.json().data;
      expect(view.subscription).toMatchObject({
        coverage,
        progress: '12 of 30 posts, 18 days left',
        running: true,
        queued: false,
        reminders: true,
        canCancel: true,
        token: null,
      });

      // The rule: the smaller of the posts left (18 of 30) and the time left (18 of 30 days).
      const row = await t.database.db
        .selectFrom('orders')
        .select('amount_e4')
        .where('id', '=', order.id)
        .executeTakeFirstOrThrow();
      const refund = formatMoney(e4ToNumber(Math.floor(row.amount_e4 * 0.6)), 'USD');
      expect(view.subscription.cancelRefund).toBe(`We will refund ${refund}: the part not yet served.`);

      const [historyRow] = await historyOf(email);
      expect(historyRow).toMatchObject({
        razorPayOrderId: order.providerOrderId,
        subscription: { coverage, progress: '12 of 30 posts, 18 days left', running: true, canCancel: true },
      });
      expect((historyRow.subscription as { token: unknown }).token).toEqual(expect.stringMatching(/^\d+\.[\w-]+$/));
    });

    it('show a queued subscription as waiting for the current order on the account', async () => {
      const email = freshEmail('queued');
      const order = await placeOrder({ slug: DAILY_FOLLOWERS.slug, qty: 50, name: freshName('queued'), email });
      await t.database.db
        .updateTable('orders')
        .set({ fulfilment_state: 'queued' })
        .where('id', '=', order.id)
        .execute();
      // As the queue leaves it: not at the panel yet, so no dates.
      await t.database.db
        .updateTable('subscriptions')
        .set({ starts_at: null, ends_at: null })
        .where('order_id', '=', order.id)
        .execute();
      const view = (await call('GET', `/api/order/order-status?orderId=${order.providerOrderId}`)).json().data;
      expect(view.subscription).toMatchObject({
        coverage: '50 followers a day for 30 days (1,500 in all)',
        progress: 'Waiting for your current order on this account to finish',
        running: false,
        queued: true,
        // Cancelling asks the panel to stop it: one the panel does not run yet cannot be cancelled.
        canCancel: false,
        cancelRefund: null,
      });
      const [historyRow] = await historyOf(email);
      expect(historyRow.subscription).toMatchObject({ queued: true, progress: view.subscription.progress });
    });

    it('show daily followers by the day', async () => {
      const order = await placeOrder({
        slug: DAILY_FOLLOWERS.slug,
        qty: 50,
        name: freshName('daily'),
        email: freshEmail('daily'),
      });
      await markRunning(order.id, { startedDaysAgo: 11.5, runsDone: 12 });
      const view = (await call('GET', `/api/order/order-status?orderId=${order.providerOrderId}`)).json().data;
      expect(view.subscription.progress).toBe('Day 12 of 30: 600 of 1,500 followers, 19 days left');
    });

    it('show an ended subscription with the reason and the refund, and offer no buttons', async () => {
      const email = freshEmail('ended');
      const order = await placeOrder({ slug: AUTOMATIC_LIKES.slug, qty: 50, name: freshName('ended'), email });
      await markRunning(order.id, { startedDaysAgo: 20, postsServed: 3 });
      const endedAt = clock.now();
      await t.database.db
        .updateTable('subscriptions')
        .set({ ended_at: endedAt.toISOString(), end_reason: 'panel', panel_status: 'Canceled' })
        .where('order_id', '=', order.id)
        .execute();
      await t.database.db
        .updateTable('orders')
        .set({ order_status: 'Canceled', refunded_e4: 10_000 })
        .where('id', '=', order.id)
        .execute();

      const expected = `Ended ${formatPeriodDate(endedAt)}: our supplier ended it: no new posts appeared for about 30 days`;
      const view = (await call('GET', `/api/order/order-status?orderId=${order.providerOrderId}`)).json().data;
      expect(view.subscription).toMatchObject({
        progress: expected,
        running: false,
        canCancel: false,
        cancelRefund: null,
      });
      expect(view.refunded).toBe(1);

      const [historyRow] = await historyOf(email);
      expect(historyRow).toMatchObject({
        refunded: 1,
        subscription: { progress: expected, canCancel: false, token: null },
      });
    });

    it('leave one-off orders without a subscription section', async () => {
      const order = await placeOrder({
        slug: 'instagram-followers',
        qty: 100,
        name: freshName('oneoff'),
        email: freshEmail('oneoff'),
      });
      const view = (await call('GET', `/api/order/order-status?orderId=${order.providerOrderId}`)).json().data;
      expect(view.subscription).toBeUndefined();
    });
  });
});
