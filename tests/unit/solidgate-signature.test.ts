/**
 * Solidgate's signature: fixed vectors recomputed here with node's crypto straight from the rule
 * (base64 of the hex of HMAC-SHA512(secret, public + body + public)), and properties: a signature
 * verifies for its own body and keys only.
 */
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidSolidgateSignature, solidgateSignature } from '../../core/payments/solidgate-signature.ts';

const publicKey = 'api_pk_7b197c4b-ba10-4f84-b2a1-0f0e1d2c3b4a';
const secretKey = 'api_sk_5f0c2a1e-93d4-4b7e-8c6a-1d2e3f4a5b6c';

/** The rule written out independently: one HMAC over the concatenated bytes. */
function reference(pk: string, sk: string, body: Buffer): string {
  const message = Buffer.concat([Buffer.from(pk, 'utf8'), body, Buffer.from(pk, 'utf8')]);
  return Buffer.from(createHmac('sha512', sk).update(message).digest('hex'), 'utf8').toString('base64');
}

describe('solidgateSignature', () => {
  it.each([
    ['a JSON body', '{"order_id":"BST-1001"}'],
    ['an empty body', ''],
    ['a non-ASCII UTF-8 body', '{"order_description":"Подписчики — 1 000 ✓ café"}'],
  ])('matches the rule for %s', (_name, body) => {
    const expected = reference(publicKey, secretKey, Buffer.from(body, 'utf8'));
    expect(solidgateSignature(publicKey, secretKey, body)).toBe(expected);
    expect(solidgateSignature(publicKey, secretKey, Buffer.from(body, 'utf8'))).toBe(expected);
    expect(isValidSolidgateSignature(publicKey, secretKey, body, expected)).toBe(true);
    expect(isValidSolidgateSignature(publicKey, secretKey, Buffer.from(body, 'utf8'), expected)).toBe(true);
  });

  it('is base64 of 128 lowercase hex characters', () => {
    const signature = solidgateSignature(publicKey, secretKey, '{}');
    const hex = Buffer.from(signature, 'base64').toString('utf8');
    expect(hex).toMatch(/^[0-9a-f]{128}$/);
  });

  it('signs raw bytes: a body that is not valid UTF-8 is not confused with its replacement text', () => {
    const raw = Buffer.from([0x7b, 0xff, 0xfe, 0x7d]);
    const signature = solidgateSignature(publicKey, secretKey, raw);
    expect(signature).toBe(reference(publicKey, secretKey, raw));
    expect(isValidSolidgateSignature(publicKey, secretKey, raw, signature)).toBe(true);
    expect(isValidSolidgateSignature(publicKey, secretKey, raw.toString('utf8'), signature)).toBe(false);
  });

  it('refuses malformed signatures without throwing', () => {
    for (const bad of ['', 'not base64 at all', '===', 'é'.repeat(172)]) {
      expect(isValidSolidgateSignature(publicKey, secretKey, '{}', bad)).toBe(false);
    }
  });
});

describe('isValidSolidgateSignature (properties)', () => {
  const body = fc.uint8Array({ minLength: 0, maxLength: 300 }).map((bytes) => Buffer.from(bytes));
  const key = fc.string({ minLength: 1, maxLength: 40 });

  it('verifies what it signed', () => {
    fc.assert(
      fc.property(key, key, body, (pk, sk, raw) => {
        expect(isValidSolidgateSignature(pk, sk, raw, solidgateSignature(pk, sk, raw))).toBe(true);
      }),
    );
  });

  it('refuses the body with any one byte changed', () => {
    fc.assert(
      fc.property(
        key,
        key,
        body.filter((raw) => raw.length > 0),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        (pk, sk, raw, at, delta) => {
          const signature = solidgateSignature(pk, sk, raw);
          const changed = Buffer.from(raw);
          const index = at % changed.length;
          changed[index] = (changed[index] + delta) % 256;
          expect(isValidSolidgateSignature(pk, sk, changed, signature)).toBe(false);
        },
      ),
    );
  });

  it('refuses another public key or another secret key', () => {
    fc.assert(
      fc.property(key, key, key, body, (pk, sk, other, raw) => {
        fc.pre(other !== pk && other !== sk);
        const signature = solidgateSignature(pk, sk, raw);
        expect(isValidSolidgateSignature(other, sk, raw, signature)).toBe(false);
        expect(isValidSolidgateSignature(pk, other, raw, signature)).toBe(false);
      }),
    );
  });

  it('refuses a truncated signature', () => {
    fc.assert(
      fc.property(key, key, body, fc.integer({ min: 1, max: 172 }), (pk, sk, raw, cut) => {
        const signature = solidgateSignature(pk, sk, raw);
        expect(isValidSolidgateSignature(pk, sk, raw, signature.slice(0, signature.length - cut))).toBe(false);
      }),
    );
  });
});
