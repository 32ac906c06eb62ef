/**
 * The mock-up pages (docs/decisions/028-mock-up-pages.md) server-rendered by the real app on both
 * dialects: 200, noindex, the preview banner, the canonical URL, the honest wording, and the
 * billing form's complete country list from i18n-iso-countries. Needs the production build
 * (`npm run build`), like tests/integration/pages.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, startTestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';

const PUBLIC_URL = 'https://shop.example.com';

const PAGES = [
  { path: '/free-followers', title: 'Free Instagram Followers (preview) | Boostly', h1: 'Free Instagram Followers' },
  { path: '/payment', title: 'Payment methods (preview) | Boostly', h1: 'Payment' },
  {
    path: '/payment/sample-confirmation',
    title: 'Sample order confirmation (preview) | Boostly',
    h1: 'Sample order confirmation',
  },
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

  it('/payment: four methods with the sample maths, and the honest note', async () => {
    const html = await get('/payment');
    for (const id of ['cryptomus', 'razorpay', 'paypal', 'card-3ds']) expect(html).toContain(`value="${id}"`);
    expect(html).toContain('$12.99 − $0.65 (5% discount) = $12.34');
    expect(html).toContain('$12.99 + $0.65 (5% surcharge) = $13.64');
    expect(html).toContain('it takes no payment and places no order');
  });

  it('/payment?step=billing: the billing form with every country of the package (250), terms and privacy links', async () => {
    const html = await get('/payment?step=billing&method=cryptomus');
    const countrySelect = /<select[^>]*name="country"[^>]*>([\s\S]*?)<\/select>/.exec(html)?.[1] ?? '';
    const options = [...countrySelect.matchAll(/<option value="([A-Z]{2})"/g)].map((match) => match[1]);
    // 249 ISO 3166-1 countries plus Kosovo (XK), as i18n-iso-countries ships them.
    expect(options).toHaveLength(250);
    expect(new Set(options).size).toBe(250);
    expect(options).toContain('XK');
    expect(countrySelect).toContain('>United Kingdom<');
    expect(html).toContain('href="/terms-condition"');
    expect(html).toContain('href="/privacy-policy"');
    expect(html).toMatch(/>Pay by <!-- -->Cryptomus<|>Pay by Cryptomus</);
    // An unknown method falls back to step 1 instead of a form for a method that does not exist.
    const unknown = await get('/payment?step=billing&method=bank-transfer');
    expect(unknown).toContain('Step 1 of 2: Choose a payment method');
  });

  it('/payment/sample-confirmation: says no order was placed, with the chosen method', async () => {
    const html = await get('/payment/sample-confirmation?method=card-3ds');
    expect(html).toContain('No order was placed.');
    expect(html).toMatch(/Card with 3-D Secure \(5% surcharge\)/);
    expect(html).toContain('$13.64');
  });
});
