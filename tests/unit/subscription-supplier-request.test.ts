/**
 * What one `add` asks the supplier for by the order's kind (core/fulfilment/supplier-request.ts),
 * and how a subscription's status reply is read (core/fulfilment/subscription-status.ts).
 */
import { describe, expect, it } from 'vitest';
import { readSubscriptionStatus } from '../../core/fulfilment/subscription-status.ts';
import { supplierRequestFor } from '../../core/fulfilment/supplier-request.ts';
import type { SubscriptionRow } from '../../core/orders/subscription-delivery.ts';

const now = new Date('2026-11-27T10:00:00.000Z');
const DAY = 86_400_000;

function row(overrides: Partial<SubscriptionRow>): SubscriptionRow {
  return {
    order_id: 1,
    kind: 'automatic_likes',
    per_unit: 100,
    posts: 30,
    delay_minutes: 15,
    runs: null,
    interval_minutes: null,
    period_days: 30,
    starts_at: null,
    ends_at: null,
    posts_served: null,
    runs_done: null,
    panel_status: null,
    ended_at: null,
    end_reason: null,
    reminders: 1,
    reminder_sent_at: null,
    renewal_token_hash: null,
    renewal_of_order_id: null,
    renewed_by_order_id: null,
    ...overrides,
  };
}
const likesOrder = {
  kind: 'automatic_likes' as const,
  quantity: 100,
  supplier_service_id: '4',
  target: 'someone',
  comment: null,
};
const dailyOrder = { ...likesOrder, kind: 'daily_followers' as const, supplier_service_id: '5' };
const status = (fields: Partial<Parameters<typeof readSubscriptionStatus>[2]>) => ({
  status: null,
  rawStatus: 'In progress',
  charge: null,
  startCount: null,
  remains: null,
  currency: null,
  posts: null,
  ...fields,
});

describe('the add for each kind', () => {
  it('asks for automatic likes as one subscription that ends with the period started now', () => {
    const request = supplierRequestFor(likesOrder, row({}), [], now);
    expect(request).toEqual({
      order: {
        kind: 'subscription',
        service: '4',
        username: 'someone',
        min: 100,
        max: 100,
        posts: 30,
        delay: 15,
        expiry: new Date(now.getTime() + 30 * DAY),
      },
      quantity: 100,
      period: { startsAt: now.toISOString(), endsAt: new Date(now.getTime() + 30 * DAY).toISOString() },
    });
  });

  it('asks for daily followers as one drip-feed: per day, one run a day, the whole feed counted', () => {
    const request = supplierRequestFor(
      dailyOrder,
      row({ kind: 'daily_followers', posts: null, runs: 30, interval_minutes: 1440 }),
      [],
      now,
    );
    expect(request?.order).toEqual({
      kind: 'drip-feed',
      service: '5',
      link: 'someone',
      quantity: 100,
      runs: 30,
      interval: 1440,
    });
    expect(request?.quantity).toBe(3000);
  });

  it('sends the rest of a period again within the same end, and nothing once it is over', () => {
    const startsAt = new Date(now.getTime() - 10 * DAY).toISOString();
    const endsAt = new Date(now.getTime() + 20 * DAY).toISOString();
    const earlier = [{ quantity: 100, status: 'Canceled' as const, remains: 0, final: true }];
    const resent = supplierRequestFor(
      likesOrder,
      row({ starts_at: startsAt, ends_at: endsAt, posts_served: 12 }),
      earlier,
      now,
    );
    expect(resent?.order).toMatchObject({ posts: 18, expiry: new Date(endsAt) });
    expect(resent?.period).toBeNull();
    const over = row({ starts_at: startsAt, ends_at: new Date(now.getTime() - 1).toISOString() });
    expect(supplierRequestFor(likesOrder, over, earlier, now)).toBeNull();
  });
});

describe("a subscription's status reply", () => {
  const running = row({ starts_at: now.toISOString(), ends_at: new Date(now.getTime() + 30 * DAY).toISOString() });

  it('keeps posts served and the panel word while it runs', () => {
    const reading = readSubscriptionStatus(
      running,
      'In Progress',
      status({ status: 'In Progress', posts: 4 }),
      100,
      now,
    );
    expect(reading).toMatchObject({
      status: 'In Progress',
      endReason: null,
      report: { postsServed: 4, panelStatus: 'In progress' },
    });
  });

  it('ends automatic likes past their period as Completed (expired), whatever the panel says', () => {
    const later = new Date(now.getTime() + 30 * DAY + 1);
    const reading = readSubscriptionStatus(running, 'In Progress', status({ status: 'In Progress' }), 100, later);
    expect(reading).toMatchObject({ status: 'Completed', endReason: 'expired', remains: 0 });
  });

  it("takes the panel's early cancel as its end: Partial when posts were served, Canceled when none", () => {
    expect(readSubscriptionStatus(running, 'Canceled', status({ posts: 3 }), 100, now)).toMatchObject({
      status: 'Partial',
      endReason: 'panel',
    });
    expect(readSubscriptionStatus(running, 'Canceled', status({ posts: 0 }), 100, now)).toMatchObject({
      status: 'Canceled',
      endReason: 'panel',
    });
  });

  it('counts a drip-feed’s runs from what it delivered when the panel does not say', () => {
    const feed = row({ kind: 'daily_followers', runs: 30 });
    expect(readSubscriptionStatus(feed, 'In Progress', status({ remains: 2700 }), 3000, now).report.runsDone).toBe(3);
    expect(
      readSubscriptionStatus(feed, 'In Progress', status({ remains: 2700, runs: 4 }), 3000, now).report.runsDone,
    ).toBe(4);
  });
});
