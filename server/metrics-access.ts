/**
 * Who may read GET /metrics: with METRICS_TOKEN set, only a request bearing it; without, only a
 * request from this machine. The address is the socket's, never X-Forwarded-For, so a proxy in
 * front (TRUST_PROXY) cannot be talked into vouching for an outside caller.
 */
import { timingSafeEqual, createHash } from 'node:crypto';

export type MetricsAccess = 'allowed' | 'unauthorized' | 'forbidden';

export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  if (address === '::1') return true;
  const ipv4 = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(ipv4);
}

/** Compares digests so neither the token's length nor its prefix shows in the timing. */
function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

export function metricsAccess(input: {
  token: string | undefined;
  authorization: string | undefined;
  socketAddress: string | undefined;
}): MetricsAccess {
  if (input.token) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(input.authorization ?? '');
    return match?.[1] !== undefined && sameSecret(match[1], input.token) ? 'allowed' : 'unauthorized';
  }
  return isLoopbackAddress(input.socketAddress) ? 'allowed' : 'forbidden';
}
