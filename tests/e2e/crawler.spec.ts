import { type APIResponse, expect, test } from '@playwright/test';
import { waitForHydration } from './support/page.ts';

/**
 * The link crawler (decision 029): from `/`, follow every internal `a[href]` of every
 * page reached, after hydration (so links drawn by React count too): site header and footer,
 * bodies, the blog's header and footer, help and legal pages, courses, previews. Any link that
 * answers 404 or 5xx fails the test, all of them listed with the pages that link there. The admin
 * area (behind a login) and other sites are not followed. Each HTML page reached must also have
 * exactly one <h1>, and either a canonical link (a public page) or `noindex` (a private one).
 */

/** A guard against a link generator gone wrong (e.g. ever-growing query strings). */
const MAX_PAGES = 600;
/**
 * Every address found gets its status checked, but a browser visit (hydration, links drawn by
 * React, h1 and canonical checks) goes to at most this many addresses of one shape: the order
 * pages of every tier of every plan of every service are one screen with other numbers, and
 * visiting hundreds of them would take minutes and find nothing new.
 */
const VISITS_PER_SHAPE = 3;

/** `/order/<anything>` is one shape; elsewhere each path is its own, whatever its query. */
function shapeOf(path: string): string {
  const pathname = new URL(path, 'http://crawler.invalid').pathname;
  return pathname.startsWith('/order/') ? '/order/*' : pathname;
}

interface Broken {
  url: string;
  status: number;
  linkedFrom: string[];
}

test('every internal link answers, and every page has one h1 and a canonical link or noindex', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(4 * 60_000);
  const origin = new URL(baseURL ?? 'http://127.0.0.1:4317').origin;
  /** path+query → the pages whose links led there. */
  const linkedFrom = new Map<string, Set<string>>([['/', new Set(['(start)'])]]);
  const queue: string[] = ['/'];
  const visited = new Set<string>();
  const broken: Broken[] = [];
  const structure: string[] = [];
  let htmlPages = 0;
  const visitsByShape = new Map<string, number>();

  const enqueue = (href: string, from: string) => {
    let url: URL;
    try {
      url = new URL(href, `${origin}${from}`);
    } catch {
      structure.push(`${from}: unparsable link ${href}`);
      return;
    }
    if (url.origin !== origin) return;
    if (url.pathname === '/admin' || url.pathname.startsWith('/admin/')) return;
    const key = `${url.pathname}${url.search}`;
    const sources = linkedFrom.get(key);
    if (sources) {
      sources.add(from);
      return;
    }
    linkedFrom.set(key, new Set([from]));
    queue.push(key);
  };

  while (queue.length > 0) {
    const path = queue.shift()!;
    if (visited.has(path)) continue;
    visited.add(path);
    expect(visited.size, 'the crawl keeps finding new addresses').toBeLessThanOrEqual(MAX_PAGES);

    // The status first, without a browser: feeds, images and redirects included.
    const response: APIResponse = await page.request.get(path, { failOnStatusCode: false });
    if (response.status() === 404 || response.status() >= 500) {
      broken.push({ url: path, status: response.status(), linkedFrom: [...(linkedFrom.get(path) ?? [])] });
      continue;
    }
    if (!(response.headers()['content-type'] ?? '').startsWith('text/html')) continue;
    const shape = shapeOf(path);
    const visits = visitsByShape.get(shape) ?? 0;
    if (visits >= VISITS_PER_SHAPE) continue;
    visitsByShape.set(shape, visits + 1);

    // Then the page itself, hydrated, for the links React draws.
    const navigation = await page.goto(path);
    if (!navigation || navigation.status() === 404 || navigation.status() >= 500) {
      broken.push({ url: path, status: navigation?.status() ?? 0, linkedFrom: [...(linkedFrom.get(path) ?? [])] });
      continue;
    }
    await waitForHydration(page);
    htmlPages += 1;
    const landedOn = new URL(page.url());
    const here = `${landedOn.pathname}${landedOn.search}`;

    const h1s = await page.locator('h1').count();
    if (h1s !== 1) structure.push(`${here}: ${h1s} <h1> elements`);
    const canonicals = await page.locator('head link[rel="canonical"]').count();
    // Read at once: a locator's getAttribute would wait for a robots tag that public pages lack.
    const robots = await page.evaluate(
      () => document.head.querySelector('meta[name="robots"]')?.getAttribute('content') ?? '',
    );
    const noindex = /\bnoindex\b/.test(robots);
    if (noindex ? canonicals > 1 : canonicals !== 1) {
      structure.push(`${here}: ${canonicals} canonical links${noindex ? ' (noindex)' : ', and no noindex'}`);
    }

    const hrefs = await page.locator('a[href]').evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    for (const href of hrefs) {
      if (!href || href.startsWith('#') || /^(mailto|tel|javascript):/i.test(href)) continue;
      enqueue(href, here);
    }
  }

  // Other specs run alongside on the same store and create and delete content (the blog XSS
  // suite adds and removes posts, which also moves the blog's pages). A link that no page links
  // to any more was such content, not a dead end: before failing, ask each linking page again
  // (hydrated, as above) and keep only the links that are still there and still broken.
  const linksOn = async (source: string): Promise<Set<string> | null> => {
    const navigation = await page.goto(source);
    if (!navigation || navigation.status() === 404) return null;
    await waitForHydration(page);
    const hrefs = await page.locator('a[href]').evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    const keys = new Set<string>();
    for (const href of hrefs) {
      if (!href) continue;
      const url = new URL(href, `${origin}${source}`);
      keys.add(`${url.pathname}${url.search}`);
    }
    return keys;
  };
  const stillBroken: Broken[] = [];
  for (const link of broken) {
    const again = await page.request.get(link.url, { failOnStatusCode: false });
    if (again.status() !== 404 && again.status() < 500) continue;
    const linkingNow: string[] = [];
    for (const source of link.linkedFrom) {
      if (source === '(start)' || (await linksOn(source))?.has(link.url)) linkingNow.push(source);
    }
    if (linkingNow.length > 0) stillBroken.push({ ...link, status: again.status(), linkedFrom: linkingNow });
  }

  const report = stillBroken.map((link) => `${link.status} ${link.url} ← ${link.linkedFrom.join(', ')}`);
  expect(report, `broken links:\n${report.join('\n')}`).toEqual([]);
  expect(structure, `page structure:\n${structure.join('\n')}`).toEqual([]);
  // The crawl really went through the store: services, help and legal pages, the blog, courses.
  for (const reached of ['/service/instagram-followers', '/faq', '/contact', '/refund-policy', '/blog', '/courses']) {
    expect(visited.has(reached), reached).toBe(true);
  }
  expect(htmlPages).toBeGreaterThan(30);
});
