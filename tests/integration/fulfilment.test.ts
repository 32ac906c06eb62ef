/**
 * Fulfilment through a supplier panel, per dialect, against a fake panel speaking API v2 over
 * HTTP and a fake Razorpay (for refunds): submit once, never resend after a crash, store
 * supplier errors, sync statuses in batches, e-mail the customer, refund once.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { refundDueE4 } from '../../core/orders/progress.ts';
import { catalogueSeed } from '../../core/catalogue/seed/catalogue-seed.ts';
import { type FakeRazorpay, startFakeRazorpay } from '../fakes/razorpay.ts';
import { type FakeSmmPanel, followersService, startFakeSmmPanel } from '../fakes/smm-panel.ts';
import { type SmtpSink, startSmtpSink } from '../fakes/smtp.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';
import { placePaidOrder } from '../support/paid-order.ts';

const keys = { keyId: 'rzp_test_fulfil', keySecret: 'fulfil-secret', webhookSecret: 'fulfil-webhook' };
const followers = catalogueSeed.groups[0].services[0];
const plan = followers.plans[0];
const tier = plan.tiers[2];

let sequence = 300_000;

describe.each(dialects)('fulfilment on %s', (dialect) => {
  let t: TestApp;
  let panel: FakeSmmPanel;
  let razorpay: FakeRazorpay;
  let smtp: SmtpSink;

  beforeAll(async () => {
    panel = await startFakeSmmPanel({ key: 'panel-key' });
    panel.services.push(followersService(tier.supplierServiceId));
    razorpay = await startFakeRazorpay(keys);
    smtp = await startSmtpSink();
    t = await startTestApp(dialect, {
      env: {
        SMM_PANEL_URL: panel.url,
        SMM_PANEL_KEY: 'panel-key',
        RAZORPAY_KEY_ID: keys.keyId,
        RAZORPAY_KEY_SECRET: keys.keySecret,
        RAZORPAY_API_URL: razorpay.url,
        SMTP_URL: smtp.url,
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([panel?.close(), razorpay?.close(), smtp?.close()]);
  });
  beforeEach(() => panel.setMode('normal'));

  const db = () => t.database.db;
  const addRequests = () => panel.requests.filter((r) => r.form.action === 'add');
  const order = (id: number) => db().selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const eventKinds = async (id: number) =>
    (await db().selectFrom('order_events').select('kind').where('order_id', '=', id).orderBy('id').execute()).map(
      (e) => e.kind,
    );

  /** A paid order through the real API; returns its row id. */
  async function paidOrder(name = `buyer.${sequence}`): Promise<number> {
    sequence += 1;
    return placePaidOrder(t, razorpay, {
      sequence,
      name,
      type: plan.type,
      slug: followers.slug,
      qty: tier.qty,
      subnet: 9,
    });
  }

  /** Runs every due job now (mail, fulfilment, refunds). */
  async function drainJobs() {
    await db()
      .updateTable('jobs')
      .set({ run_at: new Date(0).toISOString() })
      .where('status', '=', 'pending')
      .execute();
    while ((await t.store.worker.runOnce()) > 0) {
      // keep going until nothing is due
    }
  }

  it('submits a paid order to the supplier exactly once', async () => {
    const id = await paidOrder();
    const before = addRequests().length;
    await drainJobs();
    await drainJobs();
    expect(await t.store.fulfilment.submit(id)).toBe('skipped');
    const sent = addRequests().slice(before);
    expect(sent).toHaveLength(1);
    const row = await order(id);
    expect(sent[0].form).toMatchObject({
      key: 'panel-key',
      service: tier.supplierServiceId,
      link: row.target,
      quantity: String(tier.qty),
    });
    expect(row).toMatchObject({
      fulfilment_state: 'submitted',
      order_status: 'Processing',
      supplier_order_id: expect.stringMatching(/^\d+$/),
    });
    expect(await eventKinds(id)).toEqual(['order.created', 'payment.paid', 'supplier.submitted']);
  });

  it('never resends after a crash between the supplier call and the record: it flags the order', async () => {
    const id = await paidOrder();
    // The state a process leaves behind when it dies after `add` went out and before its answer was stored.
    await db().updateTable('orders').set({ fulfilment_state: 'submitting' }).where('id', '=', id).execute();
    const before = addRequests().length;
    await drainJobs();
    expect(addRequests().length).toBe(before);
    const row = await order(id);
    expect(row).toMatchObject({ fulfilment_state: 'needs_review', needs_review: 1 });
    expect(row.review_reason).toMatch(/stopped between sending this order to the supplier and recording/);
  });

  it('treats an unanswered add as ambiguous: flagged for review, not retried', async () => {
    const id = await paidOrder();
    panel.setMode('down');
    const before = addRequests().length;
    await drainJobs();
    panel.setMode('normal');
    await drainJobs();
    expect(addRequests().length - before).toBe(1);
    expect((await order(id)).fulfilment_state).toBe('needs_review');
  });

  it('stores a supplier refusal as the error message, retrying only when it can help', async () => {
    const badLink = await paidOrder();
    panel.failNextAdd('Incorrect link');
    await drainJobs();
    expect(await order(badLink)).toMatchObject({
      fulfilment_state: 'failed',
      error_message: 'Incorrect link',
      supplier_order_id: null,
    });
    await drainJobs();
    expect((await order(badLink)).fulfilment_state).toBe('failed');

    const lowBalance = await paidOrder();
    panel.failNextAdd('Not enough funds on balance');
    await drainJobs(); // the first attempt is refused: the job goes back to pending with a backoff
    expect(await order(lowBalance)).toMatchObject({
      fulfilment_state: 'retry',
      error_message: 'Not enough funds on balance',
    });
    const job = await db()
      .selectFrom('jobs')
      .selectAll()
      .where('dedupe_key', '=', `fulfil:${lowBalance}`)
      .executeTakeFirstOrThrow();
    expect(job).toMatchObject({ status: 'pending', attempts: 1 });
    expect(Date.parse(job.run_at)).toBeGreaterThan(Date.now());
    await drainJobs(); // the owner topped up; the retry goes through
    const row = await order(lowBalance);
    expect(row.fulfilment_state).toBe('submitted');
    expect(row.fulfilment_attempts).toBe(2);
    expect(await eventKinds(lowBalance)).toContain('supplier.error');
  });

  it('syncs statuses in one multi-status call, case-insensitively, and stores start count, remains and charge', async () => {
    const a = await paidOrder();
    const b = await paidOrder();
    await drainJobs();
    const rowA = await order(a);
    const rowB = await order(b);
    panel.setOrder(rowA.supplier_order_id!, { status: 'Pending' });
    await t.store.fulfilment.syncStatuses();
    expect((await order(a)).order_status).toBe('Processing'); // the supplier's Pending is not a step back
    panel.setOrder(rowA.supplier_order_id!, {
      status: 'in progress',
      start_count: '1200',
      remains: '150',
      charge: '0.2782',
    });
    panel.orders.delete(rowB.supplier_order_id!); // the panel no longer knows it: mixed good and bad ids
    const statusCallsBefore = panel.requests.filter((r) => r.form.action === 'status').length;
    await t.store.fulfilment.syncStatuses();
    const statusCalls = panel.requests.filter((r) => r.form.action === 'status').slice(statusCallsBefore);
    expect(statusCalls).toHaveLength(1);
    expect(statusCalls[0].form.orders?.split(',')).toEqual(
      expect.arrayContaining([rowA.supplier_order_id, rowB.supplier_order_id]),
    );
    expect(await order(a)).toMatchObject({
      order_status: 'In Progress',
      start_count: 1200,
      remains: 150,
      supplier_charge_e4: 2782,
    });
    expect((await order(b)).error_message).toBe('Supplier: Incorrect order ID');
    expect(await eventKinds(a)).toContain('status.changed');

    panel.setOrder(rowA.supplier_order_id!, { status: 'Completed', remains: '0' });
    await t.store.fulfilment.syncStatuses();
    await t.store.fulfilment.syncStatuses();
    expect((await order(a)).order_status).toBe('Completed');
    await drainJobs();
    const mails = smtp.messages.filter((m) => m.to.includes(rowA.email));
    expect(mails.filter((m) => /is on its way/.test(m.subject))).toHaveLength(1);
    expect(mails.filter((m) => /is complete/.test(m.subject))).toHaveLength(1);
  });

  it('refunds a partial delivery once, however often the status is seen', async () => {
    const id = await paidOrder();
    await drainJobs();
    const row = await order(id);
    const remains = Math.floor(tier.qty * 0.4);
    panel.setOrder(row.supplier_order_id!, { status: 'Partial', remains: String(remains) });
    for (let i = 0; i < 3; i += 1) await t.store.fulfilment.syncStatuses();
    await drainJobs();
    await t.store.fulfilment.refund(id); // a repeated job run (e.g. after a crash) changes nothing
    await drainJobs();

    const expectedE4 = refundDueE4(row, remains);
    expect(expectedE4).toBe(Math.floor((Math.round(row.amount_e4 / 100) * remains) / tier.qty) * 100);
    const refunds = await db().selectFrom('refunds').selectAll().where('order_id', '=', id).execute();
    expect(refunds).toHaveLength(1);
    expect(refunds[0].amount_e4).toBe(expectedE4);
    expect(razorpay.refunds.filter((r) => r.payment_id === row.payment_id)).toHaveLength(1);
    expect(razorpay.refunds.find((r) => r.payment_id === row.payment_id)?.amount).toBe(expectedE4 / 100);
    expect((await order(id)).refunded_e4).toBe(expectedE4);
    const mail = smtp.messages.find((m) => m.to.includes(row.email) && /partly delivered/.test(m.subject));
    expect(mail?.text).toContain('Refund');
  });

  it('refunds a canceled order in full, through the provider’s idempotency key', async () => {
    const id = await paidOrder();
    await drainJobs();
    const row = await order(id);
    panel.setOrder(row.supplier_order_id!, { status: 'Cancelled', remains: String(tier.qty) });
    await t.store.fulfilment.syncStatuses();
    await Promise.all([t.store.fulfilment.refund(id), t.store.fulfilment.refund(id)]);
    await drainJobs();
    const atProvider = razorpay.refunds.filter((r) => r.payment_id === row.payment_id);
    expect(atProvider).toHaveLength(1);
    expect(atProvider[0].amount).toBe(Math.round(row.amount_e4 / 100));
    expect(await db().selectFrom('refunds').select('id').where('order_id', '=', id).execute()).toHaveLength(1);
    expect((await order(id)).order_status).toBe('Canceled');
  });
});
