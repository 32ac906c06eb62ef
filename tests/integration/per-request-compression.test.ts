import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PER_REQUEST_BROTLI_QUALITY, PER_REQUEST_GZIP_LEVEL } from '../../server/compression.ts';
import { dialects } from '../support/databases.ts';
import { type TestApp, startTestApp } from '../support/app.ts';

// A page rendered for one request (a blog search: never cached) is compressed on the core that
// rendered it: at a fast level, not at the high one a cached page is compressed with once.
describe.each(dialects)('compression of replies rendered per request on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, { withPages: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('sends a blog search in Brotli at the per-request quality, not a slower one', async () => {
    expect(PER_REQUEST_BROTLI_QUALITY).toBeLessThanOrEqual(3);
    const response = await t.app.inject({
      method: 'GET',
      url: '/blog?s=instagram',
      headers: { 'accept-encoding': 'br' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    const html = brotliDecompressSync(response.rawPayload);
    expect(html.toString()).toContain('instagram');
    const atQuality = (quality: number) =>
      brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: quality } }).length;
    expect(response.rawPayload.length).toBe(atQuality(PER_REQUEST_BROTLI_QUALITY));
    // Quality 5 (the level before) makes a smaller body for this page: the reply was not made with it.
    expect(atQuality(5)).toBeLessThan(response.rawPayload.length);
  });

  it('sends a blog search in gzip at the per-request level to clients without Brotli', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/blog?s=instagram',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(response.headers['content-encoding']).toBe('gzip');
    const html = gunzipSync(response.rawPayload);
    expect(response.rawPayload.length).toBe(gzipSync(html, { level: PER_REQUEST_GZIP_LEVEL }).length);
  });

  it('sends a page rendered per request whole: one compressed body with its length, not a stream', async () => {
    for (const encoding of ['br', 'gzip', 'identity']) {
      const response = await t.app.inject({
        method: 'GET',
        url: '/blog?s=followers',
        headers: { 'accept-encoding': encoding },
      });
      expect(response.statusCode).toBe(200);
      // A streamed reply goes out chunked, with no length: the document was rendered and compressed whole.
      expect(response.headers['transfer-encoding']).toBeUndefined();
      expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
      const html =
        encoding === 'br'
          ? brotliDecompressSync(response.rawPayload)
          : encoding === 'gzip'
            ? gunzipSync(response.rawPayload)
            : response.rawPayload;
      expect(html.toString()).toMatch(/^<!DOCTYPE html>[\s\S]*<\/html>$/);
    }
  });

  it('keeps the cached pages at the highest Brotli quality, compressed once', async () => {
    const url = '/service/tiktok-views';
    await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
    const cached = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
    const html = brotliDecompressSync(cached.rawPayload);
    expect(cached.rawPayload.length).toBeLessThan(
      brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: PER_REQUEST_BROTLI_QUALITY } }).length,
    );
  });
});
