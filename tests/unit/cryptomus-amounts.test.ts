import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cryptomusAmountToCents } from '../../core/payments/cryptomus.ts';

describe('cryptomusAmountToCents', () => {
  it('reads decimal strings as whole cents, exactly', () => {
    expect(cryptomusAmountToCents('16.00')).toBe(1600);
    expect(cryptomusAmountToCents('15.5')).toBe(1550);
    expect(cryptomusAmountToCents('16')).toBe(1600);
    expect(cryptomusAmountToCents('3.00000000')).toBe(300);
    expect(cryptomusAmountToCents('0.29')).toBe(29);
    expect(cryptomusAmountToCents('1.15')).toBe(115);
    expect(cryptomusAmountToCents('0')).toBe(0);
  });

  it('cuts digits past the cent instead of rounding (an underpayment is never shown as more)', () => {
    expect(cryptomusAmountToCents('15.999')).toBe(1599);
    expect(cryptomusAmountToCents('0.019')).toBe(1);
  });

  it('refuses anything that is not a plain non-negative decimal', () => {
    for (const garbage of [
      '',
      'abc',
      '-1.00',
      '1e3',
      '1,00',
      ' 16.00',
      '16.00 ',
      '16.',
      '.5',
      '0x10',
      'Infinity',
      'NaN',
    ]) {
      expect(cryptomusAmountToCents(garbage)).toBeUndefined();
    }
  });

  it('property: every whole number of cents written with two decimals reads back as itself', () => {
    fc.assert(
      fc.property(fc.nat({ max: 1e13 }), fc.nat({ max: 6 }), (cents, extraZeros) => {
        const text = `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}${'0'.repeat(extraZeros)}`;
        expect(cryptomusAmountToCents(text)).toBe(cents);
      }),
    );
  });
});
