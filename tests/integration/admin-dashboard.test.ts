/**
 * The owner's dashboard over HTTP (server/api/admin-dashboard.ts), per dialect: the guard, the
 * range check, figures from real orders, and the supplier balance from a panel speaking the SMM
 * v2 protocol (tests/fakes/smm-panel.ts), including the panel going away: a plain sentence on
 * the page, nothing secret in the reply or the log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_TOKEN_MESSAGE } from '../../server/api/admin-guard.ts';
import { type FakeSmmPanel, startFakeSmmPanel } from '../fakes/smm-panel.ts';
import { seedAdmin } from '../support/admin-accounts.ts';
import { adminToken } from '../support/admin-session.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { type TestClock, createTestClock } from '../support/clock.ts';
import { dialects } from '../support/databases.ts';

const PANEL_KEY = 'dashboard-panel-key-0123456789';

interface DashboardReply {
  range: number;
  from: string;
  to: string;
  series: {
    currency: string;
    days: { day: string; payments: number; revenue: number }[];
    totals: { revenue: number; payments: number; checkouts: number };
  }[];
  flaggedForReview: number;
  failedMail: number;
  supplierBalances: {
    panelId: number;
    name: string;
    reading: { balance: string; currency: string } | { error: string };
  }[];
}

describe.each(dialects)('admin dashboard API on %s', (dialect) => {
  let t: TestApp;
  let panel: FakeSmmPanel;
  let clock: TestClock;
  let token: string;

  beforeAll(async () => {
    panel = await startFakeSmmPanel({ key: PANEL_KEY });
    clock = createTestClock();
    t = await startTestApp(dialect, {
      // Sandbox payments with a (fake) real panel: the opt-in decision 014 asks for.
      env: { SMM_PANEL_URL: panel.url, SMM_PANEL_KEY: PANEL_KEY, SANDBOX_PAYMENTS: 'allow' },
      overrides: { clock: clock.now },
    });
    const credentials = { email: 'dashboard.owner@example.com', password: 'a long enough owner password' };
    await seedAdmin(t.database.db, credentials.email, credentials.password, { verified: true });
    token = await adminToken(t, credentials, '10.77.0.1', clock.now);
  });
  afterAll(async () => {
    await t?.close();
    await panel?.close();
  });

  const get = (url: string, auth = true) =>
    t.app.inject({ method: 'GET', url, headers: auth ? { authorization: `Bearer ${token}` } : {} });

  it('asks for an admin token, and refuses a range other than 7, 30 or 90 days', async () => {
    const anonymous = await get('/api/admin/dashboard', false);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ message: NO_TOKEN_MESSAGE });
    const odd = await get('/api/admin/dashboard?days=5');
    expect(odd.statusCode).toBe(400);
    expect(odd.body).toContain('must be 7, 30 or 90');
  });

  it('answers the figures of real orders and the panel balance', async () => {
    const today = clock.now().toISOString();
    await t.database.db
      .insertInto('orders')
      .values({
        provider: 'sandbox',
        provider_order_id: 'order_dashboardApi01',
        client_order_id: '424242',
        email: 'buyer@example.com',
        service_slug: 'instagram-followers',
        service_name: 'Instagram Followers',
        plan_type: 'Standard',
        quantity: 100,
        target: 'someone',
        target_kind: 'instagram_username',
        comment: null,
        supplier_service_id: '1',
        price_e4: 12_900,
        amount_e4: 12_900,
        currency: '$',
        payment_status: 'paid',
        order_status: 'Pending',
        payment_id: 'pay_dashboardApi01',
        review_reason: null,
        error_message: null,
        created_at: today,
        updated_at: today,
        paid_at: today,
        supplier_order_id: null,
        start_count: null,
        remains: null,
        supplier_charge_e4: null,
        status_synced_at: null,
      })
      .execute();
    const reply = await get('/api/admin/dashboard?days=7');
    expect(reply.statusCode, reply.body).toBe(200);
    const { data } = reply.json<{ data: DashboardReply }>();
    expect(data.range).toBe(7);
    expect(data.to).toBe(today.slice(0, 10));
    expect(data.series).toHaveLength(1);
    expect(data.series[0]?.totals).toMatchObject({ revenue: 1.29, payments: 1, checkouts: 1 });
    expect(data.series[0]?.days.at(-1)).toMatchObject({ day: today.slice(0, 10), payments: 1, revenue: 1.29 });
    expect(data.failedMail).toBe(0);
    expect(data.supplierBalances).toEqual([
      {
        panelId: 1,
        name: 'Main panel',
        lowBalanceThreshold: null,
        reading: { balance: '100.84', currency: 'USD', checkedAt: expect.any(String) },
      },
    ]);
    // The default range is 30 days.
    expect((await get('/api/admin/dashboard')).json<{ data: DashboardReply }>().data.range).toBe(30);
  });

  it('says plainly when the panel does not answer, and asks again a minute later', async () => {
    await panel.close();
    // Within the minute the last answer stands.
    const cached = (await get('/api/admin/dashboard?days=7')).json<{ data: DashboardReply }>().data;
    expect(cached.supplierBalances[0]?.reading).toMatchObject({ balance: '100.84' });
    clock.advance(61_000);
    const reply = await get('/api/admin/dashboard?days=7');
    expect(reply.statusCode).toBe(200);
    const { supplierBalances } = reply.json<{ data: DashboardReply }>().data;
    expect(supplierBalances[0]?.reading).toMatchObject({ error: expect.stringContaining('did not answer') });
    expect(reply.body).not.toContain(PANEL_KEY);
  });
});
