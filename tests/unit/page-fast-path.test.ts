/**
 * The fast path's own rules with the real PageCache (server/page-fast-path.ts): even an entry the
 * cache holds is never served to another method, under /api or /admin, when stale, when Fastify
 * has not recorded its headers yet, or once the server is closing. And the hash CSP helpers.
 */
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { CachedPageLog } from '../../server/cached-page-log.ts';
import { PageCache, inlineScriptHashes } from '../../server/page-cache.ts';
import { createPageFastPath } from '../../server/page-fast-path.ts';
import { createRequestIds } from '../../server/request-id.ts';
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

/** A response that records what the fast path wrote (its flat header list as an object). */
function fakeResponse() {
  const written: { status?: number; headers?: Record<string, string>; body?: Buffer | undefined } = {};
  const response = Object.assign(new EventEmitter(), {
    writeHead(status: number, headers: string[]) {
      written.status = status;
      written.headers = {};
      for (let i = 0; i < headers.length; i += 2) written.headers[headers[i]] = headers[i + 1];
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

/** A pino logger at `level` whose lines land in `lines`. */
function capturingLogger(level: string) {
  const lines: Record<string, unknown>[] = [];
  const logger = pino(
    { level },
    { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  );
  return { logger, lines };
}

describe('page fast path', () => {
  const logger = pino({ level: 'silent' });
  const quiet = { log: new CachedPageLog(() => logger), observe: () => {}, requestIds: createRequestIds() };

  it('serves a fresh recorded entry with its recorded headers, a request id and the length', async () => {
    const clock = { now: 0 };
    const fast = createPageFastPath({
      pageCache: await cacheHolding(['/'], clock),
      contentVersion: () => 1,
      ...quiet,
    });
    const { response, written } = fakeResponse();
    expect(fast.serve(requestFor('GET', '/'), response)).toBe(true);
    expect(written.status).toBe(200);
    expect(written.headers).toMatchObject({
      'content-type': 'text/html',
      'x-frame-options': 'DENY',
      'content-length': String(HTML.length),
    });
    expect(written.headers?.['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(written.body?.toString()).toBe(HTML);
  });

  it('leaves other methods, /api, /admin, unknown, stale and unrecorded pages to Fastify', async () => {
    const clock = { now: 0 };
    const cache = await cacheHolding(['/', '/admin', '/admin/orders', '/api/services'], clock);
    const fast = createPageFastPath({ pageCache: cache, contentVersion: () => 1, ...quiet });
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
    const changed = createPageFastPath({ pageCache: cache, contentVersion: () => 2, ...quiet });
    expect(changed.serve(requestFor('GET', '/'), fakeResponse().response)).toBe(false);

    // Past its freshness: Fastify serves it stale and refreshes it in the background.
    clock.now = 61_000;
    expect(fast.serve(requestFor('GET', '/'), fakeResponse().response)).toBe(false);

    const unrecorded = createPageFastPath({
      pageCache: await cacheHolding(['/'], { now: 0 }, false),
      contentVersion: () => 1,
      ...quiet,
    });
    expect(unrecorded.serve(requestFor('GET', '/'), fakeResponse().response)).toBe(false);
  });

  it('steps aside once stopped (the server is closing)', async () => {
    const fast = createPageFastPath({
      pageCache: await cacheHolding(['/'], { now: 0 }),
      contentVersion: () => 1,
      ...quiet,
    });
    fast.stop();
    expect(fast.serve(requestFor('GET', '/'), fakeResponse().response)).toBe(false);
  });
});

describe('the access log and metric of cached pages', () => {
  const served = async (level: string, urls: string[]) => {
    const { logger, lines } = capturingLogger(level);
    const observed: [string, number, number][] = [];
    const log = new CachedPageLog(() => logger);
    const fast = createPageFastPath({
      pageCache: await cacheHolding(['/', '/blog', '/blog?s=likes', '/review/secret-token'], { now: 0 }),
      contentVersion: () => 1,
      log,
      observe: (method, status, seconds) => observed.push([method, status, seconds]),
      requestIds: createRequestIds(),
    });
    for (const url of urls) expect(fast.serve(requestFor('GET', url), fakeResponse().response)).toBe(true);
    return { fast, log, lines, observed };
  };

  it('sums cached pages up at info: no line per page, one summary when it is due or the server closes', async () => {
    const { fast, lines, observed } = await served('info', ['/', '/', '/blog?s=likes', '/review/secret-token']);
    expect(lines).toEqual([]);
    expect(observed.map(([method, status]) => [method, status])).toEqual([
      ['GET', 200],
      ['GET', 200],
      ['GET', 200],
      ['GET', 200],
    ]);
    expect(observed.every(([, , seconds]) => seconds >= 0 && seconds < 1)).toBe(true);
    fast.stop();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 30,
      msg: 'cached pages served',
      requests: 4,
      paths: { '/': 2, '/blog': 1, '/review/[redacted]': 1 },
      statuses: { '200': 4 },
    });
    expect(JSON.stringify(lines)).not.toContain('secret-token');
    // Nothing new since: no empty summary.
    fast.stop();
    expect(lines).toHaveLength(1);
  });

  it('writes the summary by itself a minute after the first page', async () => {
    const { logger, lines } = capturingLogger('info');
    const log = new CachedPageLog(() => logger, 20);
    log.record('GET', '/', 200, 1.2, 'id-1');
    log.record('HEAD', '/', 200, 3.4, 'id-2');
    expect(lines).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(lines).toEqual([expect.objectContaining({ requests: 2, slowestMs: 4, paths: { '/': 2 } })]);
  });

  it('names at most 50 paths in a summary and counts the rest together', () => {
    const { logger, lines } = capturingLogger('info');
    const log = new CachedPageLog(() => logger);
    for (let i = 0; i < 60; i += 1) log.record('GET', `/blog/post-${i}`, 200, 1, `id-${i}`);
    log.record('GET', '/blog/post-1', 200, 1, 'again');
    log.flush();
    const paths = lines[0]?.['paths'] as Record<string, number>;
    expect(Object.keys(paths)).toHaveLength(51);
    expect(paths['(other paths)']).toBe(10);
    expect(paths['/blog/post-1']).toBe(2);
  });

  it('keeps a line per page at debug, and writes nothing at warn', async () => {
    const debug = await served('debug', ['/', '/blog']);
    expect(debug.lines.map((line) => [line['msg'], line['url'], line['status']])).toEqual([
      ['request', '/', 200],
      ['request', '/blog', 200],
    ]);
    expect(debug.lines[0]?.['reqId']).toMatch(/^[0-9a-f-]{36}$/);
    debug.fast.stop();
    expect(debug.lines).toHaveLength(2);

    const warn = await served('warn', ['/', '/blog']);
    warn.fast.stop();
    expect(warn.lines).toEqual([]);
    expect(warn.observed).toHaveLength(2);
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
