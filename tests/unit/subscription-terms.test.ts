import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { serviceKindProblem } from '../../core/catalogue/catalogue-writes.ts';
import { laneKeyOf } from '../../core/subscriptions/lanes.ts';
import {
  DAY_MS,
  type SubscriptionProgress,
  coverageText,
  deliveryQuantityOf,
  periodEnd,
  progressText,
  subscriptionPlanOf,
  unservedShare,
} from '../../core/subscriptions/terms.ts';
import { panelExpiry } from '../../core/fulfilment/smm-panel-client.ts';

const likes = subscriptionPlanOf('automatic_likes', { periodDays: 30, posts: 30, delayMinutes: 15 }, 100);
const daily = subscriptionPlanOf('daily_followers', { periodDays: 30 }, 50);
const start = new Date('2026-11-27T10:00:00Z');

function running(plan: typeof likes, overrides: Partial<SubscriptionProgress> = {}): SubscriptionProgress {
  return {
    ...plan,
    startsAt: start.toISOString(),
    endsAt: periodEnd(start, plan.periodDays).toISOString(),
    postsServed: null,
    runsDone: null,
    endedAt: null,
    endReason: null,
    ...overrides,
  };
}

describe('subscription terms', () => {
  it('turns a tier into what the supplier is asked for', () => {
    expect(likes).toMatchObject({ perUnit: 100, posts: 30, delayMinutes: 15, runs: null, periodDays: 30 });
    expect(daily).toMatchObject({ perUnit: 50, runs: 30, intervalMinutes: 1440, posts: null });
    expect(deliveryQuantityOf(daily)).toBe(1500);
    expect(deliveryQuantityOf(likes)).toBe(100);
  });

  it('says what a period covers, with and without its end', () => {
    const end = periodEnd(start, 30);
    expect(coverageText(likes, end)).toBe('up to 30 new posts, 100 likes each, until 27 Dec 2026');
    expect(coverageText(likes, null)).toBe('up to 30 new posts, 100 likes each, for 30 days');
    expect(coverageText(daily, end)).toBe('50 followers a day for 30 days (1,500 in all), until 27 Dec 2026');
    expect(coverageText(daily, null)).toBe('50 followers a day for 30 days (1,500 in all)');
  });

  it('says where a running, waiting and ended subscription stands', () => {
    const day12 = new Date(start.getTime() + 11.5 * DAY_MS);
    expect(progressText(running(likes, { postsServed: 12 }), day12)).toBe('12 of 30 posts, 19 days left');
    expect(progressText(running(daily, { runsDone: 11 }), day12)).toBe(
      'Day 12 of 30: 550 of 1,500 followers, 19 days left',
    );
    expect(progressText(running(likes, { startsAt: null, endsAt: null }), day12)).toBe(
      'Starts when it reaches our supplier',
    );
    expect(progressText(running(likes, { endedAt: day12.toISOString(), endReason: 'panel' }), day12)).toMatch(
      /^Ended 8 Dec 2026: our supplier ended it/,
    );
  });

  it('refunds the smaller of the unused posts and the unused time, nothing for an expired period', () => {
    const progress = running(likes, { postsServed: 6 });
    const tenDaysIn = new Date(start.getTime() + 10 * DAY_MS);
    // 24 of 30 posts left (0.8), 20 of 30 days left (0.667): the time share.
    expect(unservedShare(progress, tenDaysIn, 'customer')).toBeCloseTo(20 / 30);
    // 29 posts served in 10 days: 1 of 30 left.
    expect(unservedShare({ ...progress, postsServed: 29 }, tenDaysIn, 'owner')).toBeCloseTo(1 / 30);
    expect(unservedShare(progress, tenDaysIn, 'expired')).toBe(0);
    expect(unservedShare({ ...progress, startsAt: null, endsAt: null }, tenDaysIn, 'customer')).toBe(1);
    // Unknown posts served: the time share alone.
    expect(unservedShare({ ...progress, postsServed: null }, tenDaysIn, 'panel')).toBeCloseTo(20 / 30);
  });

  it('never refunds more than all or less than nothing, whatever the panel reported', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1000, max: 5000 }),
        fc.integer({ min: -40, max: 80 }),
        fc.constantFrom('panel', 'customer', 'owner', 'expired' as const),
        (served, day, reason) => {
          const share = unservedShare(
            running(likes, { postsServed: served }),
            new Date(start.getTime() + day * DAY_MS),
            reason,
          );
          return share >= 0 && share <= 1;
        },
      ),
    );
  });

  it('writes the expiry as panels read it (d/m/Y, UTC)', () => {
    expect(panelExpiry(new Date('2026-01-05T23:30:00Z'))).toBe('05/01/2026');
    expect(panelExpiry(periodEnd(start, 30))).toBe('27/12/2026');
  });

  it('gives automatic likes their own lane, so a followers order on the account is not held for a month', () => {
    expect(laneKeyOf('package', 'instagram_username', 'some.user')).toBe(
      laneKeyOf('daily_followers', 'instagram_username', 'some.user'),
    );
    expect(laneKeyOf('automatic_likes', 'instagram_username', 'some.user')).not.toBe(
      laneKeyOf('package', 'instagram_username', 'some.user'),
    );
    expect(laneKeyOf('package', 'instagram_username', 'a')).not.toBe(laneKeyOf('package', 'instagram_username', 'b'));
  });

  it('sells subscriptions only for an account, within the terms panels take', () => {
    const terms = { periodDays: 30, posts: 30, delayMinutes: 0 };
    expect(serviceKindProblem('automatic_likes', 'instagram_username', terms)).toBeUndefined();
    expect(serviceKindProblem('daily_followers', 'tiktok_username', { periodDays: 30 })).toBeUndefined();
    expect(serviceKindProblem('automatic_likes', 'instagram_post_url', terms)).toMatch(/username/);
    expect(serviceKindProblem('automatic_likes', 'instagram_username', { ...terms, delayMinutes: 7 })).toMatch(/delay/);
    expect(serviceKindProblem('automatic_likes', 'instagram_username', { ...terms, posts: 0 })).toMatch(/posts/);
    expect(serviceKindProblem('daily_followers', 'instagram_username', { periodDays: 0 })).toMatch(/period/);
    expect(serviceKindProblem('daily_followers', 'instagram_username', undefined)).toMatch(/terms/);
    expect(serviceKindProblem('package', 'youtube_video_url', undefined)).toBeUndefined();
  });
});
