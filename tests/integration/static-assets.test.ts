/**
 * The browser build's files are compressed once, when the store is built (vite.config.ts,
 * precompressAssets), and sent as those copies: not compressed again on every request.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, root, startTestApp } from '../support/app.ts';

const clientDir = path.join(root, 'build/client');
const TEXT = /\.(?:js|css|svg|json)$/;

/** Every text file of the browser build worth a compressed copy (1 KB or more), relative paths. */
function compressibleFiles(): string[] {
  return readdirSync(clientDir, { recursive: true, encoding: 'utf8' })
    .filter((file) => TEXT.test(file))
    .filter((file) => statSync(path.join(clientDir, file)).size >= 1024);
}

describe('the browser build, compressed once', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite', { withPages: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('has a Brotli and a gzip copy of every text file, each the same bytes when decoded', () => {
    const files = compressibleFiles();
    // Scripts, the stylesheet and the public images all have one.
    expect(files.some((file) => file.startsWith('assets/') && file.endsWith('.js'))).toBe(true);
    expect(files.some((file) => file.endsWith('.css'))).toBe(true);
    expect(files.some((file) => file.startsWith('images/') && file.endsWith('.svg'))).toBe(true);
    for (const file of files) {
      const original = readFileSync(path.join(clientDir, file));
      expect(brotliDecompressSync(readFileSync(path.join(clientDir, `${file}.br`))).equals(original), file).toBe(true);
      expect(gunzipSync(readFileSync(path.join(clientDir, `${file}.gz`))).equals(original), file).toBe(true);
    }
  });

  it('sends the copy the browser accepts as it is, with its length, type and caching', async () => {
    const largestScript = compressibleFiles()
      .filter((file) => file.endsWith('.js'))
      .sort((a, b) => statSync(path.join(clientDir, b)).size - statSync(path.join(clientDir, a)).size)[0];
    expect(largestScript).toBeDefined();
    const file = path.join(clientDir, largestScript ?? '');
    for (const [acceptEncoding, encoding, sent] of [
      ['gzip, deflate, br', 'br', `${file}.br`],
      ['gzip', 'gzip', `${file}.gz`],
      ['identity', undefined, file],
    ] as const) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/${largestScript}`,
        headers: { 'accept-encoding': acceptEncoding },
      });
      expect(response.statusCode, acceptEncoding).toBe(200);
      expect(response.headers['content-encoding'], acceptEncoding).toBe(encoding);
      expect(response.rawPayload.equals(readFileSync(sent)), `${acceptEncoding}: the stored copy`).toBe(true);
      expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
      expect(response.headers['content-type']).toMatch(/^(?:application|text)\/javascript/);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(response.headers['vary']).toMatch(/accept-encoding/i);
    }
  });
});
