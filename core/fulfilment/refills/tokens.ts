/**
 * The /client proof for a refill request: the order list came back for the e-mailed code, and
 * each refillable row carries a short-lived HMAC over (order, e-mail, expiry) that only that
 * lookup hands out. No account, nothing stored.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a /client lookup's refill token is good for. */
export const REFILL_TOKEN_TTL_MS = 60 * 60 * 1000;

function sign(key: string, providerOrderId: string, email: string, expires: number): string {
  return createHmac('sha256', key)
    .update(`refill\n${providerOrderId}\n${email.toLowerCase()}\n${expires}`)
    .digest('base64url');
}

export function issueRefillToken(key: string, nowMs: number, providerOrderId: string, email: string): string {
  const expires = nowMs + REFILL_TOKEN_TTL_MS;
  return `${expires}.${sign(key, providerOrderId, email, expires)}`;
}

export function isRefillTokenValid(
  key: string,
  nowMs: number,
  token: string,
  order: { provider_order_id: string; email: string },
): boolean {
  const [expiresText, signature] = token.split('.');
  if (!expiresText || !signature || !/^\d{1,15}$/.test(expiresText)) return false;
  const expires = Number(expiresText);
  if (expires < nowMs) return false;
  const expected = Buffer.from(sign(key, order.provider_order_id, order.email, expires));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
