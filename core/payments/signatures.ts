/**
 * Razorpay's signature rules (integrations.md). The sandbox signs with the same rules and its
 * own secret, so the verification path is one and the same.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export function hmacSha256Hex(secret: string, message: string | Buffer): string {
  return createHmac('sha256', secret).update(message).digest('hex');
}

/** Checkout handler signature: HMAC-SHA256(order_id + "|" + payment_id) with the key secret. */
export function paymentSignature(secret: string, providerOrderId: string, paymentId: string): string {
  return hmacSha256Hex(secret, `${providerOrderId}|${paymentId}`);
}

/** Compares hex digests in constant time; anything malformed is simply unequal. */
export function sameHex(expected: string, received: string): boolean {
  if (!/^[0-9a-f]+$/i.test(received) || received.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(expected, 'hex'), Buffer.from(received.toLowerCase(), 'hex'));
}

export function isValidPaymentSignature(
  secret: string,
  providerOrderId: string,
  paymentId: string,
  signature: string,
): boolean {
  return sameHex(paymentSignature(secret, providerOrderId, paymentId), signature);
}

/** Webhook signature: HMAC-SHA256 of the raw body with the webhook secret. */
export function isValidWebhookSignature(secret: string, rawBody: Buffer | string, signature: string): boolean {
  return sameHex(hmacSha256Hex(secret, rawBody), signature);
}
