/**
 * Which prices a catalogue save asks about first (core/catalogue/risky-prices.ts): below the
 * owner's floor, or less than half of the same tier's current price; never an unchanged price.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatAmountE4 } from '../../core/money/money.ts';
import { riskyPrices, riskyPricesMessage } from '../../core/catalogue/risky-prices.ts';

const plan = (tiers: [number, string, string][], type = 'Standard', currency = 'USD') => ({
  type,
  currency,
  tiers: tiers.map(([qty, text, price]) => ({ qty, text, price })),
});
const price = (e4: number) => formatAmountE4(e4, 4);

describe('risky prices', () => {
  it('names a tier below the floor and one cut by more than half, in the owner’s words', () => {
    const before = [
      plan([
        [100, '100 Followers', '2.99'],
        [250, '250 Followers', '5.49'],
        [500, '500 Followers', '7.99'],
      ]),
    ];
    const after = [
      plan([
        [100, '100 Followers', '0.01'],
        [250, '250 Followers', '2.50'],
        [500, '500 Followers', '7.49'],
      ]),
    ];
    const risky = riskyPrices(before, after, 5_000);
    expect(risky.map((r) => r.words)).toEqual([
      '100 Followers: $2.99 → $0.01 (below your floor of $0.50; less than half the current price)',
      '250 Followers: $5.49 → $2.50 (less than half the current price)',
    ]);
    expect(risky[0]).toMatchObject({
      field: 'plans.0.tiers.0',
      tier: '100 Followers',
      before: 2.99,
      after: 0.01,
      reasons: ['below-floor', 'big-drop'],
    });
    expect(riskyPricesMessage(risky)).toContain('100 Followers: $2.99 → $0.01');
  });

  it('asks about a new tier only against the floor, and never about an unchanged price', () => {
    const before = [plan([[100, '100 Followers', '0.10']])];
    const after = [
      plan([
        [100, '100 Followers', '0.10'],
        [50, '50 Followers', '0.05'],
        [60, '60 Followers', '0.60'],
      ]),
    ];
    const risky = riskyPrices(before, after, 2_500);
    expect(risky.map((r) => r.words)).toEqual(['50 Followers: new tier at $0.05 (below your floor of $0.25)']);
    expect(riskyPrices(null, after, null)).toEqual([]);
  });

  it('matches tiers by plan type and quantity, not position', () => {
    const before = [plan([[100, 'A', '10.00']], 'Standard'), plan([[100, 'B', '1.00']], 'Premium')];
    const after = [plan([[100, 'B', '0.90']], 'Premium'), plan([[100, 'A', '4.00']], 'Standard')];
    expect(riskyPrices(before, after, null).map((r) => r.field)).toEqual(['plans.1.tiers.0']);
  });

  it('flags exactly the changed prices below the floor or under half the old one', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.option(fc.integer({ min: 0, max: 10_000_000 }), { nil: null }),
        (oldE4, newE4, floorE4) => {
          const risky = riskyPrices([plan([[1, 'T', price(oldE4)]])], [plan([[1, 'T', price(newE4)]])], floorE4);
          const expected = oldE4 !== newE4 && ((floorE4 !== null && newE4 < floorE4) || newE4 * 2 < oldE4);
          expect(risky.length).toBe(expected ? 1 : 0);
          // A rise is never a drop; a price at or above the floor is never below it.
          if (risky[0]) {
            expect(risky[0].reasons.includes('big-drop')).toBe(newE4 * 2 < oldE4);
            expect(risky[0].reasons.includes('below-floor')).toBe(floorE4 !== null && newE4 < floorE4);
          }
        },
      ),
    );
  });
});
