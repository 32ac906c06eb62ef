/**
 * The mock-up pages (docs/decisions/028-mock-up-pages.md) server-rendered by the real app on both
 * dialects: 200, noindex, the preview banner, the canonical URL and the honest wording; and the
 * payment mock-up's old addresses, which go home now that the order page has the real chooser.
 * Needs the production build (`npm run build`), like tests/integration/pages.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, startTestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';

const PUBLIC_URL = 'https://shop.example.com';

const PAGES = [
  { path: '/free-followers', title: 'Free Instagram Followers (preview) | Boostly', h1: 'Free Instagram Followers' },
] as const;

describe.each(dialects)('mock-up pages on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, { withPages: true, env: { PUBLIC_URL } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const get = async (url: string) => {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode, url).toBe(200);
    return response.body;
  };

  it.each(PAGES)('$path: 200, title, noindex, canonical URL and the preview banner', async (page) => {
    const html = await get(page.path);
    expect(html).toContain(`<title>${page.title.replace('&', '&amp;')}</title>`);
    expect(html).toMatch(/<meta name="robots" content="noindex, follow"\/>/);
    expect(html).toContain(`<link rel="canonical" href="${PUBLIC_URL}${page.path}"/>`);
    expect(html).toMatch(/data-testid="preview-banner"/);
    expect(html).toMatch(new RegExp(`<h1[^>]*>${page.h1}</h1>`));
  });

  it('/free-followers: the two fields, the placeholder 10-350000, eight packages and three buttons', async () => {
    const html = await get('/free-followers');
    expect(html).toContain('placeholder="10-350000"');
    expect(html.match(/>Get Free Followers</g)).toHaveLength(3);
    expect(html.match(/>Free trial</g)).toHaveLength(8);
    expect(html).toContain('free trials are not offered yet');
    expect(html).toContain('href="/service/instagram-followers"');
  });

  it.each(['/payment', '/payment?step=billing&method=cryptomus', '/payment/sample-confirmation?method=card-3ds'])(
    '%s: a permanent redirect to the store home, where a purchase starts',
    async (url) => {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(301);
      expect(response.headers.location).toBe('/');
    },
  );
});
