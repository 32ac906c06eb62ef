/**
 * Search engines and sharing (decision 029), on the real app and both dialects: the
 * sitemap lists every public page once, each answering 200 with itself as canonical URL, a unique
 * title and description, Open Graph and Twitter tags with a raster image; every JSON-LD block on
 * those pages has the properties its type requires; robots.txt keeps private paths out; every
 * private page says noindex; the Instagram followers landing tail links to real services.
 * Needs the production build (`npm run build`), like tests/integration/pages.test.ts.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderPath } from '../../core/catalogue/order-path.ts';
import type { ServiceView } from '../../core/catalogue/types.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { decodeEntities } from '../support/html.ts';
import { dialects } from '../support/databases.ts';

const PUBLIC_URL = 'https://shop.example.com';
const SUPPORT_EMAIL = 'care@boostly.example';
/** A W3C datetime (https://www.w3.org/TR/NOTE-datetime): YYYY, YYYY-MM, YYYY-MM-DD or with a time and zone. */
const W3C_DATE =
  /^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01])(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?)?)?$/;
const SCHEMA_AVAILABILITY = /^https:\/\/schema\.org\/(InStock|OutOfStock|PreOrder|OnlineOnly|LimitedAvailability)$/;

type Json = Record<string, unknown>;

/** The head of a page: the part search engines and link previews read. */
const headOf = (html: string) => html.slice(0, html.indexOf('</head>'));

/** Every `content` (meta) or `href` (link) whose tag has attribute="value", in order. */
function headValues(html: string, attribute: string, value: string, wanted: 'content' | 'href'): string[] {
  const found: string[] = [];
  for (const tag of headOf(html).match(/<(meta|link)\b[^>]*>/g) ?? []) {
    if (!tag.includes(` ${attribute}="${value}"`)) continue;
    const match = new RegExp(`\\b${wanted}="([^"]*)"`).exec(tag)?.[1];
    if (match !== undefined) found.push(decodeEntities(match));
  }
  return found;
}

function onlyHeadValue(html: string, attribute: string, value: string, wanted: 'content' | 'href'): string {
  const values = headValues(html, attribute, value, wanted);
  expect(values, `${attribute}="${value}"`).toHaveLength(1);
  return values[0] ?? '';
}

function titleOf(html: string): string {
  const titles = [...headOf(html).matchAll(/<title>([^<]*)<\/title>/g)].map((match) => decodeEntities(match[1] ?? ''));
  expect(titles).toHaveLength(1);
  return titles[0] ?? '';
}

/** Every JSON-LD block of a page, parsed; a raw `</script` inside one would have ended it early. */
function jsonLdOf(html: string): Json[] {
  return [...html.matchAll(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g)].map((match) => {
    const text = match[1] ?? '';
    expect(text).not.toMatch(/<\/?script/i);
    return JSON.parse(text) as Json;
  });
}

const isAbsoluteOnStore = (value: unknown) => typeof value === 'string' && value.startsWith(`${PUBLIC_URL}/`);
const nonEmptyText = (value: unknown) => typeof value === 'string' && value.trim().length > 0;
const objectsIn = (value: unknown): Json[] =>
  Array.isArray(value) ? value.filter((item): item is Json => typeof item === 'object' && item !== null) : [];

/** The properties each type must have (Google's required fields, and what decision 029 promises). */
function checkJsonLd(block: Json, where: string): void {
  const label = `${where} ${String(block['@type'])}`;
  expect(block['@context'], label).toBe('https://schema.org');
  switch (block['@type']) {
    case 'Organization': {
      expect(block.name, label).toBe('Boostly');
      expect(block.url, label).toBe(`${PUBLIC_URL}/`);
      expect(block.logo, label).toMatch(new RegExp(`^${PUBLIC_URL}/.+\\.(png|jpe?g|webp)$`));
      expect(block.contactPoint, label).toMatchObject({ '@type': 'ContactPoint', email: SUPPORT_EMAIL });
      break;
    }
    case 'Product': {
      expect(nonEmptyText(block.name), label).toBe(true);
      expect(nonEmptyText(block.description), label).toBe(true);
      const offers = objectsIn(block.offers);
      expect(offers.length, label).toBeGreaterThan(0);
      for (const offer of offers) {
        expect(offer['@type'], label).toBe('Offer');
        expect(String(offer.price), label).toMatch(/^\d+(\.\d{1,4})?$/);
        expect(Number(offer.price), label).toBeGreaterThan(0);
        expect(offer.priceCurrency, label).toMatch(/^[A-Z]{3}$/);
        expect(offer.availability, label).toMatch(SCHEMA_AVAILABILITY);
        expect(isAbsoluteOnStore(offer.url), label).toBe(true);
      }
      // No made-up ratings: this store has no approved reviews, so no AggregateRating (decisions 029, 039).
      expect(block, label).not.toHaveProperty('aggregateRating');
      expect(block, label).not.toHaveProperty('review');
      break;
    }
    case 'FAQPage': {
      const questions = objectsIn(block.mainEntity);
      expect(questions.length, label).toBeGreaterThan(0);
      for (const question of questions) {
        expect(question['@type'], label).toBe('Question');
        expect(nonEmptyText(question.name), label).toBe(true);
        const answer = question.acceptedAnswer as Json | undefined;
        expect(answer?.['@type'], label).toBe('Answer');
        expect(nonEmptyText(answer?.text), label).toBe(true);
      }
      break;
    }
    case 'Course': {
      expect(nonEmptyText(block.name), label).toBe(true);
      expect(nonEmptyText(block.description), label).toBe(true);
      const provider = block.provider as Json | undefined;
      expect(nonEmptyText(provider?.name), label).toBe(true);
      break;
    }
    case 'BreadcrumbList': {
      const items = objectsIn(block.itemListElement);
      expect(items.length, label).toBeGreaterThanOrEqual(2);
      items.forEach((item, index) => {
        expect(item['@type'], label).toBe('ListItem');
        expect(item.position, label).toBe(index + 1);
        expect(nonEmptyText(item.name), label).toBe(true);
        expect(isAbsoluteOnStore(item.item), label).toBe(true);
      });
      expect(items[0]?.item, label).toBe(`${PUBLIC_URL}/`);
      break;
    }
    case 'BlogPosting': {
      expect(nonEmptyText(block.headline), label).toBe(true);
      expect(block.datePublished, label).toMatch(W3C_DATE);
      const images = Array.isArray(block.image) ? (block.image as unknown[]) : [block.image];
      expect(images.length, label).toBeGreaterThan(0);
      for (const image of images) expect(isAbsoluteOnStore(image), label).toBe(true);
      break;
    }
    default:
      // A type this suite does not know yet still has to be a named schema.org type.
      expect(nonEmptyText(block['@type']), label).toBe(true);
  }
}

const typesOf = (blocks: Json[]) => blocks.map((block) => String(block['@type']));

describe.each(dialects)('search engines and sharing on %s', (dialect) => {
  let t: TestApp;
  const get = (url: string) => t.app.inject({ method: 'GET', url });
  /** The sitemap's pages, fetched once: path → HTML. */
  const pages = new Map<string, string>();
  let lastmods: Map<string, string | undefined>;

  beforeAll(async () => {
    t = await startTestApp(dialect, { withPages: true, env: { PUBLIC_URL, SUPPORT_EMAIL } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lists every public page once in /sitemap.xml, absolute on PUBLIC_URL, with W3C lastmod dates', async () => {
    const response = await get('/sitemap.xml');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
    const xml = response.body;
    expect(xml).toMatch(
      /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9">/,
    );
    const urls = [...xml.matchAll(/<url>([\s\S]*?)<\/url>/g)].map((match) => match[1] ?? '');
    expect(urls.length).toBeGreaterThan(0);
    const locs: string[] = [];
    lastmods = new Map();
    for (const url of urls) {
      const loc = decodeEntities(/<loc>([^<]+)<\/loc>/.exec(url)?.[1] ?? '');
      const lastmod = /<lastmod>([^<]+)<\/lastmod>/.exec(url)?.[1];
      expect(isAbsoluteOnStore(loc), loc).toBe(true);
      if (lastmod !== undefined) expect(lastmod, loc).toMatch(W3C_DATE);
      locs.push(loc);
      lastmods.set(loc.slice(PUBLIC_URL.length), lastmod);
    }
    expect(new Set(locs).size, 'no page listed twice').toBe(locs.length);

    // Every kind of public page is there.
    const paths = new Set(lastmods.keys());
    const groups = await t.store.catalogue.listGroups();
    const services = groups.flatMap((group) => group.services.map((service) => `/service/${service.slug}`));
    const { posts } = await t.store.blog.listPosts({ page: 1, size: 50 });
    const required = [
      '/',
      ...services,
      '/faq',
      '/contact',
      '/privacy-policy',
      '/terms-condition',
      '/disclaimer',
      '/refund-policy',
      '/blog',
      '/courses',
      ...posts.map((post) => `/blog/${post.slug}`),
    ];
    for (const path of required) expect(paths.has(path), path).toBe(true);
    expect([...paths].filter((path) => path.startsWith('/course/')).length).toBeGreaterThanOrEqual(8);
    expect(lastmods.get('/terms-condition')).toBe('2024-08');
    for (const post of posts) expect(lastmods.get(`/blog/${post.slug}`)).toBe(post.updatedAt);
    // Nothing private or unindexable.
    for (const path of paths) {
      expect(path, path).not.toMatch(/^\/(admin|order|order-confirm|order-confrim|client|login|api)(\/|$|\?)/);
      expect(path, path).not.toContain('?s=');
    }
  });

  it('answers 200 for each listed page, with itself as canonical and a unique title and description', async () => {
    const titles = new Map<string, string>();
    const descriptions = new Map<string, string>();
    for (const path of lastmods.keys()) {
      const response = await get(path);
      expect(response.statusCode, path).toBe(200);
      const html = response.body;
      pages.set(path, html);
      const url = `${PUBLIC_URL}${path}`;
      expect(onlyHeadValue(html, 'rel', 'canonical', 'href'), path).toBe(url);
      expect(headValues(html, 'name', 'robots', 'content').join(), path).not.toContain('noindex');

      const title = titleOf(html);
      expect(title, path).toMatch(/\S.* \| Boostly$/);
      expect(titles.get(title), `${path} has the title of ${titles.get(title)}`).toBeUndefined();
      titles.set(title, path);
      const description = onlyHeadValue(html, 'name', 'description', 'content');
      expect(description.length, path).toBeGreaterThan(30);
      expect(
        descriptions.get(description),
        `${path} has the description of ${descriptions.get(description)}`,
      ).toBeUndefined();
      descriptions.set(description, path);

      // Link previews: Open Graph and the Twitter card, with an absolute raster image.
      expect(onlyHeadValue(html, 'property', 'og:url', 'content'), path).toBe(url);
      expect(nonEmptyText(onlyHeadValue(html, 'property', 'og:title', 'content')), path).toBe(true);
      expect(onlyHeadValue(html, 'property', 'og:description', 'content'), path).toBe(description);
      const image = onlyHeadValue(html, 'property', 'og:image', 'content');
      expect(isAbsoluteOnStore(image), path).toBe(true);
      expect(image, path).toMatch(/\.(png|jpe?g|webp)$/i);
      expect(onlyHeadValue(html, 'name', 'twitter:card', 'content'), path).toBe('summary_large_image');
      expect(onlyHeadValue(html, 'name', 'twitter:image', 'content'), path).toBe(image);
    }
  });

  it('serves the default share image as a 1200×630 PNG and the logo as a raster', async () => {
    const html = pages.get('/contact') ?? '';
    const image = onlyHeadValue(html, 'property', 'og:image', 'content');
    expect(image).toBe(`${PUBLIC_URL}/images/share/boostly-share.png`);
    expect(onlyHeadValue(html, 'property', 'og:image:width', 'content')).toBe('1200');
    expect(onlyHeadValue(html, 'property', 'og:image:height', 'content')).toBe('630');
    const served = await get(image.slice(PUBLIC_URL.length));
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({ format: 'png', width: 1200, height: 630 });

    const logo = await get('/images/share/boostly-logo.png');
    expect(logo.statusCode).toBe(200);
    expect(await sharp(logo.rawPayload).metadata()).toMatchObject({ format: 'png', width: 512, height: 512 });
  });

  it('gives every listed page valid JSON-LD: Organization everywhere, and the type each kind of page needs', () => {
    for (const [path, html] of pages) {
      const blocks = jsonLdOf(html);
      for (const block of blocks) checkJsonLd(block, path);
      const types = typesOf(blocks);
      expect(
        types.filter((type) => type === 'Organization'),
        path,
      ).toHaveLength(1);
      const has = (type: string) => expect(types, path).toContain(type);
      if (path.startsWith('/service/')) {
        has('Product');
        has('BreadcrumbList');
        has('FAQPage');
      }
      if (path.startsWith('/course/')) {
        has('Course');
        has('BreadcrumbList');
      }
      if (/^\/blog\/(?!category\/)[^/]+$/.test(path)) {
        has('BlogPosting');
        has('BreadcrumbList');
      }
      if (['/privacy-policy', '/terms-condition', '/disclaimer', '/refund-policy', '/faq'].includes(path)) {
        has('BreadcrumbList');
      }
      if (path === '/faq' || path === '/') has('FAQPage');
    }
  });

  it('offers every tier of a service at its charged price, each linking to a working order page', async () => {
    const detail = await t.store.catalogue.getGroupDetail('instagram-followers');
    const service = detail?.services.find((candidate) => candidate.slug === 'instagram-followers') as ServiceView;
    const product = jsonLdOf(pages.get('/service/instagram-followers') ?? '').find(
      (block) => block['@type'] === 'Product',
    );
    expect(product?.name).toBe(service.name);
    const offers = objectsIn(product?.offers);
    const tiers = service.plans.flatMap((plan) => plan.list.map((tier) => ({ plan, tier })));
    expect(offers).toHaveLength(tiers.length);
    for (const [index, { plan, tier }] of tiers.entries()) {
      const offer = offers[index] ?? {};
      expect(offer.url).toBe(`${PUBLIC_URL}${orderPath(service.slug, tier.qty, plan.type)}`);
      expect(Number(offer.price)).toBeCloseTo(tier.price <= 1 ? tier.price + 1 : tier.price, 4);
      expect(offer.priceCurrency).toBe('USD');
      const order = await get(String(offer.url).slice(PUBLIC_URL.length));
      expect(order.statusCode, String(offer.url)).toBe(200);
      expect(order.body, String(offer.url)).toContain(tier.text);
    }
  });

  it('keeps private paths out of robots.txt and points to the sitemap', async () => {
    const response = await get('/robots.txt');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    const lines = response.body.split('\n').map((line) => line.trim());
    expect(lines[0]).toBe('User-agent: *');
    for (const path of [
      '/admin',
      '/order',
      '/order-confirm',
      '/order-confrim',
      '/client',
      '/login',
      '/review/',
      '/refund/',
      '/api/',
    ]) {
      expect(lines, path).toContain(`Disallow: ${path}`);
    }
    expect(lines).toContain(`Sitemap: ${PUBLIC_URL}/sitemap.xml`);
    // Nothing public is blocked.
    const disallowed = lines.filter((line) => line.startsWith('Disallow: ')).map((line) => line.slice(10));
    for (const path of lastmods.keys()) {
      expect(
        disallowed.some((prefix) => path.startsWith(prefix)),
        path,
      ).toBe(false);
    }
  });

  it('says noindex on every private page, keeps the not-found status, and redirects the misspelt route', async () => {
    const privatePages: { path: string; status: number }[] = [
      { path: orderPath('instagram-followers', 100, 'Standard'), status: 200 },
      // Error states answer their real status, and are still private pages.
      { path: '/order/nonsense', status: 400 },
      { path: '/order-confirm/order_unknown', status: 404 },
      { path: '/client', status: 200 },
      { path: '/login', status: 200 },
      { path: '/admin', status: 200 },
      { path: '/admin/all-orders', status: 200 },
      { path: '/admin/blog', status: 200 },
      { path: '/admin/security', status: 200 },
      { path: '/no-such-page', status: 404 },
      { path: '/service/no-such-service', status: 404 },
      { path: '/blog?s=instagram', status: 200 },
    ];
    for (const { path, status } of privatePages) {
      const response = await get(path);
      expect(response.statusCode, path).toBe(status);
      const robots = headValues(response.body, 'name', 'robots', 'content');
      expect(robots, path).toHaveLength(1);
      expect(robots[0], path).toMatch(/^noindex\b/);
    }
    for (const [path, target] of [
      ['/order-confrim', '/client'],
      ['/order-confrim/order_abc', '/order-confirm/order_abc'],
    ] as const) {
      const response = await get(path);
      expect(response.statusCode, path).toBe(301);
      expect(response.headers.location, path).toBe(target);
    }
  });

  it('ends the Instagram followers page with the landing tail: radio FAQ, four steps, the article and real links', async () => {
    const html = pages.get('/service/instagram-followers') ?? '';
    const body = html.slice(html.indexOf('<body'));
    // The spec's four steps, in order.
    const steps = ['Choose a package', 'Enter your username', 'Complete payment', 'That&#x27;s all'].map((step) =>
      body.indexOf(`>${step}</h3>`),
    );
    for (const position of steps) expect(position).toBeGreaterThan(0);
    expect([...steps].sort((a, b) => a - b)).toEqual(steps);
    // The radio-style accordion: its marker sits before the question.
    expect(body).toMatch(
      /<details name="service-faq"[^>]*><summary[^>]*><span aria-hidden="true" class="[^"]*rounded-full border-2/,
    );
    expect(body).toContain('data-testid="why-buy"');
    expect(body).toContain('Why buy Instagram followers from Boostly');
    expect(body).toContain('never ask for your password');

    const detail = await t.store.catalogue.getGroupDetail('instagram-followers');
    const others = (detail?.services ?? []).filter((service) => service.slug !== 'instagram-followers');
    expect(others.length).toBeGreaterThanOrEqual(4);
    const tail = body.slice(body.indexOf('data-testid="other-services"'));
    for (const service of others) {
      expect(tail, service.slug).toContain(`href="/service/${service.slug}"`);
      expect(pages.has(`/service/${service.slug}`), service.slug).toBe(true);
    }
    // Only the followers page carries it.
    expect(pages.get('/service/instagram-likes')).not.toContain('data-testid="why-buy"');
  });
});
