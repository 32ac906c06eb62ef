/**
 * The owner's payment method settings (`GET/PUT /api/admin/payment-methods`) through the real
 * app on each dialect: what the page lists, the bounds and decimals (400 naming the field), who
 * may read and change them (owner only), the audit entry in words, and the new price in the
 * checkout's form data and the order the buyer then places. A method the store does not offer
 * is refused by the rule itself, with Razorpay as the only configured provider.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueSeed } from '../../core/catalogue/seed/catalogue-seed.ts';
import { MethodSettingsError, saveMethodSettings } from '../../core/payments/method-settings.ts';
import { createPaymentGateways, loadMethodAdjustments } from '../../core/payments/methods.ts';
import { createRazorpayProvider } from '../../core/payments/razorpay.ts';
import { seedAdmin } from '../support/admin-accounts.ts';
import { adminToken } from '../support/admin-session.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { createTestClock } from '../support/clock.ts';
import { dialects } from '../support/databases.ts';

const tiers = catalogueSeed.groups.flatMap((g) =>
  g.services.flatMap((s) => s.plans.flatMap((p) => p.tiers.map((t) => ({ service: s, plan: p, tier: t })))),
);
const pack = tiers.find(
  (entry) =>
    !entry.service.commentRequired && entry.service.targetKind === 'instagram_username' && Number(entry.tier.price) > 5,
)!;

interface Setting {
  id: string;
  label: string;
  provider: string;
  providerLabel: string;
  testMode: boolean;
  adjustmentPercent: number;
  defaultAdjustmentPercent: number;
  previewCharge: number;
}

describe.each(dialects)('payment method settings on %s', (dialect) => {
  let t: TestApp;
  const clock = createTestClock();
  let ownerToken = '';
  let supportToken = '';
  let clients = 0;
  const nextAddress = () => `10.32.${Math.floor(++clients / 250)}.${clients % 250}`;

  const call = (method: 'GET' | 'PUT', token: string | null, payload?: unknown) =>
    t.app.inject({
      method,
      url: '/api/admin/payment-methods',
      remoteAddress: nextAddress(),
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const put = (adjustments: unknown) => call('PUT', ownerToken, { adjustments });

  beforeAll(async () => {
    t = await startTestApp(dialect, { overrides: { clock: clock.now } });
    const password = 'a long enough admin password';
    for (const [email, role] of [
      ['methods.owner@example.com', 'owner'],
      ['methods.support@example.com', 'support'],
    ] as const) {
      const admin = await seedAdmin(t.database.db, email, password, { verified: true });
      await t.database.db.updateTable('admins').set({ role }).where('id', '=', admin.id).execute();
      const token = await adminToken(t, { email, password }, nextAddress(), clock.now);
      if (role === 'owner') ownerToken = token;
      else supportToken = token;
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lists every offered method with its provider, test mode, price change and the $10.00 preview', async () => {
    const reply = await call('GET', ownerToken);
    expect(reply.statusCode, reply.body).toBe(200);
    const { data } = reply.json<{
      data: { methods: Setting[]; minPercent: number; maxPercent: number; riskyDiscountPercent: number };
    }>();
    expect(data).toMatchObject({ minPercent: -50, maxPercent: 50, riskyDiscountPercent: 20 });
    expect(data.methods.map((m) => [m.id, m.providerLabel, m.testMode, m.adjustmentPercent, m.previewCharge])).toEqual([
      ['card', 'Test payments', true, 0, 10],
      ['card-3ds', 'Test payments', true, 5, 10.5],
      ['crypto', 'Test payments', true, -5, 9.5],
    ]);
    expect(data.methods.find((m) => m.id === 'crypto')).toMatchObject({
      label: 'Crypto',
      defaultAdjustmentPercent: -5,
    });
  });

  it('is the owner’s: no token is 401, a support admin is refused reading and changing', async () => {
    expect((await call('GET', null)).statusCode).toBe(401);
    expect((await call('PUT', null, { adjustments: { crypto: -10 } })).statusCode).toBe(401);
    expect((await call('GET', supportToken)).statusCode).toBe(403);
    const refused = await call('PUT', supportToken, { adjustments: { crypto: -10 } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ message: 'Only the store owner can do this.' });
    expect((await loadMethodAdjustments(t.database.db)).crypto).toBe(-5);
  });

  it.each([
    [{ crypto: -50.01 }, 'adjustments.crypto', 'at least -50%'],
    [{ 'card-3ds': 50.5 }, 'adjustments.card-3ds', 'at most 50%'],
    [{ card: 1.234 }, 'adjustments.card', 'at most 2 decimals'],
    [{ crypto: '-5' }, 'adjustments.crypto', 'must be a number'],
    [{ paypal: 3 }, 'adjustments', 'does not have'],
  ])('refuses %j with a 400 naming the field, and changes nothing', async (adjustments, field, message) => {
    const reply = await put(adjustments);
    expect(reply.statusCode, reply.body).toBe(400);
    const body = reply.json<{ isSuccessful: boolean; errors: { field: string; message: string }[] }>();
    expect(body.isSuccessful).toBe(false);
    expect(body.errors).toEqual([{ field, message: expect.stringContaining(message) }]);
    expect(await loadMethodAdjustments(t.database.db)).toEqual({ card: 0, 'card-3ds': 5, crypto: -5 });
  });

  it('saves a change, audits it in words, and the checkout prices the next form and order with it', async () => {
    const saved = await put({ crypto: -12.5, 'card-3ds': 7 });
    expect(saved.statusCode, saved.body).toBe(200);
    const { data } = saved.json<{ data: { methods: Setting[] } }>();
    expect(data.methods.map((m) => [m.id, m.adjustmentPercent, m.previewCharge])).toEqual([
      ['card', 0, 10],
      ['card-3ds', 7, 10.7],
      ['crypto', -12.5, 8.75],
    ]);

    const audit = await t.database.db
      .selectFrom('admin_audit')
      .selectAll()
      .where('action', 'like', '%payment-methods%')
      .orderBy('id', 'desc')
      .execute();
    const entry = audit.find((row) => row.outcome === 200);
    expect(entry?.admin_email).toBe('methods.owner@example.com');
    expect(JSON.parse(entry?.summary ?? 'null')).toEqual({
      before: { 'Card, Apple Pay or Google Pay': '5%', Crypto: '-5%' },
      after: { 'Card, Apple Pay or Google Pay': '7%', Crypto: '-12.5%' },
    });
    // The support admin's refused attempt is in the log too, with its 403.
    expect(audit.some((row) => row.outcome === 403 && row.admin_email === 'methods.support@example.com')).toBe(true);

    const form = await t.app.inject({
      method: 'POST',
      url: '/api/order/form-detail',
      remoteAddress: nextAddress(),
      payload: { slug: pack.service.slug, qty: pack.tier.qty, type: pack.plan.type },
    });
    expect(form.statusCode, form.body).toBe(200);
    const detail = form.json<{
      data: {
        selected: { charge: number };
        paymentMethods: { id: string; adjustmentPercent: number; charge: number }[];
      };
    }>().data;
    const base = detail.selected.charge;
    const crypto = detail.paymentMethods.find((m) => m.id === 'crypto');
    const expectedCrypto = Math.round(base * 100 * 0.875) / 100;
    expect(crypto).toMatchObject({ adjustmentPercent: -12.5, charge: expectedCrypto });
    expect(detail.paymentMethods.find((m) => m.id === 'card-3ds')?.adjustmentPercent).toBe(7);

    const order = await t.app.inject({
      method: 'POST',
      url: '/api/order',
      remoteAddress: nextAddress(),
      payload: {
        type: pack.plan.type,
        slug: pack.service.slug,
        qty: pack.tier.qty,
        name: 'methods.buyer',
        email: 'methods.buyer@example.com',
        order_id: '320001',
        paymentMethod: 'crypto',
      },
    });
    expect(order.statusCode, order.body).toBe(200);
    const created = order.json<{ data: { amountCents: number; adjustmentCents: number; paymentMethod: string } }>()
      .data;
    expect(created.amountCents).toBe(Math.round(expectedCrypto * 100));
    expect(created.adjustmentCents).toBe(Math.round(expectedCrypto * 100) - Math.round(base * 100));
  });

  it('refuses a method the store does not offer', async () => {
    // Razorpay alone serves cards only: crypto has no price change to set.
    const gateways = createPaymentGateways([
      createRazorpayProvider({
        keyId: 'rzp_test_settings',
        keySecret: 'settings-secret',
        apiUrl: 'http://127.0.0.1:9',
      }),
    ]);
    const before = await loadMethodAdjustments(t.database.db);
    const refusal = await saveMethodSettings({ db: t.database.db, gateways }, { adjustments: { crypto: -10 } }).catch(
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(MethodSettingsError);
    expect(refusal).toMatchObject({ statusCode: 400, field: 'adjustments.crypto' });
    expect(await loadMethodAdjustments(t.database.db)).toEqual(before);
  });
});
