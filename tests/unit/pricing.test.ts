import { describe, expect, it } from 'vitest';
import { chargeAmountE4, describePrice, formatHomePrice, originalPriceE4 } from '../../core/catalogue/pricing.ts';

describe('home price', () => {
  it('shows $ and two decimals', () => {
    expect(formatHomePrice(2.99)).toBe('$2.99');
    expect(formatHomePrice(12)).toBe('$12.00');
    expect(formatHomePrice(1.4999)).toBe('$1.50');
  });
});

describe('detail price (spec section 9)', () => {
  it('shows four decimals with the plan currency', () => {
    expect(describePrice(2.99, 0, '$').price).toBe('$2.9900');
    expect(describePrice(1.4999, 0, '€').price).toBe('€1.4999');
  });

  it('derives original price, You Save and the badge from the discount', () => {
    // 2.99 / 0.6 = 4.98333… → 4.98; save 4.98 − 2.99 = 1.99
    expect(describePrice(2.99, 40, '$')).toEqual({
      price: '$2.9900',
      original: '$4.98',
      youSave: '$1.99',
      badge: '40% off',
      originalLabel: "At the smallest package's price per unit",
    });
    // 12.99 / 0.75 = 17.32
    expect(describePrice(12.99, 25, '$')).toMatchObject({ original: '$17.32', youSave: '$4.33', badge: '25% off' });
  });

  it('shows no badge, original price or saving without a discount', () => {
    expect(describePrice(5, 0, '$')).toEqual({
      price: '$5.0000',
      original: null,
      youSave: null,
      badge: null,
      originalLabel: null,
    });
  });

  it('rounds the original price half up to cents', () => {
    // 1 / 0.9 = 1.1111… → 1.11; 0.99 / 0.67 = 1.47761… → 1.48
    expect(originalPriceE4(10_000, 10)).toBe(11_100);
    expect(originalPriceE4(9_900, 33)).toBe(14_800);
    expect(() => originalPriceE4(10_000, 100)).toThrow(RangeError);
  });
});

describe('charge rule', () => {
  it('adds 1 to prices of 1 or less and leaves the rest', () => {
    expect(chargeAmountE4(9_900)).toBe(19_900); // 0.99 → 1.99
    expect(chargeAmountE4(10_000)).toBe(20_000); // 1.00 → 2.00
    expect(chargeAmountE4(10_001)).toBe(10_001);
    expect(chargeAmountE4(29_900)).toBe(29_900);
  });
});
