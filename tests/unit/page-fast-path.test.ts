/**
 * The fast path's own rules with the real PageCache (server/page-fast-path.ts): even an entry the
 * cache holds is never served to another method, under /api or /admin, when stale, when Fastify
 * has not recorded its headers yet, or once the server is closing. And the hash CSP helpers.
 */
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { PageCache, inlineScriptHashes } from '../../server/page-cache.ts';
import { createPageFastPath } from '../../server/page-fast-path.ts';
import { cachedPageCsp } from '../../server/security.ts';

const HTML = '<html><script nonce="n">boot()</script><script src="/a.js"></script></html>';

/** A cache holding `urls` (fresh for 60 s on the given clock), headers recorded as Fastify would. */
async function cacheHolding(urls: string[], clock: { now: number }, record = true) {
  const cache = new PageCache({ maxSeconds: 60, now: () => clock.now });
  for (const url of urls) {
    const entry = await cache.get(`1:${url}`, () =>
      Promise.resolve({
        status: 200,
        headers: [['content-type', 'text/html']],
        body: Buffer.from(HTML),
        nonce: 'n',
        cacheControl: 'public, max-age=60, stale-while-revalidate=600',
      }),
    );
    if (record && 'freshUntil' in entry)
      entry.wireHeaders = [
        ['content-type', 'text/html'],
        ['x-frame-options', 'DENY'],
      ];
  }
  return cache;
}

/** A response that records what the fast path wrote. */
function fakeResponse() {
  const written: { status?: number; headers?: OutgoingHttpHeaders; body?: Buffer | undefined } = {};
  const response = Object.assign(new EventEmitter(), {
    writeHead(status: number, headers: OutgoingHttpHeaders) {
      written.status = status;
      written.headers = headers;
    },
    end(body?: Buffer) {
      written.body = body;
    },
  });
  return { response: response as unknown as ServerResponse, written };
}

function requestFor(method: string, url: string, headers: Record<string, string> = {}) {
  return { method, url, headers } as unknown as IncomingMessage;
}

describe('page fast path', () => {
  const logger = pino({ level: 'silent' });

  it('serves a fresh recorded entry with its recorded headers, a request id and the length', async () => {
    const clock = { now: 0 };
    const fast = createPageFastPath({
      pageCache: await cacheHolding(['/'], clock),
      contentVersion: () => 1,
      logger: () => logger,
    });
    const { response, written } = fakeResponse();
    expect(fast.serve(requestFor('GET', '/'), response)).toBe(true);
    expect(written.status).toBe(200);
    expect(written.headers).toMatchObject({
      'content-type': 'text/html',
      'x-frame-options': 'DENY',
      'content-length': HTML.length,
    });
    expect(written.headers?.['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(written.body?.toString()).toBe(HTML);
  });

  it('leaves other methods, /api, /admin, unknown, stale and unrecorded pages to Fastify', async () => {
    const clock = { now: 0 };
    const cache = await cacheHolding(['/', '/admin', '/admin/orders', '/api/services'], clock);
    const fast = createPageFastPath({ pageCache: cache, contentVersion: () => 1, logger: () => logger });
    const refused = [
      requestFor('POST', '/'),
      requestFor('PUT', '/'),
      requestFor('OPTIONS', '/'),
      requestFor('GET', '/admin'),
      requestFor('GET', '/admin/orders'),
      requestFor('GET', '/api/services'),
      requestFor('GET', '/not-cached'),
    ];
    for (const request of refused) expect(fast.serve(request, fakeResponse().response)).toBe(false);

    // Another content version (a post was written, the catalogue changed): a different key.
    const changed = createPageFastPath({ pageCache: cache, contentVersion: () => 2, logger: () => logger });
    expect(changed.serve(requestFor('GET', '/'), fakeResponse().response)).toBe(false);

    // Past its freshness: Fastify serves it stale and refreshes it in the background.
    clock.now = 61_000;
    expect(fast.serve(requestFor('GET', '/'), fakeResponse().response)).toBe(false);

    const unrecorded = createPageFastPath({
      pageCache: await cacheHolding(['/'], { now: 0 }, false),
      contentVersion: () => 1,
      logger: () => logger,
    });
    expect(unrecorded.serve(requestFor('GET', '/'), fakeResponse().response)).toBe(false);
  });

  it('steps aside once stopped (the server is closing)', async () => {
    const fast = createPageFastPath({
      pageCache: await cacheHolding(['/'], { now: 0 }),
      contentVersion: () => 1,
      logger: () => logger,
    });
    fast.stop();
    expect(fast.serve(requestFor('GET', '/'), fakeResponse().response)).toBe(false);
  });
});

describe('hash-based CSP for cached pages', () => {
  const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

  it('hashes inline scripts as the browser reads them, not external scripts or JSON-LD', () => {
    const html =
      '<script nonce="x">a()</script><script type="module" async="">b()\r\n</script>' +
      '<script src="/c.js"></script><script type="application/ld+json">{"a":1}</script><script>a()</script>';
    expect(inlineScriptHashes(html)).toEqual([sha('a()'), sha('b()\n')]);
  });

  it('lists the hashes in script-src and nothing else inline', () => {
    const csp = cachedPageCsp([sha('a()')]);
    expect(csp).toContain(`script-src 'self' ${sha('a()')};`);
    expect(csp).not.toContain('nonce');
    expect(cachedPageCsp([])).toContain("script-src 'self';");
    expect(cachedPageCsp([sha('a()')], { razorpayCheckout: true })).toContain(
      `script-src 'self' ${sha('a()')} https://checkout.razorpay.com`,
    );
  });
});
