import { describe, expect, it } from 'vitest';
import { subscriptionOffersOf } from '../../core/catalogue/offers.ts';
import type { ServiceView } from '../../core/catalogue/types.ts';
import { POST_DELAY_MINUTES } from '../../core/subscriptions/terms.ts';
import {
  cancelAnswer,
  delayLabel,
  footerLine,
  kindsSold,
  offerLine,
  subscriptionFaq,
} from '../../app/content/subscriptions.ts';

/** The storefront's words about subscriptions (app/content/subscriptions.ts) and what they are built from. */

const tier = (qty: number) => ({ qty, text: `${qty}`, price: 1, discount: 0 });
const service = (
  slug: string,
  kind: ServiceView['kind'],
  qtys: number[],
  terms?: ServiceView['terms'],
): ServiceView => ({
  slug,
  name: slug,
  title: slug,
  description: '',
  image: '',
  targetKind: 'instagram_username',
  commentRequired: false,
  kind,
  ...(terms ? { terms } : {}),
  plans: [{ type: 'Standard', title: 'Standard', icon: '', currency: '$', option: [], list: qtys.map(tier) }],
});

describe('subscription offers and their words', () => {
  it('offers only subscription services that have a tier, with their terms and quantities in order', () => {
    const offers = subscriptionOffersOf([
      service('followers', 'package', [100]),
      service('likes', 'automatic_likes', [500, 50, 100], { periodDays: 30, posts: 30, delayMinutes: 0 }),
      service('empty-daily', 'daily_followers', [], { periodDays: 30 }),
    ]);
    expect(offers).toEqual([
      {
        kind: 'automatic_likes',
        slug: 'likes',
        name: 'likes',
        periodDays: 30,
        posts: 30,
        delayMinutes: 0,
        quantities: [50, 100, 500],
      },
    ]);
    expect(kindsSold(offers)).toBe('automatic likes');
    expect(offerLine(offers[0])).toBe(
      'likes: 50 to 500 likes on each new post, on up to 30 new posts in 30 days, paid once per period',
    );
  });

  it('says nothing without offers', () => {
    expect(subscriptionFaq([])).toEqual([]);
    expect(footerLine([])).toBeNull();
    expect(cancelAnswer([], 'No.')).toBe('No.');
  });

  it('names every delay the editor offers, from "No delay" to "10 hours"', () => {
    expect(POST_DELAY_MINUTES.map(delayLabel)).toContain('1 hour 30 minutes');
    expect(delayLabel(0)).toBe('No delay');
    expect(delayLabel(5)).toBe('5 minutes');
    expect(delayLabel(60)).toBe('1 hour');
    expect(delayLabel(600)).toBe('10 hours');
  });
});
