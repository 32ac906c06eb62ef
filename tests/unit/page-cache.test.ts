import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  type RenderedPage,
  PageCache,
  encodedBody,
  isCachedPage,
  parseCacheControl,
  pickEncoding,
} from '../../server/page-cache.ts';
import { waitFor } from '../support/wait-for.ts';

const page = (
  body: string,
  cacheControl: string | null = 'public, max-age=60, stale-while-revalidate=600',
  status = 200,
): RenderedPage => ({
  status,
  headers: [['content-type', 'text/html']],
  body: Buffer.from(body),
  nonce: 'n',
  cacheControl,
});

describe('parseCacheControl', () => {
  it('reads public max-age and stale-while-revalidate', () => {
    expect(parseCacheControl('public, max-age=60, stale-while-revalidate=600')).toEqual({ maxAge: 60, swr: 600 });
    expect(parseCacheControl('public, max-age=5')).toEqual({ maxAge: 5, swr: 0 });
  });

  it('refuses private, no-store and unbounded responses', () => {
    expect(parseCacheControl('private, no-store')).toBeNull();
    expect(parseCacheControl('public, no-store, max-age=5')).toBeNull();
    expect(parseCacheControl('public')).toBeNull();
    expect(parseCacheControl(null)).toBeNull();
  });
});

describe('PageCache', () => {
  it('renders once for concurrent misses and serves the entry while fresh', async () => {
    let now = 0;
    let renders = 0;
    const cache = new PageCache({ maxSeconds: 60, now: () => now });
    // The render stays pending until every request has asked, so all ten miss at once.
    let finishRender = () => {};
    const rendered = new Promise<void>((resolve) => (finishRender = resolve));
    const render = async () => {
      renders += 1;
      await rendered;
      return page(`v${renders}`);
    };
    const pending = Array.from({ length: 10 }, () => cache.get('/', render));
    finishRender();
    const results = await Promise.all(pending);
    expect(renders).toBe(1);
    expect(new Set(results.map((r) => r.body.toString()))).toEqual(new Set(['v1']));
    now = 59_000;
    expect((await cache.get('/', render)).body.toString()).toBe('v1');
    expect(renders).toBe(1);
  });

  it('serves stale within stale-while-revalidate and refreshes in the background', async () => {
    let now = 0;
    let renders = 0;
    const cache = new PageCache({ maxSeconds: 60, now: () => now });
    const render = () => Promise.resolve(page(`v${++renders}`));
    await cache.get('/', render);
    now = 61_000;
    expect((await cache.get('/', render)).body.toString()).toBe('v1');
    await waitFor(async () => (await cache.get('/', render)).body.toString() === 'v2', {
      message: 'the background refresh to replace the stale page',
    });
    expect(renders).toBe(2);
  });

  it('renders again once past the stale window', async () => {
    let now = 0;
    let renders = 0;
    const cache = new PageCache({ maxSeconds: 60, now: () => now });
    const render = () => Promise.resolve(page(`v${++renders}`));
    await cache.get('/', render);
    now = 60_000 + 600_000 + 1;
    expect((await cache.get('/', render)).body.toString()).toBe('v2');
  });

  it('caps freshness at its own limit and never keeps non-200 or private pages', async () => {
    let now = 0;
    let renders = 0;
    const cache = new PageCache({ maxSeconds: 10, now: () => now });
    await cache.get('/a', () => Promise.resolve(page(`v${++renders}`, 'public, max-age=60')));
    now = 11_000;
    await cache.get('/a', () => Promise.resolve(page(`v${++renders}`, 'public, max-age=60')));
    expect(renders).toBe(2);

    const notFound = await cache.get('/missing', () => Promise.resolve(page('nf', 'public, max-age=60', 404)));
    expect(isCachedPage(notFound)).toBe(false);
    const personal = await cache.get('/me', () => Promise.resolve(page('me', 'private, no-store')));
    expect(isCachedPage(personal)).toBe(false);
  });

  it('evicts the least recently stored entry beyond its size', async () => {
    let renders = 0;
    const cache = new PageCache({ maxSeconds: 60, maxEntries: 2, now: () => 0 });
    const render = () => Promise.resolve(page(`v${++renders}`));
    await cache.get('/1', render);
    await cache.get('/2', render);
    await cache.get('/3', render);
    await cache.get('/2', render);
    expect(renders).toBe(3);
    await cache.get('/1', render);
    expect(renders).toBe(4);
  });
});

describe('compressed variants', () => {
  it('picks br over gzip and encodes once per entry', async () => {
    expect(pickEncoding('gzip, deflate, br')).toBe('br');
    expect(pickEncoding('gzip')).toBe('gzip');
    expect(pickEncoding(undefined)).toBe('identity');
    const cache = new PageCache({ maxSeconds: 60, now: () => 0 });
    const entry = await cache.get('/', () => Promise.resolve(page('hello '.repeat(500))));
    if (!isCachedPage(entry)) throw new Error('expected a cached page');
    const br = encodedBody(entry, 'br');
    expect(encodedBody(entry, 'br')).toBe(br);
    expect(brotliDecompressSync(br).toString()).toBe('hello '.repeat(500));
    expect(gunzipSync(encodedBody(entry, 'gzip')).toString()).toBe('hello '.repeat(500));
  });
});
