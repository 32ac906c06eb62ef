/**
 * The owner's console for subscriptions over HTTP, per dialect, with a real admin login: the
 * Subscriptions, Ending this week and Queued views (rows, order, exact counts, with the status
 * filter and a keyword), rows in words (the kind, the progress, the end, the order a queued one
 * waits for), the order detail's subscription (terms, dates, the rule's refund, renewal links),
 * the CSV's kind column and the dashboard's revenue split one-off / subscription.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ConsoleRow,
  OrderDetailSchema,
  OrdersListReplySchema,
  type SubscriptionDetail,
} from '../../core/admin/contracts.ts';
import type { FulfilmentState, ServiceKind } from '../../db/column-values.ts';
import type { OrderStatus, PaymentStatus } from '../../core/orders/status.ts';
import { DAY_MS } from '../../core/subscriptions/terms.ts';
import { seedAdmin } from '../support/admin-accounts.ts';
import { adminToken } from '../support/admin-session.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { type TestClock, createTestClock } from '../support/clock.ts';
import { dialects } from '../support/databases.ts';

interface Spec {
  code: string;
  kind?: ServiceKind;
  target?: string;
  orderStatus?: OrderStatus;
  paymentStatus?: PaymentStatus;
  fulfilmentState?: FulfilmentState;
  amountE4?: number;
  /** Days from now to the period's end; null: not at the supplier yet. */
  endsInDays?: number | null;
  postsServed?: number;
  runsDone?: number;
  ended?: boolean;
}

describe.each(dialects)('admin console for subscriptions (%s)', (dialect) => {
  let t: TestApp;
  let clock: TestClock;
  let token: string;
  const ids = new Map<string, number>();
  let sequence = 0;

  beforeAll(async () => {
    clock = createTestClock();
    t = await startTestApp(dialect, { overrides: { clock: clock.now } });
    const credentials = { email: 'subs.owner@example.com', password: 'a long enough owner password' };
    await seedAdmin(t.database.db, credentials.email, credentials.password, { verified: true });
    token = await adminToken(t, credentials, '10.78.0.1', clock.now);
  });
  afterAll(async () => {
    await t?.close();
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
  const list = async (query: string) => {
    const reply = await get(`/api/order/all-orders?${query}`);
    expect(reply.statusCode, reply.body).toBe(200);
    return OrdersListReplySchema.parse(reply.json());
  };
  const codes = (rows: ConsoleRow[]) => rows.map((row) => row.orderId);

  /** An order as the checkout, payment and sync would have left it, with its subscription and payment. */
  async function insertOrder(spec: Spec): Promise<number> {
    sequence += 1;
    const db = t.database.db;
    const now = clock.now();
    const at = new Date(now.getTime() - (100 - sequence) * 60_000).toISOString();
    const kind = spec.kind ?? 'package';
    const target = spec.target ?? `account.${spec.code.toLowerCase()}`;
    const amountE4 = spec.amountE4 ?? 100_000;
    const paid = (spec.paymentStatus ?? 'paid') === 'paid';
    const { id } = await db
      .insertInto('orders')
      .values({
        provider: 'sandbox',
        provider_order_id: `order_${spec.code}`,
        client_order_id: String(500000 + sequence),
        email: `${spec.code.toLowerCase()}@subs.test`,
        service_slug: 'instagram-followers',
        service_name: kind === 'package' ? 'Instagram Followers' : 'Automatic Instagram Likes',
        plan_type: 'Standard',
        quantity: 100,
        target,
        target_kind: 'instagram_username',
        comment: null,
        supplier_service_id: '1',
        price_e4: amountE4,
        amount_e4: amountE4,
        currency: 'USD',
        payment_status: spec.paymentStatus ?? 'paid',
        order_status: spec.orderStatus ?? 'In Progress',
        fulfilment_state: spec.fulfilmentState ?? 'submitted',
        payment_id: paid ? `pay_${spec.code}` : null,
        review_reason: null,
        error_message: null,
        created_at: at,
        updated_at: at,
        paid_at: paid ? at : null,
        kind,
        lane_key: `${kind === 'automatic_likes' ? 'new-posts' : 'link'}:instagram_username:${target}`,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (paid)
      await db
        .insertInto('order_payments')
        .values({
          order_id: id,
          attempt_id: null,
          provider: 'sandbox',
          method: 'card',
          payment_id: `pay_${spec.code}`,
          role: 'applied',
          amount_e4: amountE4,
          currency: 'USD',
          created_at: now.toISOString(),
        })
        .execute();
    if (kind !== 'package') {
      const endsAt = spec.endsInDays === undefined ? 20 : spec.endsInDays;
      await db
        .insertInto('subscriptions')
        .values({
          order_id: id,
          kind,
          per_unit: 100,
          posts: kind === 'automatic_likes' ? 30 : null,
          delay_minutes: kind === 'automatic_likes' ? 0 : null,
          runs: kind === 'daily_followers' ? 30 : null,
          interval_minutes: kind === 'daily_followers' ? 1440 : null,
          period_days: 30,
          starts_at: endsAt === null ? null : new Date(now.getTime() + (endsAt - 30) * DAY_MS).toISOString(),
          ends_at: endsAt === null ? null : new Date(now.getTime() + endsAt * DAY_MS).toISOString(),
          posts_served: spec.postsServed ?? null,
          runs_done: spec.runsDone ?? null,
          panel_status: endsAt === null ? null : 'In progress',
          ended_at: spec.ended ? now.toISOString() : null,
          end_reason: spec.ended ? 'panel' : null,
        })
        .execute();
    }
    ids.set(spec.code, Number(id));
    return Number(id);
  }

  it('fills the store with one-off orders, subscriptions and a queue', async () => {
    await insertOrder({ code: 'OneOff1' });
    await insertOrder({ code: 'Likes1', kind: 'automatic_likes', endsInDays: 18, postsServed: 12 });
    await insertOrder({ code: 'Likes2', kind: 'automatic_likes', endsInDays: 2, postsServed: 25 });
    await insertOrder({ code: 'Daily1', kind: 'daily_followers', endsInDays: 5, runsDone: 25 });
    await insertOrder({ code: 'Ended1', kind: 'automatic_likes', endsInDays: 3, ended: true, orderStatus: 'Canceled' });
    await insertOrder({ code: 'OneOff2', orderStatus: 'Completed' });
    // Two orders on one account: the first holds the lane, the second waits for it.
    const holder = await insertOrder({ code: 'Holder1', target: 'shared.account' });
    await insertOrder({ code: 'Queued1', target: 'shared.account', fulfilmentState: 'queued', orderStatus: 'Pending' });
    await t.database.db
      .insertInto('supplier_lanes')
      .values({
        lane_key: 'link:instagram_username:shared.account',
        order_id: holder,
        taken_at: clock.now().toISOString(),
      })
      .execute();
    expect(ids.size).toBe(8);
  });

  it('lists subscriptions only, newest first, with the kind, progress and end in words', async () => {
    const reply = await list('view=subscriptions');
    expect(codes(reply.data)).toEqual(['Ended1', 'Daily1', 'Likes2', 'Likes1']);
    expect(reply.count).toBe(4);
    expect(reply.countExact).toBe(true);
    const likes = reply.data.find((row) => row.orderId === 'Likes1');
    expect(likes).toMatchObject({
      kind: 'automatic_likes',
      kindLabel: 'Automatic likes (on each new post)',
      subscription: { progress: '12 of 30 posts, 18 days left', running: true },
    });
    expect(likes?.subscription?.coverage).toMatch(/^up to 30 new posts, 100 likes each, until \d{1,2} \w{3} \d{4}$/);
    const daily = reply.data.find((row) => row.orderId === 'Daily1');
    expect(daily?.subscription?.progress).toBe('Day 26 of 30: 2,500 of 3,000 followers, 5 days left');
    expect(reply.data.find((row) => row.orderId === 'Ended1')?.subscription).toMatchObject({
      running: false,
      progress: expect.stringMatching(/^Ended .*: our supplier ended it/),
    });
    // With the status filter and a keyword.
    expect(codes((await list('view=subscriptions&status=Canceled')).data)).toEqual(['Ended1']);
    expect(codes((await list('view=subscriptions&keyword=likes2')).data)).toEqual(['Likes2']);
    // Pages count exactly.
    const page2 = await list('view=subscriptions&size=3&page=2');
    expect(codes(page2.data)).toEqual(['Likes1']);
    expect(page2).toMatchObject({ count: 4, totalPages: 2, currentPage: 2 });
    // A one-off row says so.
    expect((await list('keyword=oneoff1')).data[0]).toMatchObject({
      kind: 'package',
      kindLabel: 'One-off package',
      subscription: null,
    });
  });

  it('lists the running subscriptions ending within 7 days, soonest first', async () => {
    const reply = await list('view=ending');
    expect(codes(reply.data)).toEqual(['Likes2', 'Daily1']);
    expect(reply.count).toBe(2);
    // Likes1 (18 days) is not due; once its end is 6 days away, it is.
    const likes1 = ids.get('Likes1') ?? 0;
    const { ends_at } = await t.database.db
      .selectFrom('subscriptions')
      .select('ends_at')
      .where('order_id', '=', likes1)
      .executeTakeFirstOrThrow();
    const soon = new Date(clock.now().getTime() + 6 * DAY_MS).toISOString();
    await t.database.db.updateTable('subscriptions').set({ ends_at: soon }).where('order_id', '=', likes1).execute();
    try {
      expect(codes((await list('view=ending')).data)).toEqual(['Likes2', 'Daily1', 'Likes1']);
    } finally {
      await t.database.db.updateTable('subscriptions').set({ ends_at }).where('order_id', '=', likes1).execute();
    }
  });

  it('shows queued orders in words, naming the order they wait for', async () => {
    const reply = await list('view=queued');
    expect(codes(reply.data)).toEqual(['Queued1']);
    expect(reply.data[0]).toMatchObject({
      fulfilmentState: 'queued',
      fulfilmentText: 'Waiting for order #Holder1 on the same account',
    });
    expect((await list('keyword=holder1')).data[0]?.fulfilmentText).toBe('With the supplier');
    // An unknown view is a clear 400.
    const bad = await get('/api/order/all-orders?view=everything');
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('must be one of subscriptions, ending, queued');
  });

  it("the order detail shows the subscription's terms, dates, the rule's refund and renewal links", async () => {
    const renewal = await insertOrder({
      code: 'Renewal1',
      kind: 'automatic_likes',
      endsInDays: null,
      fulfilmentState: 'queued',
      orderStatus: 'Pending',
      target: 'account.likes1',
    });
    await t.database.db
      .updateTable('subscriptions')
      .set({ renewal_of_order_id: ids.get('Likes1') ?? 0 })
      .where('order_id', '=', renewal)
      .execute();
    await t.database.db
      .updateTable('subscriptions')
      .set({ renewed_by_order_id: renewal, reminder_sent_at: clock.now().toISOString() })
      .where('order_id', '=', ids.get('Likes1') ?? 0)
      .execute();

    const detailOf = async (code: string) => {
      const reply = await get(`/api/order/detail/${code}`);
      expect(reply.statusCode, reply.body).toBe(200);
      return OrderDetailSchema.parse(reply.json<{ data: unknown }>().data);
    };
    const likes = await detailOf('Likes1');
    const subscription = likes.subscription as SubscriptionDetail;
    expect(subscription).toMatchObject({
      progress: '12 of 30 posts, 18 days left',
      panelStatus: 'In progress',
      endedAt: null,
      running: true,
      reminders: true,
      renews: null,
      renewedBy: 'Renewal1',
    });
    // 18 posts of 30 left (60%), 18 days of 30 left (60%): the smaller share of $10.00.
    expect(subscription.refundRule).toContain('the smaller of the posts left (18 of 30) and the time left');
    expect(subscription.refundRule).toMatch(/about \$5\.9\d now/);
    expect(likes.order.kindLabel).toBe('Automatic likes (on each new post)');

    const renewed = await detailOf('Renewal1');
    expect(renewed.subscription).toMatchObject({
      renews: 'Likes1',
      startsAt: null,
      progress: 'Starts when it reaches our supplier',
    });
    expect(renewed.subscription?.refundRule).toBe(
      'It has not reached the supplier yet: cancelling refunds all of it ($10.00).',
    );

    const ended = await detailOf('Ended1');
    expect(ended.subscription).toMatchObject({
      running: false,
      endReason: 'Our supplier ended it: no new posts appeared for about 30 days',
    });
    expect((await detailOf('OneOff1')).subscription).toBeNull();
    expect((await detailOf('Queued1')).order.fulfilmentText).toBe('Waiting for order #Holder1 on the same account');
  });

  it("exports the kind, and a view's rows only", async () => {
    const reply = await get('/api/order/all-orders.csv?view=subscriptions&status=In%20Progress');
    expect(reply.statusCode).toBe(200);
    const lines = reply.body.trim().split('\r\n');
    expect(lines[0]).toMatch(/"Kind"$/);
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual(['"Daily1"', '"Likes2"', '"Likes1"']);
    expect(lines[1]).toMatch(/"Daily followers \(delivered every day\)"$/);
  });

  it("splits the dashboard's revenue one-off / subscription", async () => {
    const reply = await get('/api/admin/dashboard?days=7');
    expect(reply.statusCode, reply.body).toBe(200);
    const { byKind } = reply.json<{
      data: { byKind: { kind: string; label: string; payments: number; revenue: number }[] };
    }>().data;
    // One-off: OneOff1, OneOff2, Holder1, Queued1; subscriptions: Likes1, Likes2, Daily1, Ended1, Renewal1.
    expect(byKind).toEqual([
      { kind: 'one_off', label: 'One-off packages', currency: 'USD', payments: 4, revenue: 40 },
      { kind: 'subscription', label: 'Subscriptions', currency: 'USD', payments: 5, revenue: 50 },
    ]);
  });
});
