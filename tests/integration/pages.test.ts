import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueSeed } from '../../db/seed/catalogue-data.ts';
import { dialects } from '../support/databases.ts';
import { type TestApp, startTestApp } from '../support/app.ts';

const firstTier = catalogueSeed.groups[0].services[0].plans[0].tiers[0];

describe.each(dialects)('server-rendered pages on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, { withPages: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('renders the home page with service names and prices in the HTML', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
    expect(response.body).toContain('Instagram Followers');
    expect(response.body).toContain(`$${Number(firstTier.price).toFixed(2)}`);
    expect(response.body).toContain('50% OFF');
    expect(response.headers['cache-control']).toBe('public, max-age=60, stale-while-revalidate=600');
  });

  it('renders the service page with the four-decimal price and hydration scripts under a nonce', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/service/instagram-followers' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(`$${Number(firstTier.price).toFixed(4)}`);
    const csp = String(response.headers['content-security-policy']);
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    const inlineScripts = response.body.match(/<script(?![^>]*\bsrc=)[^>]*>/g) ?? [];
    expect(inlineScripts.length).toBeGreaterThan(0);
    for (const tag of inlineScripts) expect(tag).toContain(`nonce="${nonce}"`);
  });

  it('serves repeated requests from the page cache, compressed once, with the matching nonce', async () => {
    const first = await t.app.inject({
      method: 'GET',
      url: '/service/tiktok-views',
      headers: { 'accept-encoding': 'br' },
    });
    const second = await t.app.inject({
      method: 'GET',
      url: '/service/tiktok-views',
      headers: { 'accept-encoding': 'br' },
    });
    expect(second.headers['content-encoding']).toBe('br');
    const html = brotliDecompressSync(second.rawPayload).toString();
    expect(html).toBe(brotliDecompressSync(first.rawPayload).toString());
    const nonce = /'nonce-([^']+)'/.exec(String(second.headers['content-security-policy']))?.[1];
    expect(html).toContain(`nonce="${nonce}"`);
  });

  it('answers unknown pages and services with the not-found screen and status 404', async () => {
    for (const url of ['/no-such-page', '/service/no-such-service']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
      expect(response.body).toContain('The page you are looking for could not be found');
    }
  });

  it('redirects a group slug to its first service', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/service/youtube' });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(`/service/${catalogueSeed.groups[1].services[0].slug}`);
  });

  it('serves hashed assets as immutable and the favicon', async () => {
    const html = (await t.app.inject({ method: 'GET', url: '/' })).body;
    const asset = /\/assets\/[^"]+\.js/.exec(html)?.[0];
    expect(asset).toBeTruthy();
    const response = await t.app.inject({ method: 'GET', url: asset! });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await t.app.inject({ method: 'GET', url: '/favicon.svg' })).statusCode).toBe(200);
  });

  it('refreshes cached pages when the catalogue changes', async () => {
    await t.app.inject({ method: 'GET', url: '/' });
    const changed = structuredClone(catalogueSeed);
    changed.groups[0].services[0].name = 'Instagram Followers Deluxe';
    await t.store.catalog.replaceCatalogue(changed);
    try {
      const response = await t.app.inject({ method: 'GET', url: '/' });
      expect(response.body).toContain('Instagram Followers Deluxe');
    } finally {
      await t.store.catalog.replaceCatalogue(catalogueSeed);
    }
  });
});
