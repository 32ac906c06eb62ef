import { describe, expect, it, vi } from 'vitest';
import { formatCode, generateCode, hashCode, normaliseSubject } from '../../core/auth/one-time-codes.ts';

describe('one-time code format', () => {
  it('is always 6 digits, zero-padded', () => {
    expect(generateCode(() => 42)).toBe('000042');
    expect(generateCode(() => 0)).toBe('000000');
    expect(generateCode(() => 999_999)).toBe('999999');
    expect(formatCode(123_456)).toBe('123456');
  });

  it('asks the random source for an integer in [0, 1 000 000)', () => {
    const random = vi.fn(() => 7);
    expect(generateCode(random)).toBe('000007');
    expect(random).toHaveBeenCalledWith(0, 1_000_000);
  });

  it('draws 6-digit codes from crypto.randomInt by default', () => {
    const codes = Array.from({ length: 500 }, () => generateCode());
    for (const code of codes) expect(code).toMatch(/^\d{6}$/);
    expect(new Set(codes).size).toBeGreaterThan(450);
  });

  it('refuses a random value outside the code space', () => {
    expect(() => generateCode(() => 1_000_000)).toThrow(RangeError);
    expect(() => generateCode(() => -1)).toThrow(RangeError);
    expect(() => generateCode(() => 1.5)).toThrow(RangeError);
  });

  it('normalises the subject by trimming and lowercasing', () => {
    expect(normaliseSubject('  Alice@Example.COM \n')).toBe('alice@example.com');
  });
});

describe('one-time code hash', () => {
  const base = hashCode('pepper-1', 'order-history', 'alice@example.com', '000042');

  it('is a hex HMAC-SHA256 that does not contain the code', () => {
    expect(base).toMatch(/^[0-9a-f]{64}$/);
    expect(base).not.toContain('000042');
    // Deterministic for the same inputs.
    expect(hashCode('pepper-1', 'order-history', 'alice@example.com', '000042')).toBe(base);
  });

  it('differs by code, purpose, subject and pepper', () => {
    const variants = [
      hashCode('pepper-1', 'order-history', 'alice@example.com', '000043'),
      hashCode('pepper-1', 'admin-login', 'alice@example.com', '000042'),
      hashCode('pepper-1', 'order-history', 'bob@example.com', '000042'),
      hashCode('pepper-2', 'order-history', 'alice@example.com', '000042'),
    ];
    for (const variant of variants) expect(variant).not.toBe(base);
    expect(new Set(variants).size).toBe(variants.length);
  });
});
