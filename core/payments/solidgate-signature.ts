/**
 * Solidgate's one signature rule, used for every API call and every webhook (with the webhook key
 * pair): base64 of the lowercase hex of HMAC-SHA512(secret key, public key + body + public key).
 * The body is signed as raw bytes, so a webhook is verified over exactly what arrived.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export function solidgateSignature(publicKey: string, secretKey: string, body: string | Buffer): string {
  const hex = createHmac('sha512', secretKey).update(publicKey).update(body).update(publicKey).digest('hex');
  return Buffer.from(hex, 'utf8').toString('base64');
}

/** Compares in constant time; a signature of another length or shape is simply unequal. */
export function isValidSolidgateSignature(
  publicKey: string,
  secretKey: string,
  body: Buffer | string,
  signature: string,
): boolean {
  const expected = Buffer.from(solidgateSignature(publicKey, secretKey, body), 'utf8');
  const received = Buffer.from(signature, 'utf8');
  return received.length === expected.length && timingSafeEqual(expected, received);
}
