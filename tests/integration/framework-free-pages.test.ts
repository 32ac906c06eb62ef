/**
 * The pages without framework JavaScript (app/page-handle.ts), as the real app serves them on both
 * dialects: no script file and no preload of one, no React Router context, at most one inline
 * script (JSON-LD is data, not code) of at most 30 KB gzip, and ordinary links. What only a
 * browser can show (no script requested at run time, the interactive parts working without
 * JavaScript) stays in tests/e2e/framework-free.spec.ts. Needs the production build.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, startTestApp } from '../support/app.ts';
import { PHONE_BROWSER } from '../support/html.ts';
import { dialects } from '../support/databases.ts';

const JS_BUDGET_BYTES = 30 * 1024;

/** The storefront pages (sale bar, header and footer), the not-found page, then the blog's. */
const PAGES = [
  { url: '/privacy-policy', status: 200 },
  { url: '/terms-condition', status: 200 },
  { url: '/disclaimer', status: 200 },
  { url: '/refund-policy', status: 200 },
  { url: '/faq', status: 200 },
  { url: '/courses', status: 200 },
  { url: '/course/cybersecurity', status: 200 },
  { url: '/no-such-page-here', status: 404 },
  { url: '/blog/grow-instagram-account-safely', status: 200 },
  { url: '/instagram-issue', status: 200 },
  { url: '/media-update', status: 200 },
] as const;

describe.each(dialects)('pages without framework JavaScript on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, { withPages: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: PHONE_BROWSER });

  it.each(PAGES)('$url loads at most 30 KB of JavaScript, and no framework', async ({ url, status }) => {
    const response = await get(url);
    expect(response.statusCode, url).toBe(status);
    const html = response.body;
    // No script file at all (React Router's chunks are files), nor any preload of one.
    expect(html).not.toMatch(/<script\b[^>]*\bsrc=/);
    expect(html).not.toMatch(/<script\b[^>]*type="module"/);
    expect(html).not.toContain('modulepreload');
    expect(html).not.toContain('__reactRouterContext');
    // Inline scripts (JSON-LD is data, not code): gzip, as the response is sent.
    const inline = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
      .filter((match) => !(match[1] ?? '').includes('application/ld+json'))
      .map((match) => match[2] ?? '');
    expect(inline.length).toBeLessThanOrEqual(1);
    const gzip = inline.reduce((sum, text) => sum + gzipSync(text).length, 0);
    expect(gzip).toBeLessThanOrEqual(JS_BUDGET_BYTES);
    // Links are ordinary: nothing the router would intercept.
    expect(html.match(/<a\b[^>]*\bhref=/g)?.length ?? 0).toBeGreaterThan(5);
  });

  it('interactive pages still load the framework', async () => {
    const home = await get('/');
    expect(home.statusCode).toBe(200);
    expect(home.body).toMatch(/<script\b[^>]*type="module"/);
  });
});
