/**
 * Refills and supplier cancels (decision 040), per dialect, against the fake SMM panel over HTTP
 * and a fake Razorpay: who may ask for a refill and when (window, supplier flag, Completed only),
 * one open refill per order under a race, the proof /client already uses (the verified lookup's
 * token), the status poll as a recurring job once per slot, and the admin's refill and cancel with
 * the panel's answer, where an accepted cancel refunds the undelivered share through the
 * existing refund job.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { REFILL_MESSAGES } from '../../core/orders/refill-contracts.ts';
import { REFILL_SYNC_JOB } from '../../core/fulfilment/jobs.ts';
import { offerRecurringJobs } from '../../core/jobs/recurring.ts';
import { createRefills, refillEligibility } from '../../core/fulfilment/refills.ts';
import { singlePanel } from '../support/single-panel.ts';
import { createSmmPanelClient } from '../../core/fulfilment/smm-panel-client.ts';
import { refundDueE4 } from '../../core/orders/progress.ts';
import type { FakeRazorpay } from '../fakes/razorpay.ts';
import type { FakeSmmPanel } from '../fakes/smm-panel.ts';
import { adminToken } from '../support/admin-session.ts';
import type { TestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';
import {
  closeSupplierApp,
  followersTier as tier,
  orderHelpers,
  resetPanel,
  startSupplierApp,
} from '../support/supplier-app.ts';

const keys = {
  panelKey: 'refill-key',
  razorpay: { keyId: 'rzp_test_refills', keySecret: 'refills-secret', webhookSecret: 'refills-webhook' },
};
const DAY = 86_400_000;

describe.each(dialects)('refills and supplier cancels on %s', (dialect) => {
  let t: TestApp;
  let panel: FakeSmmPanel;
  let razorpay: FakeRazorpay;
  let token: string;

  beforeAll(async () => {
    ({ t, panel, razorpay } = await startSupplierApp(dialect, keys));
    const email = 'refill.admin@example.com';
    const password = 'a long enough admin password';
    await t.store.adminAuth.createAdmin(email, password);
    token = await adminToken(t, { email, password }, '10.88.0.1');
  });
  afterAll(() => closeSupplierApp({ t, panel, razorpay }));
  beforeEach(() => resetPanel(panel));

  const { db, order, drainJobs, paidOrder } = orderHelpers(() => ({ t, panel, razorpay }), {
    namePrefix: 'refill',
    subnet: 9,
    firstSequence: 700_000,
  });
  const refillsOf = (id: number) =>
    db().selectFrom('refills').selectAll().where('order_id', '=', id).orderBy('id').execute();
  const kinds = async (id: number) =>
    (await db().selectFrom('order_events').select('kind').where('order_id', '=', id).orderBy('id').execute()).map(
      (e) => e.kind,
    );
  const panelCalls = (action: string) => panel.requests.filter((r) => r.form.action === action);
  const admin = (url: string, payload?: object) =>
    t.app.inject({
      method: payload ? 'POST' : 'GET',
      url,
      ...(payload ? { payload } : {}),
      headers: { authorization: `Bearer ${token}` },
      remoteAddress: '10.88.0.1',
    });
  let clients = 0;
  const customer = (payload: object) =>
    t.app.inject({
      method: 'POST',
      url: '/api/order/refill',
      payload,
      remoteAddress: `10.89.0.${(clients += 1) % 250}`,
    });

  async function completedOrder(): Promise<number> {
    const id = await paidOrder();
    const row = await order(id);
    panel.setOrder(row.supplier_order_id!, { status: 'Completed', remains: '0' });
    await t.store.fulfilment.syncStatuses();
    await drainJobs();
    const done = await order(id);
    expect(done).toMatchObject({ order_status: 'Completed' });
    expect(done.completed_at).not.toBeNull();
    return id;
  }

  /** The /client view of one order, as a verified lookup returns it. */
  async function viewOf(id: number) {
    const row = await order(id);
    return (await t.store.refills.customerViews(row.email, [row.provider_order_id])).get(row.provider_order_id);
  }

  it('offers a refill for a completed order of a service with refill, within the window only', async () => {
    const id = await completedOrder();
    const view = await viewOf(id);
    expect(view).toMatchObject({ canRequest: true, reason: null, latest: null });
    expect(view?.token).toMatch(/^\d+\.[\w-]+$/);
    const row = await order(id);
    expect(Date.parse(view!.windowEndsAt!) - Date.parse(row.completed_at!)).toBe(30 * DAY);

    // 31 days after completion: no button, and the customer is told why.
    const late = new Date(Date.parse(row.completed_at!) - 31 * DAY).toISOString();
    await db().updateTable('orders').set({ completed_at: late }).where('id', '=', id).execute();
    const ended = await viewOf(id);
    expect(ended).toMatchObject({ canRequest: false, token: null });
    expect(ended?.reason).toMatch(/^Refill window ended on \d{1,2} \w{3} \d{4}\.$/);
    // An old token of the order is refused too.
    const refused = await customer({ orderId: row.provider_order_id, token: view!.token });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().message).toBe(ended?.reason);
  });

  it('offers nothing for orders that are not completed, or whose service has no refill', async () => {
    const id = await paidOrder();
    const row = await order(id);
    // Not Completed: no refill section at all in the list.
    expect(await viewOf(id)).toBeUndefined();
    await expect(t.store.refills.requestByAdmin(row.provider_order_id, null)).rejects.toMatchObject({
      statusCode: 409,
      message: REFILL_MESSAGES.notCompleted,
    });

    // The panel's service list is read once and cached: views do not call the panel.
    const done = await completedOrder();
    await viewOf(done);
    const servicesCalls = panelCalls('services').length;
    await viewOf(done);
    await viewOf(done);
    expect(panelCalls('services')).toHaveLength(servicesCalls);

    // A service the panel lists with refill: false (a store that reads the list afresh).
    const service = panel.services.find((s) => String(s.service) === tier.supplierServiceId)!;
    service.refill = false;
    try {
      const refills = createRefills({
        db: db(),
        panels: singlePanel(createSmmPanelClient({ url: panel.url, key: 'refill-key' })),
        tokenKey: 'test',
      });
      const doneRow = await order(done);
      const view = (await refills.customerViews(doneRow.email, [doneRow.provider_order_id])).get(
        doneRow.provider_order_id,
      );
      expect(view).toMatchObject({ canRequest: false, token: null, reason: REFILL_MESSAGES.notSupported });
      // A panel that cannot be reached: no button, "try again later", and no call per view for a minute.
      panel.setMode('down');
      const offline = createRefills({
        db: db(),
        panels: singlePanel(createSmmPanelClient({ url: panel.url, key: 'refill-key' })),
        tokenKey: 'test',
      });
      const unknown = (await offline.customerViews(doneRow.email, [doneRow.provider_order_id])).get(
        doneRow.provider_order_id,
      );
      expect(unknown).toMatchObject({ canRequest: false, reason: REFILL_MESSAGES.servicesUnknown });
    } finally {
      service.refill = true;
      panel.setMode('normal');
    }
    // The rules themselves.
    const base = {
      order: {
        order_status: 'Completed' as const,
        payment_status: 'paid' as const,
        completed_at: new Date(0).toISOString(),
        supplier_order_id: '1',
      },
      supportsRefill: true,
      openRefill: false,
      nowMs: 29 * DAY,
      windowDays: 30,
      enforceWindow: true,
    };
    expect(refillEligibility(base).allowed).toBe(true);
    expect(refillEligibility({ ...base, nowMs: 31 * DAY })).toMatchObject({
      allowed: false,
      reason: 'Refill window ended on 31 Jan 1970.',
    });
    expect(refillEligibility({ ...base, nowMs: 31 * DAY, enforceWindow: false }).allowed).toBe(true);
    expect(refillEligibility({ ...base, openRefill: true }).reason).toBe(REFILL_MESSAGES.alreadyOpen);
    expect(refillEligibility({ ...base, order: { ...base.order, supplier_order_id: null } }).reason).toBe(
      REFILL_MESSAGES.noSupplierOrder,
    );
  });

  it('one open refill per order under a race; the poll moves it to Completed with timeline entries', async () => {
    const id = await completedOrder();
    const row = await order(id);
    const view = await viewOf(id);
    const before = panelCalls('refill').length;
    const replies = await Promise.all(
      Array.from({ length: 4 }, () => customer({ orderId: row.provider_order_id, token: view!.token })),
    );
    const codes = replies.map((r) => r.statusCode).sort();
    expect(codes, replies.map((r) => r.body).join('\n')).toEqual([200, 409, 409, 409]);
    expect(panelCalls('refill').length - before).toBe(1);
    const winner = replies.find((r) => r.statusCode === 200)!.json();
    expect(winner.data).toMatchObject({ canRequest: false, latest: { state: 'Pending', requestedBy: 'customer' } });
    for (const loser of replies.filter((r) => r.statusCode === 409)) {
      expect(loser.json().message).toBe(REFILL_MESSAGES.alreadyOpen);
    }
    const [refill] = await refillsOf(id);
    expect(refill).toMatchObject({ state: 'Pending', final: 0 });

    // The recurring job: offered by two "instances" for the same slot, one run.
    const now = new Date();
    const everyMs = 60_000;
    const offered = [
      ...(await offerRecurringJobs(db(), [{ job: REFILL_SYNC_JOB, everyMs }], now)),
      ...(await offerRecurringJobs(db(), [{ job: REFILL_SYNC_JOB, everyMs }], now)),
    ];
    expect(offered).toEqual(['refills.sync']);
    panel.setRefillStatus(refill.supplier_refill_id!, 'In progress');
    const statusCalls = panelCalls('refill_status').length;
    await drainJobs();
    expect(panelCalls('refill_status').length - statusCalls).toBe(1);
    expect((await refillsOf(id))[0]).toMatchObject({ state: 'In progress', final: 0 });

    panel.setRefillStatus(refill.supplier_refill_id!, 'Completed');
    expect(await t.store.refills.syncStatuses()).toMatchObject({ checked: 1, changed: 1 });
    expect((await refillsOf(id))[0]).toMatchObject({ state: 'Completed', final: 1 });
    expect(await kinds(id)).toEqual(
      expect.arrayContaining(['refill.requested', 'refill.accepted', 'refill.status_changed']),
    );
    // Final refills are not polled again.
    expect(await t.store.refills.syncStatuses()).toMatchObject({ checked: 0 });
    // Completed: the customer may ask again (within the window).
    expect(await viewOf(id)).toMatchObject({ canRequest: true, latest: { state: 'Completed' } });
  });

  it("needs the verified lookup's token for that order: nobody refills someone else's order", async () => {
    const mine = await completedOrder();
    const theirs = await completedOrder();
    const myToken = (await viewOf(mine))!.token!;
    const theirRow = await order(theirs);
    const attempts = [
      { orderId: theirRow.provider_order_id, token: myToken },
      { orderId: theirRow.provider_order_id, token: '9999999999999.forged' },
      { orderId: 'order_doesnotexist', token: myToken },
    ];
    for (const payload of attempts) {
      const reply = await customer(payload);
      expect(reply.statusCode, reply.body).toBe(403);
      expect(reply.json().message).toBe(REFILL_MESSAGES.badToken);
    }
    expect(await refillsOf(theirs)).toHaveLength(0);
    // Validation: every route has a schema.
    expect((await customer({ orderId: '' })).statusCode).toBe(400);
  });

  it('through the real lookup: the code unlocks the rows, each completed row carries its refill section', async () => {
    const id = await completedOrder();
    const row = await order(id);
    const asked = await t.app.inject({
      method: 'POST',
      url: '/api/order/order-history/code',
      payload: { email: row.email },
      remoteAddress: '10.90.0.1',
    });
    expect(asked.statusCode, asked.body).toBe(200);
    const job = await db()
      .selectFrom('jobs')
      .select('payload_json')
      .where('payload_json', 'like', `%${row.email}%`)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    // The code is the mail's line of its own (the one place it is kept in clear, decision 015).
    const mailText = JSON.stringify(JSON.parse(job.payload_json)).replaceAll('\\n', '\n');
    const code = /^\s*(\d{6})\s*$/m.exec(mailText)![1];
    const looked = await t.app.inject({
      method: 'PATCH',
      url: '/api/order/order-history',
      payload: { email: row.email, code },
      remoteAddress: '10.90.0.2',
    });
    expect(looked.statusCode, looked.body).toBe(200);
    const listed = looked
      .json()
      .data.find((r: { razorPayOrderId: string }) => r.razorPayOrderId === row.provider_order_id);
    expect(listed.refill).toMatchObject({ canRequest: true });
    const requested = await customer({ orderId: row.provider_order_id, token: listed.refill.token });
    expect(requested.statusCode, requested.body).toBe(200);
    expect(requested.headers['cache-control']).toBe('private, no-store');
  });

  it("admin refill: the panel's refusal is shown and recorded, the refill is closed as Rejected", async () => {
    const id = await completedOrder();
    const row = await order(id);
    let actions = await admin(`/api/order/supplier-actions/${row.provider_order_id}`);
    expect(actions.statusCode, actions.body).toBe(200);
    expect(actions.json().data).toMatchObject({ refill: { allowed: true }, cancel: { allowed: false } });

    panel.refuseRefill('Refill is not available for this order');
    const refused = await admin('/api/order/refill-at-supplier', { razorpay_order_id: row.provider_order_id });
    expect(refused.statusCode, refused.body).toBe(200);
    expect(refused.json()).toMatchObject({
      message: 'Refill is not available for this order',
      data: { accepted: false, actions: { refills: [{ state: 'Rejected', requestedBy: 'admin' }] } },
    });
    expect(await kinds(id)).toContain('refill.rejected');

    panel.refuseRefill(null);
    const accepted = await admin('/api/order/refill-at-supplier', { razorpay_order_id: row.provider_order_id });
    expect(accepted.json()).toMatchObject({ data: { accepted: true, actions: { refill: { allowed: false } } } });
    // Open refill: a second one is refused, not sent.
    const again = await admin('/api/order/refill-at-supplier', { razorpay_order_id: row.provider_order_id });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(REFILL_MESSAGES.alreadyOpen);
    actions = await admin(`/api/order/supplier-actions/${row.provider_order_id}`);
    expect(actions.json().data.refill).toEqual({ allowed: false, reason: REFILL_MESSAGES.alreadyOpen });
    // Without a token: 401.
    const anonymous = await t.app.inject({
      method: 'GET',
      url: `/api/order/supplier-actions/${row.provider_order_id}`,
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('admin cancel: refused by the panel changes nothing; accepted cancels and refunds the undelivered share', async () => {
    const id = await paidOrder();
    const row = await order(id);
    const delivered = Math.floor(tier.qty * 0.25);
    panel.setOrder(row.supplier_order_id!, { status: 'In progress', remains: String(tier.qty - delivered) });
    await t.store.fulfilment.syncStatuses();
    await drainJobs();

    const offered = await admin(`/api/order/supplier-actions/${row.provider_order_id}`);
    expect(offered.json().data.cancel).toEqual({ allowed: true, reason: null });

    panel.refuseCancel('Order cannot be canceled');
    const refused = await admin('/api/order/cancel-at-supplier', { razorpay_order_id: row.provider_order_id });
    expect(refused.statusCode, refused.body).toBe(200);
    expect(refused.json()).toMatchObject({ message: 'Order cannot be canceled', data: { accepted: false } });
    expect(await kinds(id)).toContain('supplier.cancel_refused');
    const afterRefusal = await db()
      .selectFrom('supplier_orders')
      .selectAll()
      .where('order_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(afterRefusal.cancel_requested_at).toBeNull();

    panel.refuseCancel(null);
    panel.setOrder(row.supplier_order_id!, { remains: String(tier.qty - delivered) });
    const [first, second] = await Promise.all([
      admin('/api/order/cancel-at-supplier', { razorpay_order_id: row.provider_order_id }),
      admin('/api/order/cancel-at-supplier', { razorpay_order_id: row.provider_order_id }),
    ]);
    const statuses = [first.statusCode, second.statusCode].sort();
    expect(statuses, `${first.body}\n${second.body}`).toEqual([200, 409]);
    const winner = first.statusCode === 200 ? first : second;
    expect(winner.json().data).toMatchObject({ accepted: true, actions: { cancel: { allowed: false } } });
    expect(panelCalls('cancel').filter((r) => r.form.orders === row.supplier_order_id)).toHaveLength(2); // refused + accepted

    await drainJobs();
    const cancelled = await order(id);
    expect(cancelled.order_status).toBe('Canceled');
    // The existing refund path: the undelivered share, once.
    const refunds = await db().selectFrom('refunds').selectAll().where('order_id', '=', id).execute();
    expect(refunds).toHaveLength(1);
    expect(cancelled.refunded_e4).toBe(refundDueE4(row, tier.qty - delivered));
    expect(cancelled.refunded_e4).toBeLessThan(row.amount_e4);
    expect(await kinds(id)).toEqual(expect.arrayContaining(['supplier.cancel_requested', 'payment.refunded']));
    // Final: nothing to cancel any more.
    await expect(t.store.refills.cancelByAdmin(row.provider_order_id, null)).rejects.toMatchObject({ statusCode: 409 });
  });
});
