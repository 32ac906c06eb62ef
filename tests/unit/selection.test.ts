import { describe, expect, it } from 'vitest';
import { resolveSelection, selectPlan, selectService } from '../../app/selection.ts';
import type { ServiceView } from '../../core/catalogue/types.ts';

const tier = (qty: number, price: number) => ({ qty, text: `${qty}`, price, discount: 0 });
const service: ServiceView = {
  slug: 'tiktok-followers',
  name: 'TikTok Followers',
  title: 'x',
  description: 'x',
  image: '/x.svg',
  targetKind: 'tiktok_username',
  kind: 'package',
  commentRequired: false,
  plans: [
    { type: 'Standard', title: 'S', icon: '', currency: '$', option: [], list: [tier(100, 1), tier(500, 4)] },
    { type: 'Popular', title: 'P', icon: '', currency: '$', option: [], list: [tier(250, 3), tier(1000, 9)] },
  ],
};

describe('package selection (spec section 4)', () => {
  it('selecting a service selects its first plan and first tier', () => {
    expect(selectService(service)).toEqual({ service: 'tiktok-followers', plan: 'Standard', qty: 100 });
  });

  it('selecting a plan selects its first tier', () => {
    expect(selectPlan(service, 'Popular')).toEqual({ service: 'tiktok-followers', plan: 'Popular', qty: 250 });
  });

  it('falls back to the first of each level when a selection no longer exists', () => {
    const resolved = resolveSelection([service], { service: 'gone', plan: 'Exclusive', qty: 7 });
    expect([resolved.service.slug, resolved.plan.type, resolved.tier.qty]).toEqual([
      'tiktok-followers',
      'Standard',
      100,
    ]);
  });
});
