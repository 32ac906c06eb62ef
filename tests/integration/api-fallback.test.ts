/**
 * Every /api request answers JSON in the envelope: an unknown path 404 'Not found', a known path
 * with a method it does not serve 405 'Method not allowed' with an `Allow` header, OPTIONS 204
 * with that header, whatever the body. Pages keep their HTML not-found page. Runs with the real
 * server build so the pages catch-all (`/*`) is there to get it wrong.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, startTestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';

type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS' | 'TRACE';

const NOT_FOUND = { isSuccessful: false, message: 'Not found' };
const NOT_ALLOWED = { isSuccessful: false, message: 'Method not allowed' };

function expectJson(response: LightMyRequestResponse) {
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  return response.json<unknown>();
}

describe.each(dialects)('JSON for every /api path on %s', (dialect) => {
  let t: TestApp;
  let remote = 0;
  const send = (method: Method, url: string, extra: { payload?: string; headers?: Record<string, string> } = {}) =>
    t.app.inject({ method, url, remoteAddress: `10.9.0.${(remote += 1) % 250}`, ...extra });

  beforeAll(async () => {
    t = await startTestApp(dialect, { withPages: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each<[Method, string]>([
    ['GET', '/api'],
    ['GET', '/api/'],
    ['GET', '/api/nope'],
    ['GET', '/api/services/instagram/extra'],
    ['GET', '/api/SERVICES'],
    ['POST', '/api/newsletter'],
    ['GET', '/api/newsletter'],
    ['DELETE', '/api/blog/1/comments'],
    ['PUT', '/api/order/unknown?x=1'],
    ['PATCH', '/api/auth'],
    ['GET', '/api/order/order-history/code/extra'],
  ])('%s %s answers 404 in the envelope', async (method, url) => {
    const response = await send(method, url);
    expect(response.statusCode).toBe(404);
    expect(expectJson(response)).toEqual(NOT_FOUND);
    expect(response.headers.allow).toBeUndefined();
  });

  it.each<[Method, string, string]>([
    ['POST', '/api/services', 'GET, HEAD, OPTIONS'],
    ['DELETE', '/api/services/instagram', 'GET, HEAD, OPTIONS'],
    ['PUT', '/api/services/instagram-followers?x=1', 'GET, HEAD, OPTIONS'],
    ['GET', '/api/order', 'POST, OPTIONS'],
    ['PATCH', '/api/order', 'POST, OPTIONS'],
    ['GET', '/api/order/form-detail', 'POST, OPTIONS'],
    ['POST', '/api/order/order-status?orderId=1', 'GET, HEAD, OPTIONS'],
    ['GET', '/api/order/order-history', 'PATCH, OPTIONS'],
    ['POST', '/api/order/order-history', 'PATCH, OPTIONS'],
    ['GET', '/api/auth/login', 'POST, OPTIONS'],
    ['POST', '/api/auth/logout', 'GET, HEAD, OPTIONS'],
    ['DELETE', '/api/order/detail/SOME-ORDER', 'GET, HEAD, OPTIONS'],
    ['GET', '/api/order/reorder', 'POST, OPTIONS'],
    ['GET', '/api/payments/razorpay/webhook', 'POST, OPTIONS'],
    ['POST', '/api/openapi.json', 'GET, HEAD, OPTIONS'],
    ['GET', '/api/contact', 'POST, OPTIONS'],
    ['PUT', '/api/blog', 'GET, HEAD, POST, OPTIONS'],
  ])('%s %s answers 405 with Allow: %s', async (method, url, allow) => {
    const response = await send(method, url);
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe(allow);
    expect(expectJson(response)).toEqual(NOT_ALLOWED);
  });

  it('answers 405 for the wrong method on every documented operation', async () => {
    const document = (await send('GET', '/api/openapi.json')).json<{
      paths: Record<string, Record<string, unknown>>;
    }>();
    const paths = Object.entries(document.paths);
    expect(paths.length).toBeGreaterThan(10);
    for (const [template, operations] of paths) {
      // '/api/services/{slug}' → a concrete path the same route serves.
      const url = template.replaceAll(/\{[^}]+\}/g, 'instagram');
      const served = Object.keys(operations).map((method) => method.toUpperCase());
      const wrong = (['PUT', 'DELETE', 'PATCH', 'POST', 'GET'] as const).find((method) => !served.includes(method));
      if (!wrong) continue;
      const response = await send(wrong, url);
      expect(response.statusCode, `${wrong} ${url}`).toBe(405);
      expect(response.json(), `${wrong} ${url}`).toEqual(NOT_ALLOWED);
      const allow = String(response.headers.allow).split(', ');
      for (const method of served) expect(allow, `${wrong} ${url}`).toContain(method);
      expect(allow).not.toContain(wrong);
    }
  });

  it('refuses before reading the body: a broken or foreign body still gets 404 or 405', async () => {
    const broken = { payload: '{"not json', headers: { 'content-type': 'application/json' } };
    const xml = { payload: '<a/>', headers: { 'content-type': 'text/xml' } };
    for (const extra of [broken, xml]) {
      const unknown = await send('POST', '/api/newsletter', extra);
      expect(unknown.statusCode).toBe(404);
      expect(expectJson(unknown)).toEqual(NOT_FOUND);
      const wrong = await send('PUT', '/api/order', extra);
      expect(wrong.statusCode).toBe(405);
      expect(expectJson(wrong)).toEqual(NOT_ALLOWED);
    }
  });

  it('HEAD: a GET route answers as GET without a body; unknown paths and POST-only routes refuse', async () => {
    const served = await send('HEAD', '/api/services');
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toMatch(/^application\/json/);
    expect(served.body).toBe('');

    const unknown = await send('HEAD', '/api/nope');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toMatch(/^application\/json/);
    expect(unknown.body).toBe('');

    const postOnly = await send('HEAD', '/api/order');
    expect(postOnly.statusCode).toBe(405);
    expect(postOnly.headers.allow).toBe('POST, OPTIONS');
  });

  it('OPTIONS lists the methods of a known path (204, no CORS grant) and 404s an unknown one', async () => {
    const known = await send('OPTIONS', '/api/order/order-history', {
      headers: { origin: 'https://elsewhere.example' },
    });
    expect(known.statusCode).toBe(204);
    expect(known.headers.allow).toBe('PATCH, OPTIONS');
    expect(known.body).toBe('');
    expect(known.headers['access-control-allow-origin']).toBeUndefined();

    const unknown = await send('OPTIONS', '/api/nope');
    expect(unknown.statusCode).toBe(404);
    expect(expectJson(unknown)).toEqual(NOT_FOUND);
  });

  it('TRACE is never served: 405 on a known path, 404 on an unknown one', async () => {
    const known = await send('TRACE', '/api/services');
    expect(known.statusCode).toBe(405);
    expect(known.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(expectJson(known)).toEqual(NOT_ALLOWED);

    const unknown = await send('TRACE', '/api/nope');
    expect(unknown.statusCode).toBe(404);
    expect(expectJson(unknown)).toEqual(NOT_FOUND);
  });

  it('the routes themselves still answer', async () => {
    const services = await send('GET', '/api/services');
    expect(services.statusCode).toBe(200);
    expect(services.json()).toMatchObject({ isSuccessful: true });
    const order = await send('POST', '/api/order/form-detail', {
      payload: JSON.stringify({ slug: 'no-such-service', qty: 100, type: 'basic' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(order.statusCode).toBe(404);
    expect(order.json()).toMatchObject({ isSuccessful: false });
  });

  it('pages still answer their HTML not-found page', async () => {
    for (const url of ['/no-such-page', '/apiary', '/services/api/nope']) {
      const response = await send('GET', url);
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type'], url).toMatch(/^text\/html/);
      expect(response.body, url).toContain('<html');
    }
  });
});
