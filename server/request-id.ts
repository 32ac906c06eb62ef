/**
 * Request ids: a random part drawn once per process and a counter, laid out as the 36 characters
 * of a UUID (8-4-4-4-12 hex) so log tools that look for one still find it. Unique across
 * instances (80 random bits each) and across requests of one (a 48-bit counter). A random UUID
 * per request cost a cached page more than the rest of its look-up; the id is a log key, not a
 * secret, so it need not be unpredictable.
 */
import { randomBytes } from 'node:crypto';

export function createRequestIds(): () => string {
  const random = randomBytes(10).toString('hex');
  const head = `${random.slice(0, 8)}-${random.slice(8, 12)}-${random.slice(12, 16)}-${random.slice(16, 20)}-`;
  const wrapAt = 2 ** 48;
  let counter = 0;
  return () => {
    counter = (counter + 1) % wrapAt;
    return head + counter.toString(16).padStart(12, '0');
  };
}
