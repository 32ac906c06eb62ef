import { beforeAll, describe, expect, it } from 'vitest';
import {
  PASSWORD_MESSAGES,
  SCRYPT_N,
  hashPassword,
  needsRehash,
  passwordProblem,
  useProductionHashCost,
  verifyPassword,
} from '../../core/auth/passwords.ts';

describe('admin passwords', () => {
  // Test files share a process (vitest.config.ts): an earlier file's app may have lowered the cost.
  beforeAll(useProductionHashCost);

  it('encodes scrypt with its parameters, a 16-byte salt and a 32-byte hash', async () => {
    const encoded = await hashPassword('correct horse battery');
    const [scheme, n, r, p, salt, hash, ...rest] = encoded.split('$');
    expect(rest).toEqual([]);
    expect([scheme, n, r, p]).toEqual(['scrypt', String(2 ** 15), '8', '1']);
    expect(Number(n)).toBe(SCRYPT_N);
    expect(Buffer.from(salt, 'base64')).toHaveLength(16);
    expect(Buffer.from(hash, 'base64')).toHaveLength(32);
    expect(encoded).not.toContain('correct horse battery');
    expect(needsRehash(encoded)).toBe(false);
  });

  it('salts every hash', async () => {
    const [a, b] = await Promise.all([hashPassword('same password 1'), hashPassword('same password 1')]);
    expect(a).not.toBe(b);
    expect(await verifyPassword('same password 1', a)).toBe(true);
    expect(await verifyPassword('same password 1', b)).toBe(true);
  });

  it('accepts the right password only', async () => {
    const encoded = await hashPassword('correct horse battery');
    expect(await verifyPassword('correct horse battery', encoded)).toBe(true);
    expect(await verifyPassword('correct horse batterY', encoded)).toBe(false);
    expect(await verifyPassword('correct horse battery ', encoded)).toBe(false);
    expect(await verifyPassword('', encoded)).toBe(false);
  });

  it('handles non-ASCII passwords, in either Unicode normal form', async () => {
    const composed = 'pässwörd-ünïcode-☃';
    const encoded = await hashPassword(composed);
    expect(await verifyPassword(composed, encoded)).toBe(true);
    expect(await verifyPassword(composed.normalize('NFD'), encoded)).toBe(true);
    expect(await verifyPassword('passwoord-unicode-☃', encoded)).toBe(false);
  });

  it('verifies hashes made with other (bounded) parameters, and says they need a re-hash', async () => {
    // An older hash with N=2^10, r=8, p=1, made with scrypt directly.
    const { scryptSync } = await import('node:crypto');
    const salt = Buffer.alloc(16, 7);
    const key = scryptSync('legacy password', salt, 32, { N: 1024, r: 8, p: 1 });
    const legacy = `scrypt$1024$8$1$${salt.toString('base64')}$${key.toString('base64')}`;
    expect(await verifyPassword('legacy password', legacy)).toBe(true);
    expect(await verifyPassword('other password', legacy)).toBe(false);
    expect(needsRehash(legacy)).toBe(true);
  });

  it.each([
    ['', 'empty'],
    ['bcrypt$2b$10$abc', 'another scheme'],
    ['scrypt$32768$8$1$c2FsdA==', 'missing hash'],
    ['scrypt$1000$8$1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaGhhc2g=', 'N not a power of two'],
    [`scrypt$${2 ** 24}$8$1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaGhhc2g=`, 'N too large'],
    ['scrypt$32768$8$1$$aGFzaGhhc2hoYXNoaGFzaGhhc2g=', 'empty salt'],
  ])('treats a malformed hash (%s: %s) as a mismatch, not an error', async (encoded) => {
    await expect(verifyPassword('whatever password', encoded)).resolves.toBe(false);
    expect(needsRehash(encoded)).toBe(true);
  });

  it('requires at least 12 characters, counted as characters', () => {
    expect(passwordProblem('')).toBe(PASSWORD_MESSAGES.tooShort);
    expect(passwordProblem('elevenchars')).toBe(PASSWORD_MESSAGES.tooShort);
    expect(passwordProblem('twelve chars')).toBeNull();
    expect(passwordProblem('☃'.repeat(11))).toBe(PASSWORD_MESSAGES.tooShort);
    expect(passwordProblem('☃'.repeat(12))).toBeNull();
    expect(passwordProblem('x'.repeat(1025))).toBe(PASSWORD_MESSAGES.tooLong);
    expect(PASSWORD_MESSAGES.tooShort).toBe('The password must be at least 12 characters long.');
  });
});
