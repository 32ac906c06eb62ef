/**
 * The FAQ and the four legal pages (decision 025), server-rendered by the real app on both dialects:
 * titles and canonical URLs, the placeholders filled from the store settings, nothing left
 * unfilled, an unset phone and address never shown, and the FAQPage JSON-LD with its 20 (the seed sells subscriptions: 3 of them are theirs)
 * questions. Needs the production build (`npm run build`), like tests/integration/pages.test.ts.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, startTestApp } from '../support/app.ts';
import { bodyText, jsonLdBlocks } from '../support/html.ts';
import { dialects } from '../support/databases.ts';

const PUBLIC_URL = 'https://shop.example.com';
const CONFIGURED = {
  PUBLIC_URL,
  SUPPORT_EMAIL: 'help@boostly.example',
  SUPPORT_PHONE: '+1 555 0100',
  OFFICE_ADDRESS: '42 Harbour Street, Portland, OR 97201',
  REFUND_WINDOW_HOURS: '36',
};

const PAGES = [
  { path: '/faq', title: 'Frequently asked questions | Boostly', lastUpdated: null },
  { path: '/privacy-policy', title: 'Privacy Policy | Boostly', lastUpdated: '2019' },
  { path: '/terms-condition', title: 'Terms of Service | Boostly', lastUpdated: 'August 2024' },
  { path: '/disclaimer', title: 'Disclaimer | Boostly', lastUpdated: null },
  { path: '/refund-policy', title: 'Refund Policy | Boostly', lastUpdated: null },
] as const;

interface FaqJsonLd {
  '@context': string;
  '@type': string;
  mainEntity: { '@type': string; name: string; acceptedAnswer: { '@type': string; text: string } }[];
}

describe.each(dialects)('help and legal pages on %s', (dialect) => {
  let configured: TestApp;
  let defaults: TestApp;
  beforeAll(async () => {
    configured = await startTestApp(dialect, { withPages: true, env: CONFIGURED });
    defaults = await startTestApp(dialect, { withPages: true, env: { PUBLIC_URL: 'https://store.example.org' } });
  });
  afterAll(async () => {
    await configured?.close();
    await defaults?.close();
  });

  const get = async (t: TestApp, url: string) => {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode, url).toBe(200);
    return response.body;
  };

  it.each(PAGES)('$path: title, description, canonical URL and heading from the server', async (page) => {
    const html = await get(configured, page.path);
    expect(html).toContain(`<title>${page.title}</title>`);
    expect(html).toMatch(/<meta name="description" content="[^"]{50,}"/);
    expect(html).toContain(`<link rel="canonical" href="${PUBLIC_URL}${page.path}"/>`);
    expect(html).toContain(`<meta property="og:url" content="${PUBLIC_URL}${page.path}"/>`);
    expect(html).toMatch(/<h1[^>]*>[^<]+<\/h1>/);
    const text = bodyText(html);
    if (page.lastUpdated) expect(text).toContain(`Last updated: ${page.lastUpdated}`);
    else expect(text).not.toContain('Last updated');
    // The store's layout: top bar and footer with the help and legal links.
    expect(html).toContain('data-testid="site-footer"');
    for (const href of ['/faq', '/privacy-policy', '/terms-condition', '/disclaimer', '/refund-policy', '/client']) {
      expect(html).toContain(`href="${href}"`);
    }
  });

  it.each(PAGES)('$path: no unfilled placeholder text', async (page) => {
    for (const t of [configured, defaults]) {
      const text = bodyText(await get(t, page.path));
      expect(text).not.toMatch(/\[[^\]]*\]/);
      expect(text).not.toMatch(/\{[^}]*\}|undefined|null|NaN|lorem|TODO|XXX|example@/i);
    }
  });

  it('fills the refund policy from the store settings', async () => {
    const text = bodyText(await get(configured, '/refund-policy'));
    expect(text).toContain('within 36 hours of the order ending canceled or partial');
    expect(text).toContain('E-mail: help@boostly.example');
    expect(text).toContain('Phone: +1 555 0100');
    expect(text).toContain('Office: 42 Harbour Street, Portland, OR 97201');
    const html = await get(configured, '/refund-policy');
    expect(html).toContain('href="mailto:help@boostly.example"');
    expect(html).toContain('href="tel:+15550100"');
  });

  it('uses the defaults when nothing is configured, and shows no phone or office address', async () => {
    for (const page of PAGES) {
      const text = bodyText(await get(defaults, page.path));
      expect(text, page.path).not.toMatch(/Phone|Office:|tel:/);
      expect(text, page.path).not.toContain('+1 555');
    }
    const refund = bodyText(await get(defaults, '/refund-policy'));
    expect(refund).toContain('within 48 hours of the order ending canceled or partial');
    expect(refund).toContain('E-mail: support@store.example.org');
    expect(await get(defaults, '/refund-policy')).not.toContain('href="tel:');
  });

  it('states what the store really does: no password, 2-year retention, refill guarantee', async () => {
    const privacy = bodyText(await get(configured, '/privacy-policy'));
    expect(privacy).toContain('No longer than 2 years');
    expect(privacy).toContain('We never ask for the password');
    const terms = bodyText(await get(configured, '/terms-condition'));
    expect(terms).toContain('refunded automatically within 36 hours');
    expect(terms).toContain('We never ask for a password');
    const refund = bodyText(await get(configured, '/refund-policy'));
    expect(refund).toContain('30-day refill guarantee');
    // The store's reviews are real customers' reviews of completed orders, checked before they show.
    const disclaimer = bodyText(await get(configured, '/disclaimer'));
    expect(disclaimer).not.toContain('illustrative');
    expect(disclaimer).toContain('written by customers through the review link we e-mail after an order is completed');
  });

  it('/faq has 20 questions, the first open, and FAQPage JSON-LD with the same 20', async () => {
    const html = await get(configured, '/faq');
    expect(html.split('data-testid="accordion-item"').length - 1).toBe(20);
    // Native disclosures in one group, the first one open (no framework JavaScript on this page).
    expect(html.split('<details name="faq"').length - 1).toBe(20);
    expect(html.split('<details name="faq" open=""').length - 1).toBe(1);

    // The page's FAQPage, beside its breadcrumb and the store's Organization (decision 029).
    const blocks = jsonLdBlocks(html).filter((block) => block.includes('"@type":"FAQPage"'));
    expect(blocks).toHaveLength(1);
    const raw = blocks[0];
    expect(raw).not.toMatch(/<\//);
    const data = JSON.parse(raw) as FaqJsonLd;
    expect(data['@context']).toBe('https://schema.org');
    expect(data['@type']).toBe('FAQPage');
    expect(data.mainEntity).toHaveLength(20);
    for (const question of data.mainEntity) {
      expect(question['@type']).toBe('Question');
      expect(question.name.length).toBeGreaterThan(5);
      expect(question.acceptedAnswer['@type']).toBe('Answer');
      expect(question.acceptedAnswer.text.length).toBeGreaterThan(20);
      // Every JSON-LD question is one the page shows.
      expect(bodyText(html)).toContain(question.name);
    }
    const answers = data.mainEntity.map((q) => q.acceptedAnswer.text).join('\n');
    expect(answers).toContain('within 36 hours');
    expect(answers).toContain('help@boostly.example');
    expect(answers).toContain('call +1 555 0100');
    expect(answers).toContain('after 2 years');
    expect(answers).toMatch(/No, never\./);

    const plain = jsonLdBlocks(await get(defaults, '/faq')).join('');
    expect(plain).not.toContain('call ');
    expect(plain).toContain('support@store.example.org');
  });

  it.each(PAGES)(
    '$path loads no framework JavaScript: one inline script, which its CSP allows, rendered or cached',
    async (page) => {
      // The second request is served from the page cache, whose CSP allows inline scripts by hash.
      for (const round of ['rendered', 'cached']) {
        const response = await configured.app.inject({ method: 'GET', url: page.path });
        const html = response.body;
        expect(html, round).not.toMatch(/<script[^>]*type="module"/);
        expect(html, round).not.toContain('modulepreload');
        expect(html, round).not.toContain('__reactRouterContext');
        const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter(
          (match) => !(match[1] ?? '').includes('application/ld+json'),
        );
        expect(scripts, round).toHaveLength(1);
        const [, attributes = '', text = ''] = scripts[0] ?? [];
        expect(text).toContain('data-share-url');
        const csp = String(response.headers['content-security-policy']);
        const nonce = /nonce="([^"]+)"/.exec(attributes)?.[1] ?? '';
        const hash = createHash('sha256').update(text).digest('base64');
        expect(csp.includes(`'nonce-${nonce}'`) || csp.includes(`'sha256-${hash}'`), `${round}: ${csp}`).toBe(true);
      }
    },
  );

  it('the home page still loads the framework', async () => {
    const home = await get(configured, '/');
    expect(home).toMatch(/<script[^>]*type="module"/);
  });

  it('links the service page’s terms notice and lists the pages in the sitemap', async () => {
    const service = await get(configured, '/service/instagram-followers');
    expect(bodyText(service)).toContain('By placing an order you agree to our Terms of Service and Privacy Policy');
    expect(service).toMatch(/<a[^>]*href="\/terms-condition"[^>]*>Terms of Service<\/a>/);
    expect(service).toMatch(/<a[^>]*href="\/privacy-policy"[^>]*>Privacy Policy<\/a>/);

    const sitemap = await get(configured, '/sitemap.xml');
    for (const page of PAGES) expect(sitemap).toContain(`<loc>${PUBLIC_URL}${page.path}</loc>`);
    expect(sitemap).toContain(`<loc>${PUBLIC_URL}/terms-condition</loc><lastmod>2024-08</lastmod>`);
  });
});
