import { createHash } from 'node:crypto';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueSeed } from '../../core/catalogue/seed/catalogue-seed.ts';
import { dialects } from '../support/databases.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { PHONE_BROWSER } from '../support/html.ts';

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
    // As a phone: a bot would get the whole document at once, hiding a part streamed late.
    const response = await t.app.inject({ method: 'GET', url: '/', headers: PHONE_BROWSER });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
    expect(response.body).toContain('Instagram Followers');
    expect(response.body).toContain(`$${Number(firstTier.price).toFixed(2)}`);
    expect(response.body).not.toContain('data-testid="top-bar"'); // no sale configured, no banner (decision 031)
    expect(response.headers['cache-control']).toBe('public, max-age=60, stale-while-revalidate=600');
    // The first render after a boot (this one, cached from now on) has the header and footer in
    // place: none of the page's parts is sent after the page as a hidden copy moved in by a script,
    // which made phones paint the page without its header and then shift it down.
    // (React Router's own data stream, after `window.__reactRouterContext`, always comes that way.)
    const page = response.body.slice(0, response.body.indexOf('window.__reactRouterContext'));
    expect(page).not.toContain('<template id="B:');
    expect(response.body.indexOf('data-testid="site-header"')).toBeGreaterThan(0);
    expect(response.body.indexOf('data-testid="site-header"')).toBeLessThan(response.body.indexOf('<main'));
    expect(response.body.indexOf('data-testid="site-footer"')).toBeLessThan(
      response.body.indexOf('window.__reactRouterContext'),
    );
  });

  it("keeps the home page's hydration data to what its scripts use", async () => {
    const response = await t.app.inject({ method: 'GET', url: '/', headers: PHONE_BROWSER });
    // React Router's data for the page: the inline scripts that feed its stream controller.
    const data = [
      ...response.body.matchAll(/<script[^>]*>(window\.__reactRouterContext\.streamController[\s\S]*?)<\/script>/g),
    ]
      .map((match) => match[1] ?? '')
      .join('');
    expect(data).toContain('Instagram Followers');
    // The services' descriptions and plan features show on no part of the home page (its
    // chooser shows names, plans and prices): they stay out of its data. With them it was 25.9 KB.
    const firstService = catalogueSeed.groups[0].services[0];
    expect(data).not.toContain(JSON.stringify(firstService.description).slice(1, 40));
    expect(data).not.toContain(JSON.stringify(firstService.plans[0].options[0]).slice(1, -1));
    expect(Buffer.byteLength(data)).toBeLessThan(21_500);
  });

  it("hands a page's data to its render whole, in one script (decision 078)", async () => {
    const response = await t.app.inject({ method: 'GET', url: '/', headers: PHONE_BROWSER });
    const calls = [
      ...response.body.matchAll(/<script[^>]*>window\.__reactRouterContext\.streamController\.(\w+)\(/g),
    ].map((match) => match[1]);
    expect(calls).toEqual(['enqueue', 'close']);
    // Read piece by piece while rendering, the data's end comes in a Suspense boundary of its own
    // (`<!--$-->`), and only React's asynchronous renderer can wait for it; read whole before,
    // the close follows at once, and the page can be rendered in one pass.
    expect(response.body).toMatch(
      /\);<\/script><script nonce="[^"]+">window\.__reactRouterContext\.streamController\.close\(\);<\/script>/,
    );
    expect(response.body.startsWith('<!DOCTYPE html><html lang="en">')).toBe(true);
  });

  it('renders the service page with the four-decimal price and hydration scripts its CSP allows by hash', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/service/instagram-followers' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(`$${Number(firstTier.price).toFixed(4)}`);
    // A cached page is the same bytes for everyone: no nonce in its CSP, but every inline script
    // that runs is listed by its SHA-256 (decision 035). JSON-LD blocks are data the browser
    // never runs (CSP does not apply to them).
    const csp = String(response.headers['content-security-policy']);
    expect(csp).not.toContain("'nonce-");
    const inlineScripts = [...response.body.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>([\s\S]*?)<\/script>/g)].filter(
      ([, attributes]) => !attributes?.includes('type="application/ld+json"'),
    );
    expect(inlineScripts.length).toBeGreaterThan(0);
    for (const [, , text] of inlineScripts) {
      expect(csp).toContain(
        `'sha256-${createHash('sha256')
          .update(text ?? '')
          .digest('base64')}'`,
      );
    }
    expect(response.body).toContain('<script type="application/ld+json">');
  });

  it('serves repeated requests from the page cache, compressed once, with the same hash CSP', async () => {
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
    expect(second.headers['content-security-policy']).toBe(first.headers['content-security-policy']);
    expect(String(second.headers['content-security-policy'])).toMatch(/script-src 'self' 'sha256-/);
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
    await t.store.catalogue.replaceCatalogue(changed);
    try {
      const response = await t.app.inject({ method: 'GET', url: '/' });
      expect(response.body).toContain('Instagram Followers Deluxe');
    } finally {
      await t.store.catalogue.replaceCatalogue(catalogueSeed);
    }
  });

  describe('order and confirmation pages load their data on the server', () => {
    const followers = catalogueSeed.groups[0].services[0];
    const standard = followers.plans[0];
    const tier = standard.tiers[0];
    const orderUrl = `/order/${followers.slug}GOI${tier.qty}?type=${standard.type}`;

    /** An order created through the API, as the order page does; answers its public id. */
    async function placeOrder(): Promise<string> {
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/order',
        payload: {
          type: standard.type,
          slug: followers.slug,
          qty: tier.qty,
          name: 'pages.buyer',
          email: 'pages.buyer@example.com',
          order_id: String(Math.floor(Math.random() * 1e6)).padStart(6, '0'),
        },
      });
      expect(created.statusCode).toBe(200);
      return String(created.json().data.razorpay_order_id).replace(/^order_/, '');
    }

    /** Pays it in the sandbox and verifies the payment, as the sandbox window does. */
    async function payOrder(orderId: string): Promise<void> {
      const paid = await t.app.inject({
        method: 'POST',
        url: '/api/sandbox/pay',
        payload: { razorpay_order_id: `order_${orderId}` },
      });
      const verified = await t.app.inject({
        method: 'POST',
        url: '/api/order/verify-payment',
        payload: paid.json().data,
      });
      expect(verified.statusCode).toBe(200);
    }

    it('renders the order form in the first HTML (target field, packages, total, Continue), never cached', async () => {
      const response = await t.app.inject({ method: 'GET', url: orderUrl });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('private, no-store');
      const html = response.body;
      expect(html).toContain('Instagram Username');
      expect(html).toContain('name="email"');
      expect(html).toMatch(/data-testid="order-total"[^>]*>\$\d+\.\d{2}</);
      expect(html.match(/data-testid="quantity-option"/g)).toHaveLength(standard.tiers.length);
      expect(html).toContain(`${followers.name} · ${standard.title}`);
      expect(html).toContain('Continue');
      expect(html).not.toContain('Loading the order form');
    });

    it('answers the order page data request (client navigation) uncached, with the other quantity', async () => {
      const other = standard.tiers[1];
      const url = `/order/${followers.slug}GOI${other.qty}.data?type=${standard.type}`;
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('private, no-store');
      expect(response.body).toContain(other.text);
    });

    it.each([
      ['/order/instagram-followers?type=Standard', 'Invalid URL parameters!'],
      [`/order/${followers.slug}GOI${tier.qty}?type=`, 'Invalid URL parameters!'],
      [`/order/no-such-serviceGOI${tier.qty}?type=Standard`, 'Package details not available'],
      [`/order/${followers.slug}GOI123?type=Standard`, 'Selected package not found'],
    ])('renders %s with the spec message "%s" and no form', async (url, message) => {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.body).toContain(message);
      expect(response.body).not.toContain('name="email"');
      expect(response.headers['cache-control']).toBe('private, no-store');
    });

    it('renders the confirmation from the order status, fresh on every request', async () => {
      const orderId = await placeOrder();
      const unpaid = await t.app.inject({ method: 'GET', url: `/order-confirm/${orderId}` });
      expect(unpaid.statusCode).toBe(200);
      expect(unpaid.headers['cache-control']).toBe('private, no-store');
      expect(unpaid.body).toContain('Thank you');
      expect(unpaid.body).toContain(orderId);
      expect(unpaid.body).toContain('pa•••@e•••.com');
      expect(unpaid.body).not.toContain('pages.buyer@example.com');
      expect(unpaid.body).toContain('as soon as your payment is confirmed');

      // The same address after the payment: the page says so (no cached copy of the unpaid one).
      await payOrder(orderId);
      const paid = await t.app.inject({ method: 'GET', url: `/order-confirm/${orderId}` });
      expect(paid.body).toContain('A receipt has been e-mailed to');
      expect(paid.body).not.toContain('as soon as your payment is confirmed');
    });

    it('shows "Error: Order not found" for an unknown order', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/order-confirm/doesNotExist123' });
      expect(response.body).toContain('Order not found');
      expect(response.headers['cache-control']).toBe('private, no-store');
    });

    it('answers 400, not a 500, for a NUL or a right-to-left override in the order id', async () => {
      for (const bad of ['%00', '%E2%80%AE']) {
        const response = await t.app.inject({ method: 'GET', url: `/order-confirm/abc${bad}def` });
        expect(response.statusCode).toBe(400);
      }
    });
  });

  it('answers TRACE on pages with 405, not a 500', async () => {
    for (const method of ['TRACE'] as const) {
      for (const url of ['/', '/order/instagram-followers', '/no-such-page']) {
        const response = await t.app.inject({ method, url });
        expect(response.statusCode, `${method} ${url}`).toBe(405);
        expect(response.headers.allow).toBe('GET, HEAD, POST');
      }
    }
  });
});
