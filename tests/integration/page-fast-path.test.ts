/**
 * The page fast path (server/page-fast-path.ts, decision 035) over a real socket: a fresh cached
 * page is answered before Fastify with the same headers as the response that cached it, its CSP
 * allows exactly the page's inline scripts by hash, and everything else (admin, API, other
 * methods, a content change) still goes through Fastify. Whether Fastify saw a request is read
 * from an onRequest hook the test adds, so "fast" means Fastify never ran.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { catalogueSeed } from '../../core/catalogue/seed/catalogue-seed.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** Headers that differ between any two responses, fast path or not. */
const PER_RESPONSE = new Set(['date', 'x-request-id', 'connection', 'keep-alive']);

function comparable(headers: http.IncomingHttpHeaders): Record<string, unknown> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !PER_RESPONSE.has(name)));
}

/** The executable inline scripts of a page (JSON-LD data blocks are not scripts the CSP governs). */
function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
    .filter(([, attributes]) => !/\ssrc=/.test(attributes ?? '') && !/application\/ld\+json/.test(attributes ?? ''))
    .map(
      ([, , text]) =>
        `'sha256-${createHash('sha256')
          .update(text ?? '')
          .digest('base64')}'`,
    );
}

describe.each(dialects)('the page fast path on %s', (dialect) => {
  let t: TestApp;
  let origin: string;
  /** Every request Fastify itself handled, as "METHOD url". */
  const reachedFastify: string[] = [];

  beforeAll(async () => {
    t = await startTestApp(dialect, {
      withPages: true,
      // HTTPS public URL in production: helmet sends HSTS, which a hit must repeat.
      env: { PUBLIC_URL: 'https://store.example' },
      routes: (app) => {
        app.addHook('onRequest', (request, _reply, done) => {
          reachedFastify.push(`${request.method} ${request.url}`);
          done();
        });
      },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(() => {
    reachedFastify.length = 0;
  });

  function request(url: string, options: { method?: string; headers?: Record<string, string> } = {}) {
    return new Promise<RawResponse>((resolve, reject) => {
      const outgoing = http.request(
        `${origin}${url}`,
        { method: options.method ?? 'GET', headers: options.headers ?? {} },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
          );
        },
      );
      outgoing.on('error', reject);
      outgoing.end();
    });
  }

  it('answers a cached page before Fastify, with the same headers and bytes as the miss', async () => {
    const url = '/service/instagram-followers';
    const miss = await request(url, { headers: { 'accept-encoding': 'br' } });
    const hit = await request(url, { headers: { 'accept-encoding': 'br' } });
    expect(reachedFastify).toEqual([`GET ${url}`]);
    expect(hit.status).toBe(200);
    expect(comparable(hit.headers)).toEqual(comparable(miss.headers));
    expect(hit.body.equals(miss.body)).toBe(true);
    expect(hit.headers['content-encoding']).toBe('br');
    expect(hit.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    expect(hit.headers['x-content-type-options']).toBe('nosniff');
    expect(hit.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(hit.headers['cache-control']).toBe('public, max-age=60, stale-while-revalidate=600');
    expect(hit.headers.vary).toBe('Accept-Encoding');
    expect(hit.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(hit.headers['x-request-id']).not.toBe(miss.headers['x-request-id']);
  });

  it('counts cached pages in /metrics: page-cache hits and their request durations', async () => {
    const counts = async () => {
      const text = (await request('/metrics')).body.toString();
      const number = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? 0);
      return {
        hits: number(/^boostly_page_cache_requests_total\{result="hit"\} (\d+)$/m),
        fast: number(
          /^boostly_http_request_duration_seconds_count\{method="GET",route="page \(cached\)",status="200"\} (\d+)$/m,
        ),
        fastUnder10s: number(
          /^boostly_http_request_duration_seconds_bucket\{le="10",method="GET",route="page \(cached\)",status="200"\} (\d+)$/m,
        ),
      };
    };
    await request('/courses');
    const before = await counts();
    for (let i = 0; i < 3; i++) await request('/courses');
    const after = await counts();
    expect(after.hits - before.hits).toBe(3);
    expect(after.fast - before.fast).toBe(3);
    expect(after.fastUnder10s - before.fastUnder10s).toBe(3);
  });

  it('allows exactly the page’s inline scripts by hash, no nonce anyone could reuse', async () => {
    await request('/');
    const hit = await request('/');
    expect(reachedFastify).toEqual(['GET /']);
    const csp = String(hit.headers['content-security-policy']);
    expect(csp).not.toContain("'nonce-");
    const scriptSrc = /script-src ([^;]+)/.exec(csp)?.[1]?.split(' ') ?? [];
    const hashes = inlineScriptHashes(hit.body.toString());
    expect(hashes.length).toBeGreaterThan(0);
    expect(scriptSrc.filter((source) => source.startsWith("'sha256-")).sort()).toEqual([...new Set(hashes)].sort());
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
  });

  it('negotiates brotli, gzip and none from the same cached page, and answers HEAD without a body', async () => {
    await request('/blog');
    const plain = await request('/blog');
    const br = await request('/blog', { headers: { 'accept-encoding': 'gzip, br' } });
    const gzip = await request('/blog', { headers: { 'accept-encoding': 'gzip' } });
    const head = await request('/blog', { method: 'HEAD', headers: { 'accept-encoding': 'br' } });
    expect(reachedFastify).toEqual(['GET /blog']);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(br.headers['content-encoding']).toBe('br');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(String(br.body.length));
    expect(head.headers['content-security-policy']).toBe(plain.headers['content-security-policy']);
  });

  it('keeps the caller’s request id, as Fastify does', async () => {
    await request('/faq');
    const hit = await request('/faq', { headers: { 'x-request-id': 'trace-123' } });
    expect(reachedFastify).toEqual(['GET /faq']);
    expect(hit.headers['x-request-id']).toBe('trace-123');
  });

  it('never takes admin pages, the API or other methods', async () => {
    await request('/');
    await request('/'); // cached from here on
    reachedFastify.length = 0;
    for (let i = 0; i < 2; i += 1) {
      await request('/admin');
      await request('/admin/login');
      await request('/api/services');
      await request('/', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      await request('/', { method: 'OPTIONS' });
    }
    expect(reachedFastify).toEqual(
      Array.from({ length: 2 }, () => [
        'GET /admin',
        'GET /admin/login',
        'GET /api/services',
        'POST /',
        'OPTIONS /',
      ]).flat(),
    );
  });

  it('misses at once after a blog post is written or the catalogue changes', async () => {
    await request('/');
    const before = await request('/');
    reachedFastify.length = 0;
    const created = await t.store.blog.createPost({ title: 'Fast path buster', description: '<p>New.</p>' });
    expect(created.ok).toBe(true);
    const afterPost = await request('/');
    expect(reachedFastify).toEqual(['GET /']);
    expect(afterPost.body.equals(before.body)).toBe(false);

    reachedFastify.length = 0;
    const changed = structuredClone(catalogueSeed);
    changed.groups[0].services[0].name = 'Instagram Followers Fast';
    await t.store.catalogue.replaceCatalogue(changed);
    try {
      const afterCatalogue = await request('/');
      expect(reachedFastify).toEqual(['GET /']);
      expect(afterCatalogue.body.toString()).toContain('Instagram Followers Fast');
      await request('/');
      expect(reachedFastify).toEqual(['GET /']);
    } finally {
      await t.store.catalogue.replaceCatalogue(catalogueSeed);
      await t.store.blog.deletePost('fast-path-buster');
    }
  });
  it('serves a link from an ad or a post from the cache, whatever its tracking parameters', async () => {
    const first = await request('/courses?utm_source=ig&utm_campaign=spring&gclid=a1', {
      headers: { 'accept-encoding': 'br' },
    });
    const other = await request('/courses?utm_source=tiktok&fbclid=b2&ttclid=c3&msclkid=d4', {
      headers: { 'accept-encoding': 'br' },
    });
    const bare = await request('/courses', { headers: { 'accept-encoding': 'br' } });
    // One render for all three: the page is keyed (and rendered) without the tracking parameters.
    expect(reachedFastify).toEqual(['GET /courses?utm_source=ig&utm_campaign=spring&gclid=a1']);
    expect(other.status).toBe(200);
    expect(other.body.equals(first.body)).toBe(true);
    expect(bare.body.equals(first.body)).toBe(true);
    const html = brotliDecompressSync(first.body).toString('utf8');
    expect(html).not.toMatch(/utm_|gclid/);

    // Other parameters still reach the page: the search keeps its words.
    const search = await request('/blog?utm_medium=email&s=likes&gclid=e5');
    expect(search.status).toBe(200);
    expect(search.body.toString('utf8')).toContain('for “likes”');
  });
});

describe.each(dialects)('the page fast path at a sale boundary on %s', (dialect) => {
  let t: TestApp;
  let origin: string;
  const reachedFastify: string[] = [];
  let startsAt = 0;

  beforeAll(async () => {
    // Far enough ahead for the app to start and the test to cache the page before the sale.
    startsAt = Date.now() + 8_000;
    t = await startTestApp(dialect, {
      withPages: true,
      // The sale (decision 031) starts a few seconds into the test; its phase is part of the
      // catalogue version, so of the page cache key the fast path looks up.
      env: {
        SALE_PERCENT: '20',
        SALE_STARTS_AT: new Date(startsAt).toISOString(),
        SALE_ENDS_AT: new Date(startsAt + 3_600_000).toISOString(),
      },
      routes: (app) => {
        app.addHook('onRequest', (request, _reply, done) => {
          reachedFastify.push(`${request.method} ${request.url}`);
          done();
        });
      },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('stops serving the page cached before the sale the moment it starts', async () => {
    const html = async () => (await fetch(`${origin}/`)).text();
    expect(Date.now(), 'the test started after the sale').toBeLessThan(startsAt - 500);
    expect(await html()).not.toContain('20% OFF');
    await html();
    expect(reachedFastify).toEqual(['GET /']);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, startsAt - Date.now() + 50)));
    expect(await html()).toContain('20% OFF');
    expect(reachedFastify).toEqual(['GET /', 'GET /']);
  }, 30_000);
});
