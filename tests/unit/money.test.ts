import { describe, expect, it } from 'vitest';
import { e4ToCents, formatAmountE4, formatMoney, numberToE4, parseAmountE4 } from '../../core/money/money.ts';

describe('parseAmountE4', () => {
  it.each([
    ['2.99', 29_900],
    ['0.0199', 199],
    ['1.4999', 14_999],
    ['12', 120_000],
    ['0.5', 5_000],
    [' 3.10 ', 31_000],
  ])('parses %s exactly', (text, expected) => {
    expect(parseAmountE4(text)).toBe(expected);
  });

  it.each(['', '1.23456', '-1', 'abc', '1,99', '.5', '1.'])('rejects %j', (text) => {
    expect(() => parseAmountE4(text)).toThrow();
  });
});

describe('formatAmountE4', () => {
  it('pads and rounds half up', () => {
    expect(formatAmountE4(29_900, 4)).toBe('2.9900');
    expect(formatAmountE4(29_900, 2)).toBe('2.99');
    expect(formatAmountE4(14_999, 2)).toBe('1.50');
    expect(formatAmountE4(14_949, 2)).toBe('1.49');
    expect(formatAmountE4(5, 0)).toBe('0');
    expect(formatAmountE4(-12_500, 2)).toBe('-1.25');
  });

  it('avoids floating-point drift that toFixed shows', () => {
    // (1.005).toFixed(2) is "1.00" in JavaScript; exact maths gives 1.01.
    expect(formatAmountE4(10_050, 2)).toBe('1.01');
  });
});

describe('conversions', () => {
  it('rounds numbers to the nearest ten-thousandth and e4 to whole cents', () => {
    expect(numberToE4(0.1 + 0.2)).toBe(3_000);
    expect(e4ToCents(14_999)).toBe(150);
    expect(e4ToCents(14_949)).toBe(149);
    expect(e4ToCents(29_900)).toBe(299);
  });
});

describe('formatMoney', () => {
  it('writes the sign of known currencies before the amount, and others after it', () => {
    expect(formatMoney(2.99, 'USD')).toBe('$2.99');
    expect(formatMoney(2.99, 'usd', 4)).toBe('$2.9900');
    expect(formatMoney(1500, 'INR')).toBe('₹1500.00');
    expect(formatMoney(3, 'CHF')).toBe('3.00 CHF');
    expect(formatMoney(-12.5, 'USD')).toBe('-$12.50');
    expect(formatMoney(-0.001, 'USD')).toBe('$0.00');
  });
});
