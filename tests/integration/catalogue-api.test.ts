import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueSeed } from '../../core/catalogue/seed/catalogue-seed.ts';
import { dialects } from '../support/databases.ts';
import { type TestApp, startTestApp } from '../support/app.ts';

describe.each(dialects)('catalogue API on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('GET /api/services lists the groups in order with their services', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/services' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.isSuccessful).toBe(true);
    expect(body.data.map((g: { slug: string }) => g.slug)).toEqual(['instagram', 'youtube', 'tiktok']);
    expect(body.data[0].services).toEqual(catalogueSeed.groups[0].services.map(({ name, slug }) => ({ name, slug })));
    expect(response.headers['cache-control']).toMatch(/public, max-age=60/);
  });

  it('GET /api/services/{service} returns its group, the selection and exact prices', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/services/tiktok-likes' });
    expect(response.statusCode).toBe(200);
    const { data } = response.json();
    expect(data.group.slug).toBe('tiktok');
    expect(data.selected).toBe('tiktok-likes');
    const seeded = catalogueSeed.groups[2].services.find((s) => s.slug === 'tiktok-likes')!;
    const service = data.services.find((s: { slug: string }) => s.slug === 'tiktok-likes');
    expect(service.targetKind).toBe(seeded.targetKind);
    expect(service.plans.map((p: { type: string }) => p.type)).toEqual(seeded.plans.map((p) => p.type));
    expect(service.plans[0].list).toEqual(
      seeded.plans[0].tiers.map((tier) => ({
        qty: tier.qty,
        text: tier.text,
        price: Number(tier.price),
        discount: tier.discount,
      })),
    );
    expect(service.plans[0].option).toEqual(seeded.plans[0].options.map((name) => ({ name })));
  });

  it('keeps four-decimal prices exact', async () => {
    const { data } = (await t.app.inject({ method: 'GET', url: '/api/services/instagram' })).json();
    const prices = data.services.flatMap((s: { plans: { list: { price: number }[] }[] }) =>
      s.plans.flatMap((p) => p.list.map((tier) => tier.price)),
    );
    expect(prices).toContain(1.4999);
  });

  it('GET /api/services/{group} selects the group’s first service', async () => {
    const { data } = (await t.app.inject({ method: 'GET', url: '/api/services/youtube' })).json();
    expect(data.selected).toBe(catalogueSeed.groups[1].services[0].slug);
    expect(data.services).toHaveLength(catalogueSeed.groups[1].services.length);
  });

  it('answers 404 with a message for an unknown slug', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/services/no-such-service' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ isSuccessful: false, message: 'Service not found' });
  });

  it('answers 400, not 500, for a slug that fails validation', async () => {
    for (const slug of ['Bad_Slug', 'x'.repeat(90), '%3Cscript%3E']) {
      const response = await t.app.inject({ method: 'GET', url: `/api/services/${slug}` });
      expect(response.statusCode).toBe(400);
      expect(response.json().isSuccessful).toBe(false);
      expect(response.json().message).toMatch(/^slug: /);
    }
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ isSuccessful: false, message: 'Not found' });
  });

  it('publishes the API as OpenAPI with a docs page', async () => {
    const spec = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(spec.openapi).toMatch(/^3\./);
    expect(Object.keys(spec.paths)).toEqual(expect.arrayContaining(['/api/services', '/api/services/{slug}']));
    const docs = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.body).toMatch(/swagger/i);
  });

  it('reports liveness and readiness with the dialect', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({
      status: 'ready',
      database: dialect,
    });
  });

  it('sends security headers and echoes a request id', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/services',
      headers: { 'x-request-id': 'abc-123' },
    });
    expect(response.headers['x-request-id']).toBe('abc-123');
    expect(response.headers['content-security-policy']).toContain("default-src 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('compresses large JSON replies', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/services/instagram',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(response.headers['content-encoding']).toBe('gzip');
  });
});
