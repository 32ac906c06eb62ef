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
 *   missing service come back as warnings, in the import's reply and on every read of the page
 *   (each naming its service's slug for the editor's link), none for a panel never imported;
 * - an order on a tier mapped to panel B is submitted to, polled on, refilled and cancelled on B
 *   only, and keeps B after the tier is mapped back;
 * - removing a panel that a tier or an unfinished order uses is refused;
 * - the low-balance job e-mails the owners once across two racing runs and re-arms above the
 *   threshold; the dashboard shows each panel's balance;
 * - rotating SUPPLIER_KEY_ENCRYPTION_KEY: two instances booting at once with the new key and
 *   SUPPLIER_KEY_ENCRYPTION_KEY_PREVIOUS re-seal each panel key once; afterwards nothing in the
 *   database opens under the old key, the panel still answers, a key neither opens is shown on
 *   the page and logged by panel id, and no key is ever logged.
 */
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SUPPLIER_KEY_MISSING_MESSAGE,
  SUPPLIER_KEY_NOT_SET_MESSAGE,
  SUPPLIER_KEY_UNREADABLE_MESSAGE,
  createPanelKeySealer,
  resealPanelKeys,
} from '../../core/fulfilment/panel-keys.ts';
import { createPanelRegistry } from '../../core/fulfilment/panels.ts';
import { createSupplierAdmin } from '../../core/fulfilment/panels-admin.ts';
import { listImportedServices, listPanels } from '../../core/fulfilment/supplier-catalogue.ts';
import type { ImportResult, PanelView, ServiceList, SuppliersPage } from '../../core/fulfilment/supplier-contracts.ts';
import { catalogueSeed } from '../../core/catalogue/seed/catalogue-seed.ts';
import { ConfigError, loadConfig } from '../../server/config.ts';
import { REDACTED, loggerOptions } from '../../server/logging.ts';
import { type Store, openStore } from '../../server/store.ts';
import { type FakeRazorpay, startFakeRazorpay } from '../fakes/razorpay.ts';
import { type FakeSmmPanel, followersService, startFakeSmmPanel } from '../fakes/smm-panel.ts';
import { seedAdmin } from '../support/admin-accounts.ts';
import { adminToken } from '../support/admin-session.ts';
import { TEST_TOTP_ENCRYPTION_KEY, type TestApp, root, startTestApp } from '../support/app.ts';
import { bumpCatalogueVersion } from '../support/catalogue-version.ts';
import { type TestDatabase, dialects, openTestDatabase } from '../support/databases.ts';
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
        // The fake vendors listen on this host: allowed the way an operator allows their own network.
        SUPPLIER_PANEL_ALLOW_PRIVATE: '127.0.0.1',
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
  async function panelView(panelId: number): Promise<PanelView> {
    const reply = await call('GET', '/api/admin/suppliers');
    expect(reply.statusCode, reply.body).toBe(200);
    const found = reply.json<{ data: SuppliersPage }>().data.panels.find((p) => p.id === panelId);
    if (!found) throw new Error(`panel ${panelId} is not on the page`);
    return found;
  }
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
    await bumpCatalogueVersion(t);
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
      panels: createPanelRegistry({ db: db(), environment, sealer: null, addressPolicy: { allowedPrivate: null } }),
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
    expect((await panelView(panelB.id)).warnings).toEqual([]);
  });

  it('lists the tiers mapped to a service the panel does not offer on every read of the page', async () => {
    // The followers tiers are on panel B (previous test), whose import lists their service.
    expect((await panelView(panelB.id)).warnings).toEqual([]);
    // The environment panel was never imported: nothing is known about it, nothing is warned.
    expect((await panelView(1)).warnings).toEqual([]);

    const neverListed = plan.tiers[0];
    const neverListedRow = await db()
      .selectFrom('price_tiers')
      .select(['id', 'supplier_service_id', 'supplier_panel_id'])
      .where('qty', '=', neverListed.qty)
      .where('supplier_service_id', '=', neverListed.supplierServiceId)
      .where('plan_id', 'in', (eb) =>
        eb
          .selectFrom('plans')
          .innerJoin('services', 'services.id', 'plans.service_id')
          .select('plans.id')
          .where('services.slug', '=', followers.slug)
          .where('plans.type', '=', plan.type),
      )
      .executeTakeFirstOrThrow();
    const droppedIndex = vendorB.services.findIndex((s) => String(s.service) === tier.supplierServiceId);
    const dropped = vendorB.services.splice(droppedIndex, 1)[0];
    try {
      await db()
        .updateTable('price_tiers')
        .set({ supplier_panel_id: panelB.id, supplier_service_id: 'never-listed-77' })
        .where('id', '=', neverListedRow.id)
        .execute();
      expect((await call('POST', `/api/admin/suppliers/${panelB.id}/import`)).statusCode).toBe(200);
      // Read twice: the warnings are the database's, not the import's reply.
      for (let read = 0; read < 2; read += 1) {
        const warnings = (await panelView(panelB.id)).warnings;
        expect(warnings).toContainEqual({
          tierId: neverListedRow.id,
          serviceName: followers.name,
          serviceSlug: followers.slug,
          planType: plan.type,
          qty: neverListed.qty,
          supplierServiceId: 'never-listed-77',
          reason: 'unknown',
        });
        const vanished = warnings.filter((w) => w.reason === 'vanished');
        expect(vanished.length).toBeGreaterThan(0);
        expect(vanished.every((w) => w.supplierServiceId === tier.supplierServiceId)).toBe(true);
        expect(vanished.every((w) => w.serviceSlug === followers.slug)).toBe(true);
        expect((await panelView(1)).warnings).toEqual([]);
      }
    } finally {
      vendorB.services.push(dropped);
      await db()
        .updateTable('price_tiers')
        .set({
          supplier_panel_id: neverListedRow.supplier_panel_id,
          supplier_service_id: neverListedRow.supplier_service_id,
        })
        .where('id', '=', neverListedRow.id)
        .execute();
    }
    expect((await call('POST', `/api/admin/suppliers/${panelB.id}/import`)).statusCode).toBe(200);
    expect((await panelView(panelB.id)).warnings).toEqual([]);
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

describe.each(dialects)('supplier key rotation on %s', (dialect) => {
  // Three operator keys: the one panels were added under, the next one, and one nobody has any more.
  const OLD_KEY = SUPPLIER_KEY;
  const NEW_KEY = '9T8HyKYOuiBxMwMTOMtpdOixb/0wce+fxYWYuWVb7uQ=';
  const LOST_KEY = 'DYUyCsc9Wq5w/Cqkej4ZgRpwKVd35SMF6HohPv6yoZ0=';
  let database: TestDatabase;
  let vendor: FakeSmmPanel;
  const running: Store[] = [];

  beforeAll(async () => {
    database = await openTestDatabase(dialect);
    vendor = await startFakeSmmPanel({ key: KEY_B, balance: '12.00', currency: 'EUR' });
  });
  afterAll(async () => {
    for (const store of running.splice(0)) await stop(store);
    await database?.dispose();
    await vendor?.close();
  });

  async function stop(store: Store) {
    await store.worker.stop();
    await store.mailer.close();
  }

  /** One instance booting on the shared database with these supplier keys; its log lines kept. */
  async function boot(keys: { current?: string; previous?: string }, lines: string[]): Promise<Store> {
    const config = loadConfig({
      NODE_ENV: 'production',
      DATA_DIR: path.join(root, '.tmp/unused'),
      LOG_LEVEL: 'silent',
      TOTP_ENCRYPTION_KEY: TEST_TOTP_ENCRYPTION_KEY,
      SUPPLIER_PANEL_ALLOW_PRIVATE: '127.0.0.1',
      ...(keys.current ? { SUPPLIER_KEY_ENCRYPTION_KEY: keys.current } : {}),
      ...(keys.previous ? { SUPPLIER_KEY_ENCRYPTION_KEY_PREVIOUS: keys.previous } : {}),
    });
    const logger = pino(
      { level: 'info' },
      new Writable({
        write(chunk: Buffer, _encoding, callback) {
          lines.push(...chunk.toString().split('\n').filter(Boolean));
          callback();
        },
      }),
    );
    const store = await openStore(config, database, { logger });
    running.push(store);
    return store;
  }

  async function shutDown() {
    for (const store of running.splice(0)) await stop(store);
  }

  const storedKeys = () =>
    database.db
      .selectFrom('supplier_panels')
      .select(['id', 'key_sealed'])
      .where('kind', '=', 'stored')
      .orderBy('id')
      .execute();

  it('checks SUPPLIER_KEY_ENCRYPTION_KEY_PREVIOUS in the config and redacts both keys from logs', () => {
    let thrown: unknown;
    try {
      loadConfig({
        NODE_ENV: 'production',
        DATA_DIR: path.join(root, '.tmp/unused'),
        SUPPLIER_KEY_ENCRYPTION_KEY_PREVIOUS: OLD_KEY,
      });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect(String(thrown)).toContain('SUPPLIER_KEY_ENCRYPTION_KEY_PREVIOUS');
    expect(String(thrown)).not.toContain(OLD_KEY);
    // A bad previous key stops the config too, named, its value not repeated.
    const bad = 'not-a-key-VALUE-1234';
    let badThrown: unknown;
    try {
      loadConfig({ SUPPLIER_KEY_ENCRYPTION_KEY: NEW_KEY, SUPPLIER_KEY_ENCRYPTION_KEY_PREVIOUS: bad });
    } catch (error) {
      badThrown = error;
    }
    expect(badThrown).toBeInstanceOf(ConfigError);
    expect(String(badThrown)).toContain('SUPPLIER_KEY_ENCRYPTION_KEY_PREVIOUS:');
    expect(String(badThrown)).not.toContain(bad);
    expect(
      loadConfig({ SUPPLIER_KEY_ENCRYPTION_KEY: NEW_KEY, SUPPLIER_KEY_ENCRYPTION_KEY_PREVIOUS: OLD_KEY })
        .SUPPLIER_KEY_ENCRYPTION_KEY_PREVIOUS,
    ).toBe(OLD_KEY);
    // Both variables are redacted wherever a logged object carries them.
    const lines: string[] = [];
    const logger = pino(
      loggerOptions('info'),
      new Writable({
        write(chunk: Buffer, _encoding, callback) {
          lines.push(chunk.toString());
          callback();
        },
      }),
    );
    logger.info({ SUPPLIER_KEY_ENCRYPTION_KEY: NEW_KEY, SUPPLIER_KEY_ENCRYPTION_KEY_PREVIOUS: OLD_KEY }, 'top');
    logger.info({ config: { SUPPLIER_KEY_ENCRYPTION_KEY_PREVIOUS: OLD_KEY } }, 'nested');
    expect(lines.join('')).not.toContain(NEW_KEY);
    expect(lines.join('')).not.toContain(OLD_KEY);
    expect(lines.join('')).toContain(REDACTED);
  });

  it('re-seals each panel key once when two instances boot at once, and the panel still answers', async () => {
    const lines: string[] = [];
    // Before the rotation: two panels added under the old key; the second one's key is then
    // replaced by one sealed under a key the operator no longer has.
    const before = await boot({ current: OLD_KEY }, lines);
    const working = await before.suppliers.add({ name: 'Rotated vendor', url: vendor.url, apiKey: KEY_B });
    const lost = await before.suppliers.add({ name: 'Lost-key vendor', url: vendor.url, apiKey: KEY_B });
    await database.db
      .updateTable('supplier_panels')
      .set({ key_sealed: createPanelKeySealer(LOST_KEY)!.seal(lost.id, KEY_B) })
      .where('id', '=', lost.id)
      .execute();
    const sealedBefore = new Map((await storedKeys()).map((r) => [r.id, r.key_sealed]));
    await shutDown();

    // Two instances boot together with the new key and the old one as the previous.
    const [one, two] = await Promise.all([
      boot({ current: NEW_KEY, previous: OLD_KEY }, lines),
      boot({ current: NEW_KEY, previous: OLD_KEY }, lines),
    ]);
    const moved = lines
      .map((line) => JSON.parse(line) as { msg?: string; resealed?: number; unreadable?: number[] })
      .filter((entry) => entry.msg === 'supplier panel keys moved to SUPPLIER_KEY_ENCRYPTION_KEY');
    expect(moved.reduce((sum, entry) => sum + (entry.resealed ?? 0), 0)).toBe(1);
    const unreadableWarnings = lines.filter((line) => line.includes('enter them again on /admin/suppliers'));
    expect(unreadableWarnings).toHaveLength(2);
    for (const line of unreadableWarnings)
      expect((JSON.parse(line) as { unreadable: number[] }).unreadable).toEqual([lost.id]);

    // Nothing in the database opens under the old key any more; the moved key opens under the new one alone.
    const oldOnly = createPanelKeySealer(OLD_KEY)!;
    const newOnly = createPanelKeySealer(NEW_KEY)!;
    const after = await storedKeys();
    for (const row of after) expect(() => oldOnly.open(row.id, row.key_sealed ?? '')).toThrow();
    const movedRow = after.find((r) => r.id === working.id)!;
    expect(movedRow.key_sealed).not.toBe(sealedBefore.get(working.id));
    expect(newOnly.isCurrent(movedRow.key_sealed ?? '')).toBe(true);
    expect(newOnly.open(working.id, movedRow.key_sealed ?? '')).toBe(KEY_B);
    // The unreadable one is left exactly as it was, for the owner to re-enter.
    expect(after.find((r) => r.id === lost.id)?.key_sealed).toBe(sealedBefore.get(lost.id));

    // The boots may not overlap at the re-seal itself (PostgreSQL serialises their migrations):
    // the same step raced directly, on a key put back under the old key, moves it once too.
    const rotating = createPanelKeySealer(NEW_KEY, OLD_KEY);
    await database.db
      .updateTable('supplier_panels')
      .set({ key_sealed: oldOnly.seal(working.id, KEY_B) })
      .where('id', '=', working.id)
      .execute();
    const raced = await Promise.all([resealPanelKeys(database.db, rotating), resealPanelKeys(database.db, rotating)]);
    expect(raced.map((r) => r.resealed).sort()).toEqual([0, 1]);
    expect(newOnly.open(working.id, (await storedKeys()).find((r) => r.id === working.id)?.key_sealed ?? '')).toBe(
      KEY_B,
    );

    // Both instances talk to the panel with the key (the vendor refuses any other).
    const balanceCalls = vendor.requestsFor('balance').length;
    for (const store of [one, two])
      await expect((await store.panels.get(working.id)).balance()).resolves.toMatchObject({ balance: '12.00' });
    expect(vendor.requestsFor('balance')).toHaveLength(balanceCalls + 2);
    await shutDown();

    // The next restart drops the previous key: the moved panel still works; the page reports the lost one.
    const next = await boot({ current: NEW_KEY }, lines);
    await expect((await next.panels.get(working.id)).balance()).resolves.toMatchObject({ currency: 'EUR' });
    const page = await next.suppliers.page();
    expect(page.panels.find((p) => p.id === working.id)?.keyProblem).toBeNull();
    expect(page.panels.find((p) => p.id === lost.id)?.keyProblem).toBe(SUPPLIER_KEY_UNREADABLE_MESSAGE);
    await expect(next.panels.get(lost.id)).rejects.toThrow(SUPPLIER_KEY_UNREADABLE_MESSAGE);
    // Entering the key again on the page fixes it.
    await next.suppliers.edit(lost.id, { apiKey: KEY_B });
    expect((await next.suppliers.page()).panels.find((p) => p.id === lost.id)?.keyProblem).toBeNull();
    await shutDown();

    // Without the variable, the page says what to set for every stored panel.
    const unset = await boot({}, lines);
    expect((await unset.suppliers.page()).panels.filter((p) => p.kind === 'stored').map((p) => p.keyProblem)).toEqual([
      SUPPLIER_KEY_NOT_SET_MESSAGE,
      SUPPLIER_KEY_NOT_SET_MESSAGE,
    ]);
    await shutDown();

    // No key, operator key or panel key, in anything logged.
    const log = lines.join('\n');
    for (const secret of [KEY_B, OLD_KEY, NEW_KEY, LOST_KEY]) expect(log).not.toContain(secret);
  });
});
