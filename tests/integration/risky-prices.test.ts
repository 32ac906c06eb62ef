/**
 * A risky price asks first, and the server backs the question, per dialect through the real app:
 * a save that prices a tier below the owner's floor or cuts it by more than half is refused (409)
 * with words naming each tier and a list the console reads, until it says `confirmRiskyPrices`;
 * an ordinary change saves without it; the floor round-trips, is validated and audited.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditActionWords } from '../../core/audit/action-words.ts';
import { DEFAULT_PRICE_FLOOR_E4 } from '../../core/catalogue/price-floor.ts';
import type { RiskyPrice } from '../../core/catalogue/risky-prices.ts';
import type { ServiceDocument } from '../../core/catalogue/service-document.ts';
import { seedAdmin } from '../support/admin-accounts.ts';
import { adminToken } from '../support/admin-session.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';

const PASSWORD = 'a long enough admin password';
const OWNER_ADDRESS = '10.181.0.1';

interface Reply<T> {
  isSuccessful: boolean;
  message: string;
  data: T;
  errors?: { field: string; message: string }[];
  riskyPrices?: RiskyPrice[];
}

describe.each(dialects)('risky prices on %s', (dialect) => {
  let t: TestApp;
  let owner = '';

  beforeAll(async () => {
    t = await startTestApp(dialect);
    const email = `owner-${dialect}@risky-prices.example`;
    const created = await seedAdmin(t.database.db, email, PASSWORD, { verified: true });
    await t.database.db.updateTable('admins').set({ role: 'owner' }).where('id', '=', created.id).execute();
    owner = await adminToken(t, { email, password: PASSWORD }, OWNER_ADDRESS);
  });
  afterAll(async () => {
    await t?.close();
  });

  const call = async <T>(method: 'GET' | 'PATCH' | 'PUT', url: string, payload?: object) => {
    const response = await t.app.inject({
      method,
      url,
      ...(payload ? { payload } : {}),
      headers: { authorization: `Bearer ${owner}` },
      remoteAddress: OWNER_ADDRESS,
    });
    return { status: response.statusCode, body: response.json<Reply<T>>() };
  };
  const open = async (slug: string) =>
    (await call<ServiceDocument>('GET', `/api/admin/catalogue/services/${slug}`)).body.data;
  const save = (document: ServiceDocument, prices: Record<number, string>, extra: object = {}) => {
    const { groupSlug: _group, publishedAt: _published, ...fields } = document;
    const plans = fields.plans.map((plan, p) =>
      p === 0 ? { ...plan, tiers: plan.tiers.map((tier, i) => ({ ...tier, price: prices[i] ?? tier.price })) } : plan,
    );
    return call<ServiceDocument>('PATCH', `/api/admin/catalogue/services/${document.slug}`, {
      ...fields,
      plans,
      ...extra,
    });
  };
  const livePrice = async (slug: string) => {
    const response = await t.app.inject({ method: 'GET', url: `/api/services/${slug}` });
    return response
      .json<Reply<{ services: { slug: string; plans: { list: { price: number }[] }[] }[] }>>()
      .data.services.find((s) => s.slug === slug)?.plans[0]?.list[0]?.price;
  };

  it('refuses $0.01 with words naming the tier, keeps the old price live, and saves it once confirmed', async () => {
    const document = await open('instagram-followers');
    const tier = document.plans[0]?.tiers[0];
    if (!tier) throw new Error('instagram-followers has no tier');
    const before = await livePrice('instagram-followers');

    const refused = await save(document, { 0: '0.01' });
    expect(refused.status).toBe(409);
    expect(refused.body.isSuccessful).toBe(false);
    expect(refused.body.message).toContain(
      `${tier.text}: $${tier.price} → $0.01 (below your floor of $0.25; less than half the current price)`,
    );
    expect(refused.body.riskyPrices).toEqual([
      expect.objectContaining({
        field: 'plans.0.tiers.0',
        tier: tier.text,
        before: Number(tier.price),
        after: 0.01,
        reasons: ['below-floor', 'big-drop'],
      }),
    ]);
    expect(await livePrice('instagram-followers')).toBe(before);
    expect((await open('instagram-followers')).revision).toBe(document.revision);

    const confirmed = await save(document, { 0: '0.01' }, { confirmRiskyPrices: true });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(await livePrice('instagram-followers')).toBe(0.01);

    // Back up: a rise never asks.
    const restored = await save(confirmed.body.data, { 0: tier.price });
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
  });

  it('asks about a cut by more than half even above the floor, and saves an ordinary change at once', async () => {
    const document = await open('instagram-likes');
    const tiers = document.plans[0]?.tiers ?? [];
    const second = tiers[1];
    if (!second) throw new Error('instagram-likes has fewer than two tiers');
    const half = (Math.floor((Number(second.price) / 2) * 100) / 100 - 0.01).toFixed(2);
    const refused = await save(document, { 1: half });
    expect(refused.status).toBe(409);
    expect(refused.body.riskyPrices?.map((r) => r.reasons)).toEqual([['big-drop']]);

    const ordinary = (Number(second.price) * 0.8).toFixed(2);
    const saved = await save(document, { 1: ordinary });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data.plans[0]?.tiers[1]?.price).toBe(ordinary);
  });

  it('keeps the owner’s floor: default, set, validated, turned off, audited in words', async () => {
    const initial = await call<{ floor: number | null; isDefault: boolean }>('GET', '/api/admin/catalogue/price-floor');
    expect(initial.body.data).toEqual({
      floor: DEFAULT_PRICE_FLOOR_E4 / 10_000,
      isDefault: true,
      defaultFloor: DEFAULT_PRICE_FLOOR_E4 / 10_000,
    });

    for (const floor of ['-1', 'abc', '0.123456', '5000', '']) {
      const bad = await call('PUT', '/api/admin/catalogue/price-floor', { floor });
      expect(bad.status, floor).toBe(400);
      expect(bad.body.isSuccessful).toBe(false);
    }
    expect((await call('PUT', '/api/admin/catalogue/price-floor', {})).status).toBe(400);

    const set = await call<{ floor: number | null }>('PUT', '/api/admin/catalogue/price-floor', { floor: ' 1.50 ' });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.data).toMatchObject({ floor: 1.5, isDefault: false });
    expect((await call('GET', '/api/admin/catalogue/price-floor')).body.data).toMatchObject({ floor: 1.5 });
    const audit = await t.database.db
      .selectFrom('admin_audit')
      .selectAll()
      .where('action', '=', 'catalogue.price_floor')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(auditActionWords(audit.action)).toBe('Changed the price floor');
    expect(JSON.parse(audit.summary ?? '{}')).toMatchObject({ before: { floor: 0.25 }, after: { floor: 1.5 } });

    // A rise to a price still under the new floor asks; the save's words quote the owner's floor.
    const document = await open('tiktok-likes');
    const tier = document.plans[0]?.tiers[0];
    if (!tier) throw new Error('tiktok-likes has no tier');
    const under = await save(document, { 0: '1.49' });
    expect(under.status).toBe(409);
    expect(under.body.message).toContain('(below your floor of $1.50)');

    const off = await call<{ floor: number | null }>('PUT', '/api/admin/catalogue/price-floor', { floor: null });
    expect(off.status).toBe(200);
    expect(off.body.data).toMatchObject({ floor: null, isDefault: false });
    expect((await save(document, { 0: '1.49' })).status).toBe(200);
    await call('PUT', '/api/admin/catalogue/price-floor', { floor: '0.25' });
  });
});
