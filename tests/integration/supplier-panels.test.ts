/**
 * More than one supplier panel (decision 045), per dialect, against two fake vendors speaking SMM
 * panel API v2 over HTTP (tests/fakes/smm-panel.ts): vendor A is the environment panel
 * (SMM_PANEL_URL), vendor B is added on the suppliers API. Both hand out the same order ids, so a
 * call to the wrong panel would find "its" order there too and the test would see it.
 *
 * - adding checks the URL and key with `balance` and says what failed; the key is sealed (not in
 *   the database in plain text, not in any reply, not in the audit log); without
 *   SUPPLIER_KEY_ENCRYPTION_KEY adding is refused and the page says what to set;
 * - import upserts the panel's services and marks the ones it stopped listing; tiers mapped to a
 *   missing service come back as warnings;
 * - an order on a tier mapped to panel B is submitted to, polled on, refilled and cancelled on B
 *   only, and keeps B after the tier is mapped back;
 * - removing a panel that a tier or an unfinished order uses is refused;
 * - the low-balance job e-mails the owners once across two racing runs and re-arms above the
 *   threshold; the dashboard shows each panel's balance.
 */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPanelKeySealer, SUPPLIER_KEY_MISSING_MESSAGE } from '../../core/fulfilment/panel-keys.ts';
import { createPanelRegistry } from '../../core/fulfilment/panels.ts';
import { createSupplierAdmin } from '../../core/fulfilment/panels-admin.ts';
import { listImportedServices, listPanels } from '../../core/fulfilment/supplier-catalogue.ts';
import type { ImportResult, PanelView, ServiceList, SuppliersPage } from '../../core/fulfilment/supplier-contracts.ts';
import { catalogueSeed } from '../../db/seed/catalogue-data.ts';
import { type FakeRazorpay, startFakeRazorpay } from '../fakes/razorpay.ts';
import { type FakeSmmPanel, followersService, startFakeSmmPanel } from '../fakes/smm-panel.ts';
import { seedAdmin } from '../support/admin-accounts.ts';
import { adminToken } from '../support/admin-session.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';
import { placePaidOrder } from '../support/paid-order.ts';

const KEY_A = 'vendor-a-key-0123456789';
const KEY_B = 'vendor-b-secret-key-9876543210';
const SUPPLIER_KEY = 'c3VwcGxpZXIga2V5czogdGVzdCBvbmx5LCBuZXZlciA=';
const razorpayKeys = { keyId: 'rzp_test_panels', keySecret: 'panels-secret', webhookSecret: 'panels-webhook' };

const followers = catalogueSeed.groups[0].services[0];
const plan = followers.plans[0];
const tier = plan.tiers[2];

describe.each(dialects)('supplier panels on %s', (dialect) => {
  let t: TestApp;
  let vendorA: FakeSmmPanel;
  let vendorB: FakeSmmPanel;
  let razorpay: FakeRazorpay;
  let token: string;
  let sequence = 610_000;
  let panelB: PanelView;
  /** Everything the store logged (background work: balance failures, job results). */
  const logLines: string[] = [];

  beforeAll(async () => {
    // The same first order id on both vendors: only the panel id tells the orders apart.
    vendorA = await startFakeSmmPanel({ key: KEY_A });
    vendorB = await startFakeSmmPanel({ key: KEY_B, balance: '42.50', currency: 'EUR' });
    for (const vendor of [vendorA, vendorB])
      vendor.services.push(followersService(tier.supplierServiceId, { min: '1' }));
    razorpay = await startFakeRazorpay(razorpayKeys);
    t = await startTestApp(dialect, {
      env: {
        SMM_PANEL_URL: vendorA.url,
        SMM_PANEL_KEY: KEY_A,
        RAZORPAY_KEY_ID: razorpayKeys.keyId,
        RAZORPAY_KEY_SECRET: razorpayKeys.keySecret,
        RAZORPAY_API_URL: razorpay.url,
        SUPPLIER_KEY_ENCRYPTION_KEY: SUPPLIER_KEY,
      },
      overrides: {
        logger: pino(
          { level: 'debug' },
          new Writable({
            write(chunk: Buffer, _encoding, callback) {
              logLines.push(...chunk.toString().split('\n').filter(Boolean));
              callback();
            },
          }),
        ),
      },
    });
    const credentials = { email: 'panels.owner@example.com', password: 'a long enough owner password' };
    await seedAdmin(t.database.db, credentials.email, credentials.password, { verified: true });
    token = await adminToken(t, credentials, '10.61.0.1');
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([vendorA?.close(), vendorB?.close(), razorpay?.close()]);
  });

  const db = () => t.database.db;
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(payload ? { payload } : {}),
    });
  const order = (id: number) => db().selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  async function drainJobs() {
    for (;;) {
      await db()
        .updateTable('jobs')
        .set({ run_at: new Date(0).toISOString() })
        .where('status', '=', 'pending')
        .execute();
      if ((await t.store.worker.runOnce()) === 0) return;
    }
  }

  /** Maps the followers tier to a panel, the way the catalogue editor writes it (a new content version). */
  async function mapTierTo(panelId: number) {
    await db()
      .updateTable('price_tiers')
      .set({ supplier_panel_id: panelId })
      .where('supplier_service_id', '=', tier.supplierServiceId)
      .execute();
    const { version } = await db()
      .selectFrom('catalogue_content')
      .select('version')
      .where('id', '=', 1)
      .executeTakeFirstOrThrow();
    await db()
      .updateTable('catalogue_content')
      .set({ version: Number(version) + 1 })
      .where('id', '=', 1)
      .execute();
    t.store.catalog.wrote(Number(version) + 1);
  }

  async function paidOrder(): Promise<number> {
    sequence += 1;
    const id = await placePaidOrder(t, razorpay, {
      sequence,
      name: `panels.buyer.${sequence}`,
      type: plan.type,
      slug: followers.slug,
      qty: tier.qty,
      subnet: 61,
    });
    await drainJobs();
    return id;
  }

  it('starts with the environment panel only', async () => {
    expect(await listPanels(db())).toEqual([{ id: 1, name: 'Main panel', kind: 'environment', currency: null }]);
    const page = await call('GET', '/api/admin/suppliers');
    expect(page.statusCode, page.body).toBe(200);
    const data = page.json<{ data: SuppliersPage }>().data;
    expect(data.addBlockedBy).toBeNull();
    expect(data.panels).toMatchObject([
      {
        id: 1,
        kind: 'environment',
        source: 'Set by SMM_PANEL_URL',
        keySaved: true,
        removeBlockedBy: expect.any(String),
      },
    ]);
  });

  it('checks the URL and key with a balance call before saving, and says what failed', async () => {
    const wrongKey = await call('POST', '/api/admin/suppliers', { name: 'Vendor B', url: vendorB.url, apiKey: 'nope' });
    expect(wrongKey.statusCode).toBe(400);
    expect(wrongKey.json()).toMatchObject({ message: expect.stringContaining('Invalid API key') });
    const wrongUrl = await call('POST', '/api/admin/suppliers', {
      name: 'Vendor B',
      url: vendorB.url.replace('/api/v2', '/nothing'),
      apiKey: KEY_B,
    });
    expect(wrongUrl.statusCode).toBe(400);
    expect(wrongUrl.json()).toMatchObject({ message: expect.stringContaining('HTTP 404') });
    const notUrl = await call('POST', '/api/admin/suppliers', { name: 'Vendor B', url: 'panel', apiKey: KEY_B });
    expect(notUrl.statusCode).toBe(400);
    expect(notUrl.json()).toMatchObject({ errors: [{ field: 'url' }] });
    expect(await listPanels(db())).toHaveLength(1);
  });

  it('adds a panel with its key sealed: not in the database, a reply or the audit log', async () => {
    const added = await call('POST', '/api/admin/suppliers', {
      name: 'Vendor B',
      url: vendorB.url,
      apiKey: KEY_B,
      lowBalanceThreshold: '50',
    });
    expect(added.statusCode, added.body).toBe(200);
    panelB = added.json<{ data: PanelView }>().data;
    expect(panelB).toMatchObject({ id: 2, kind: 'stored', url: vendorB.url, keySaved: true, currency: 'EUR' });
    expect(panelB.lowBalanceThreshold).toBe('50.00');
    expect(added.body).not.toContain(KEY_B);
    expect(vendorB.requestsFor('balance').length).toBeGreaterThan(0);

    const row = await db().selectFrom('supplier_panels').selectAll().where('id', '=', 2).executeTakeFirstOrThrow();
    expect(row.key_sealed).toBeTruthy();
    expect(JSON.stringify(row)).not.toContain(KEY_B);
    expect(JSON.stringify(row)).not.toContain(Buffer.from(KEY_B).toString('base64'));
    const audit = await db().selectFrom('admin_audit').selectAll().execute();
    expect(audit.some((a) => a.action.includes('/admin/suppliers'))).toBe(true);
    expect(JSON.stringify(audit)).not.toContain(KEY_B);
    for (const url of ['/api/admin/suppliers', '/api/admin/suppliers/balances', '/api/admin/suppliers/2/services']) {
      const reply = await call('GET', url);
      expect(reply.statusCode, url).toBe(200);
      expect(reply.body, url).not.toContain(KEY_B);
    }
    const duplicate = await call('POST', '/api/admin/suppliers', { name: 'Vendor B', url: vendorB.url, apiKey: KEY_B });
    expect(duplicate.statusCode).toBe(409);
  });

  it('refuses to add a panel without SUPPLIER_KEY_ENCRYPTION_KEY, and the page says what to set', async () => {
    const environment = t.store.supplier;
    const admin = createSupplierAdmin({
      db: db(),
      panels: createPanelRegistry({ db: db(), environment, sealer: null }),
      sealer: createPanelKeySealer(undefined),
      environmentSource: 'url',
      publicUrl: 'http://localhost:3000',
      now: () => new Date(),
    });
    expect((await admin.page()).addBlockedBy).toBe(SUPPLIER_KEY_MISSING_MESSAGE);
    expect(SUPPLIER_KEY_MISSING_MESSAGE).toContain('SUPPLIER_KEY_ENCRYPTION_KEY');
    const balanceCalls = vendorB.requestsFor('balance').length;
    await expect(admin.add({ name: 'Vendor C', url: vendorB.url, apiKey: KEY_B })).rejects.toMatchObject({
      statusCode: 409,
      message: SUPPLIER_KEY_MISSING_MESSAGE,
    });
    // Refused before anything is sent anywhere.
    expect(vendorB.requestsFor('balance')).toHaveLength(balanceCalls);
    expect(await listPanels(db())).toHaveLength(2);
    // A key sealed for one panel does not open as another's.
    const sealer = createPanelKeySealer(SUPPLIER_KEY)!;
    const sealed = sealer.seal(2, KEY_B);
    expect(sealer.open(2, sealed)).toBe(KEY_B);
    expect(() => sealer.open(3, sealed)).toThrow();
  });

  it('imports services, marks the ones the panel stopped listing, and warns about tiers mapped to them', async () => {
    const first = await call('POST', `/api/admin/suppliers/${panelB.id}/import`);
    expect(first.statusCode, first.body).toBe(200);
    const result = first.json<{ data: ImportResult }>().data;
    expect(result).toMatchObject({ imported: vendorB.services.length, added: vendorB.services.length, vanished: 0 });
    const imported = await listImportedServices(db(), panelB.id);
    expect(imported.map((s) => s.service).sort()).toEqual(vendorB.services.map((s) => String(s.service)).sort());
    const followersRow = imported.find((s) => s.service === tier.supplierServiceId);
    expect(followersRow).toMatchObject({ name: 'Instagram Followers', refill: true, cancel: true });

    // Imported again after a price change and a dropped service: updated, marked, warned.
    await mapTierTo(panelB.id);
    const dropped = vendorB.services.splice(
      vendorB.services.findIndex((s) => String(s.service) === tier.supplierServiceId),
      1,
    )[0];
    const other = vendorB.services[0];
    other.rate = '1.2345';
    try {
      const second = (await call('POST', `/api/admin/suppliers/${panelB.id}/import`)).json<{ data: ImportResult }>()
        .data;
      expect(second).toMatchObject({ added: 0, vanished: 1 });
      expect(second.warnings.length).toBeGreaterThan(0);
      expect(second.warnings[0]).toMatchObject({ supplierServiceId: tier.supplierServiceId, reason: 'vanished' });
      const list = (await call('GET', `/api/admin/suppliers/${panelB.id}/services`)).json<{ data: ServiceList }>().data;
      expect(list.services.find((s) => s.service === tier.supplierServiceId)).toMatchObject({ vanished: true });
      expect(list.services.find((s) => s.service === String(other.service))).toMatchObject({ rate: '1.2345' });
      expect((await listImportedServices(db(), panelB.id)).some((s) => s.service === tier.supplierServiceId)).toBe(
        false,
      );
      // Search and category filter.
      const searched = (
        await call('GET', `/api/admin/suppliers/${panelB.id}/services?q=${encodeURIComponent(other.name)}`)
      ).json<{ data: ServiceList }>().data;
      expect(searched.services.map((s) => s.service)).toContain(String(other.service));
      const category = (
        await call('GET', `/api/admin/suppliers/${panelB.id}/services?category=${encodeURIComponent(other.category)}`)
      ).json<{ data: ServiceList }>().data;
      expect(category.services.every((s) => s.category === other.category)).toBe(true);
      expect(category.categories).toContain(other.category);
    } finally {
      vendorB.services.push(dropped);
    }
    const back = (await call('POST', `/api/admin/suppliers/${panelB.id}/import`)).json<{ data: ImportResult }>().data;
    expect(back.warnings).toEqual([]);
  });

  it('submits, polls, refills and cancels an order on its own panel only, also after the tier is remapped', async () => {
    // The tier is on panel B (previous test).
    const id = await paidOrder();
    const placed = await order(id);
    expect(placed.supplier_panel_id).toBe(panelB.id);
    expect(placed.supplier_order_id).toBeTruthy();
    expect(vendorB.requestsFor('add')).toHaveLength(1);
    expect(vendorA.requestsFor('add')).toHaveLength(0);

    // Remapped back to A: the order stays on B.
    await mapTierTo(1);
    const supplierOrderId = placed.supplier_order_id!;
    vendorB.setOrder(supplierOrderId, { status: 'Completed', remains: '0' });
    const statusCallsOnA = vendorA.requestsFor('status').length;
    await t.store.fulfilment.syncStatuses();
    expect(vendorA.requestsFor('status')).toHaveLength(statusCallsOnA);
    expect(vendorB.requestsFor('status').at(-1)?.form.orders).toContain(supplierOrderId);
    expect((await order(id)).order_status).toBe('Completed');

    const refill = await t.store.refills.requestByAdmin(placed.provider_order_id, null);
    expect(refill.accepted).toBe(true);
    expect(vendorB.requestsFor('refill')).toHaveLength(1);
    expect(vendorA.requestsFor('refill')).toHaveLength(0);
    await t.store.refills.syncStatuses();
    expect(vendorB.requestsFor('refill_status')).toHaveLength(1);
    expect(vendorA.requestsFor('refill_status')).toHaveLength(0);

    // A second order while the tier is on A goes to A; one on B again is cancelled on B.
    const onA = await paidOrder();
    expect((await order(onA)).supplier_panel_id).toBe(1);
    expect(vendorA.requestsFor('add')).toHaveLength(1);
    await mapTierTo(panelB.id);
    const onB = await paidOrder();
    const running = await order(onB);
    expect(running.supplier_panel_id).toBe(panelB.id);
    vendorB.setOrder(running.supplier_order_id!, { status: 'In progress' });
    const cancelled = await t.store.refills.cancelByAdmin(running.provider_order_id, null);
    expect(cancelled.accepted, cancelled.answer).toBe(true);
    expect(vendorB.requestsFor('cancel')).toHaveLength(1);
    expect(vendorA.requestsFor('cancel')).toHaveLength(0);
  });

  it('refuses to remove a panel a tier or an unfinished order uses, or the environment panel', async () => {
    const byTier = await call('DELETE', `/api/admin/suppliers/${panelB.id}`);
    expect(byTier.statusCode).toBe(409);
    expect(byTier.json()).toMatchObject({ message: expect.stringContaining('price tier') });
    await mapTierTo(1);
    // The refill of the first order is still open at B.
    const byOrder = await call('DELETE', `/api/admin/suppliers/${panelB.id}`);
    expect(byOrder.statusCode).toBe(409);
    expect(byOrder.json()).toMatchObject({ message: expect.stringContaining('unfinished order') });
    const environment = await call('DELETE', '/api/admin/suppliers/1');
    expect(environment.statusCode).toBe(409);
    expect(await listPanels(db())).toHaveLength(2);
  });

  it('e-mails the owners once when a balance drops below its threshold, across two racing runs, and re-arms', async () => {
    const lowMails = () =>
      db()
        .selectFrom('jobs')
        .select(['payload_json'])
        .where('kind', '=', 'mail.send')
        .where('dedupe_key', 'like', 'low-balance:%')
        .execute();
    // 42.50 EUR is below the threshold of 50.
    const [one, two] = await Promise.all([t.store.suppliers.checkLowBalances(), t.store.suppliers.checkLowBalances()]);
    expect(one.alerted + two.alerted).toBe(1);
    const mails = await lowMails();
    expect(mails).toHaveLength(1);
    const mail = JSON.parse(mails[0].payload_json) as { to: string; subject: string; text: string };
    expect(mail.to).toBe('panels.owner@example.com');
    expect(mail.subject).toContain('Vendor B');
    expect(mail.text).toContain('42.50 EUR');
    expect(mail.text).not.toContain(KEY_B);
    // Still low: nothing more.
    await t.store.suppliers.checkLowBalances();
    expect(await lowMails()).toHaveLength(1);
    // Topped up: re-armed; low again: one more e-mail.
    vendorB.setBalance('80.00');
    expect((await t.store.suppliers.checkLowBalances()).rearmed).toBe(1);
    vendorB.setBalance('10.00');
    await t.store.suppliers.checkLowBalances();
    expect(await lowMails()).toHaveLength(2);
  });

  it('shows every panel’s balance on the dashboard', async () => {
    const reply = await call('GET', '/api/admin/dashboard?days=7');
    expect(reply.statusCode, reply.body).toBe(200);
    const { supplierBalances } = reply.json<{
      data: { supplierBalances: { panelId: number; name: string; reading: object }[] };
    }>().data;
    expect(supplierBalances).toMatchObject([
      { panelId: 1, name: 'Main panel', reading: { balance: '100.84', currency: 'USD' } },
      { panelId: 2, name: 'Vendor B', lowBalanceThreshold: '50.00', reading: { currency: 'EUR' } },
    ]);
    expect(reply.body).not.toContain(KEY_B);
    expect(reply.body).not.toContain(KEY_A);
  });

  it('edits a panel: a new key is checked first, the threshold re-arms the alert', async () => {
    const bad = await call('PATCH', `/api/admin/suppliers/${panelB.id}`, { apiKey: 'wrong-key' });
    expect(bad.statusCode).toBe(400);
    const good = await call('PATCH', `/api/admin/suppliers/${panelB.id}`, {
      name: 'Vendor B (EU)',
      apiKey: KEY_B,
      lowBalanceThreshold: '',
    });
    expect(good.statusCode, good.body).toBe(200);
    expect(good.json<{ data: PanelView }>().data).toMatchObject({ name: 'Vendor B (EU)', lowBalanceThreshold: null });
    expect(good.body).not.toContain(KEY_B);
    const env = await call('PATCH', '/api/admin/suppliers/1', { url: vendorB.url });
    expect(env.statusCode).toBe(400);
    const envName = await call('PATCH', '/api/admin/suppliers/1', { name: 'Vendor A', lowBalanceThreshold: '5' });
    expect(envName.statusCode, envName.body).toBe(200);
  });

  it('logs a panel that does not answer without its key', async () => {
    const threshold = await call('PATCH', `/api/admin/suppliers/${panelB.id}`, { lowBalanceThreshold: '1' });
    expect(threshold.statusCode, threshold.body).toBe(200);
    vendorB.setMode('down');
    try {
      const result = await t.store.suppliers.checkLowBalances();
      expect(result.failed).toBeGreaterThan(0);
    } finally {
      vendorB.setMode('normal');
    }
    expect(logLines.some((line) => line.includes('supplier balance request failed'))).toBe(true);
    expect(logLines.join('\n')).not.toContain(KEY_B);
    expect(logLines.join('\n')).not.toContain(KEY_A);
  });

  it('removes a panel once no tier and no unfinished order uses it', async () => {
    // The open refill at B completes; every order on B is final.
    for (const refill of vendorB.refills.values()) vendorB.setRefillStatus(refill.id, 'Completed');
    await t.store.refills.syncStatuses();
    const removed = await call('DELETE', `/api/admin/suppliers/${panelB.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await listPanels(db())).toMatchObject([{ id: 1 }]);
    expect(await listImportedServices(db(), panelB.id)).toEqual([]);
  });
});
