import { describe, expect, it } from 'vitest';
import { BACKOFF_CAP_MS, backoffMs } from '../../core/jobs/retry.ts';

const HOUR = 60 * 60 * 1000;

describe('backoffMs', () => {
  it('doubles from 5 s without jitter (random = 0.5)', () => {
    const mid = () => 0.5;
    expect([1, 2, 3, 4, 5].map((n) => backoffMs(n, mid))).toEqual([5_000, 10_000, 20_000, 40_000, 80_000]);
  });

  it('stays within ±20 % of the nominal delay', () => {
    for (let attempt = 1; attempt <= 9; attempt++) {
      const nominal = Math.min(HOUR, 5_000 * 2 ** (attempt - 1));
      expect(backoffMs(attempt, () => 0)).toBe(Math.round(nominal * 0.8));
      expect(backoffMs(attempt, () => 0.999999)).toBeLessThanOrEqual(Math.min(HOUR, Math.round(nominal * 1.2)));
      for (let i = 0; i < 50; i++) {
        const value = backoffMs(attempt);
        expect(value).toBeGreaterThanOrEqual(Math.round(nominal * 0.8));
        expect(value).toBeLessThanOrEqual(Math.min(HOUR, nominal * 1.2));
      }
    }
  });

  it('grows with the attempt number until the cap', () => {
    const mid = () => 0.5;
    for (let attempt = 1; attempt < 10; attempt++) {
      expect(backoffMs(attempt + 1, mid)).toBeGreaterThan(backoffMs(attempt, mid));
    }
  });

  it('is capped at one hour, jitter included, even for huge attempt numbers', () => {
    expect(BACKOFF_CAP_MS).toBe(HOUR);
    for (const attempt of [11, 12, 20, 100, 10_000, Number.MAX_SAFE_INTEGER]) {
      expect(backoffMs(attempt, () => 0.999999)).toBe(HOUR);
      expect(backoffMs(attempt, () => 0)).toBe(0.8 * HOUR);
    }
  });

  it('treats nonsense input as the first attempt and clamps a bad random source', () => {
    expect(backoffMs(0, () => 0.5)).toBe(5_000);
    expect(backoffMs(-3, () => 0.5)).toBe(5_000);
    expect(backoffMs(Number.NaN, () => 0.5)).toBe(5_000);
    expect(backoffMs(1, () => 7)).toBe(6_000);
    expect(backoffMs(1, () => -1)).toBe(4_000);
  });
});
