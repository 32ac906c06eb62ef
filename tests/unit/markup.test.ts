/** The supplier-rate arithmetic (core/catalogue/markup.ts): properties over many rates, quantities and markups. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  currencyCode,
  formatE4,
  priceWithMarkupE4,
  supplierCostE4,
  tierWarnings,
} from '../../core/catalogue/markup.ts';

const rate = fc.integer({ min: 0, max: 100_000_000 }); // up to $10,000 per 1000
const qty = fc.integer({ min: 1, max: 10_000_000 });
const percent = fc.integer({ min: 0, max: 100_000 }).map((hundredths) => hundredths / 100); // 0–1000 %, to 0.01 %
const fixed = fc.integer({ min: 0, max: 10_000_000 });

describe('supplier cost and markup', () => {
  it('cost is rate × qty / 1000, rounded up to a ten-thousandth', () => {
    expect(supplierCostE4(12_500, 1000)).toBe(12_500);
    expect(supplierCostE4(12_500, 100)).toBe(1250);
    expect(supplierCostE4(3, 1)).toBe(1); // 0.003 ten-thousandths → 1
    fc.assert(
      fc.property(rate, qty, (r, q) => {
        const cost = supplierCostE4(r, q);
        expect(cost * 1000).toBeGreaterThanOrEqual(r * q);
        expect((cost - 1) * 1000).toBeLessThan(r * q);
      }),
    );
  });

  it('a price is never below cost for a markup ≥ 0, and lands on whole cents', () => {
    fc.assert(
      fc.property(rate, qty, percent, fixed, (r, q, p, f) => {
        const cost = supplierCostE4(r, q);
        for (const markup of [{ kind: 'percent', percent: p } as const, { kind: 'fixed', amountE4: f } as const]) {
          const price = priceWithMarkupE4(cost, markup, '$');
          expect(price).toBeGreaterThanOrEqual(cost);
          expect(price % 100).toBe(0);
          // Not more than one cent above the exact price.
          const exact = markup.kind === 'percent' ? cost * (1 + p / 100) : cost + f;
          expect(price - exact).toBeLessThan(100 + 1e-6 * exact);
        }
      }),
    );
  });

  it('is monotone in the markup and in the cost', () => {
    fc.assert(
      fc.property(rate, qty, percent, percent, fixed, fixed, (r, q, p1, p2, f1, f2) => {
        const cost = supplierCostE4(r, q);
        const [lowP, highP] = p1 <= p2 ? [p1, p2] : [p2, p1];
        const [lowF, highF] = f1 <= f2 ? [f1, f2] : [f2, f1];
        expect(priceWithMarkupE4(cost, { kind: 'percent', percent: lowP }, '$')).toBeLessThanOrEqual(
          priceWithMarkupE4(cost, { kind: 'percent', percent: highP }, '$'),
        );
        expect(priceWithMarkupE4(cost, { kind: 'fixed', amountE4: lowF }, '$')).toBeLessThanOrEqual(
          priceWithMarkupE4(cost, { kind: 'fixed', amountE4: highF }, '$'),
        );
        expect(supplierCostE4(r, q)).toBeLessThanOrEqual(supplierCostE4(r, q + 1));
      }),
    );
  });

  it('rounds to whole units in a currency without cents, and refuses a negative markup', () => {
    expect(priceWithMarkupE4(12_345, { kind: 'percent', percent: 0 }, 'JPY')).toBe(20_000);
    expect(priceWithMarkupE4(12_345, { kind: 'percent', percent: 10 }, '$')).toBe(13_600);
    expect(() => priceWithMarkupE4(100, { kind: 'percent', percent: -1 }, '$')).toThrow(RangeError);
    expect(() => priceWithMarkupE4(100, { kind: 'fixed', amountE4: -1 }, '$')).toThrow(RangeError);
  });

  it('warns below cost only when the panel and the plan share a currency', () => {
    const supplier = { rateE4: 50_000, min: 10, max: 1000, vanished: false };
    expect(tierWarnings({ qty: 100, priceE4: 4_900, planCurrency: '$', supplier, panelCurrency: 'USD' })).toEqual([
      'Sells below cost: the supplier charges 0.50 for 100.',
    ]);
    expect(tierWarnings({ qty: 100, priceE4: 5_000, planCurrency: '$', supplier, panelCurrency: 'USD' })).toEqual([]);
    expect(tierWarnings({ qty: 100, priceE4: 1, planCurrency: '$', supplier, panelCurrency: 'EUR' })).toEqual([
      'The panel charges in EUR, the plan sells in $: no cost check.',
    ]);
    expect(
      tierWarnings({
        qty: 5000,
        priceE4: 1_000_000,
        planCurrency: '$',
        supplier: { ...supplier, vanished: true },
        panelCurrency: 'USD',
      }),
    ).toEqual([
      'The supplier no longer offers this service (it was missing at the last import).',
      "Quantity 5000 is outside the supplier's limits (10–1000).",
    ]);
    expect(tierWarnings({ qty: 5000, priceE4: 1, planCurrency: '$', supplier: null, panelCurrency: 'USD' })).toEqual(
      [],
    );
  });

  it('names currencies and writes amounts as the editor does', () => {
    expect(currencyCode('$')).toBe('USD');
    expect(currencyCode('usd')).toBe('USD');
    expect(formatE4(29_900)).toBe('2.99');
    expect(formatE4(125)).toBe('0.0125');
    expect(formatE4(12_500)).toBe('1.25');
    expect(formatE4(12_340)).toBe('1.234');
    expect(formatE4(10_000)).toBe('1.00');
  });
});
