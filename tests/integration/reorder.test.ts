/**
 * Admin reorder and apply-service through the job queue (decision 012), per dialect, against the
 * fake supplier panel over HTTP and a fake Razorpay for refunds: a live supplier order is
 * cancelled before anything is sent again, never two live supplier orders for one order, a
 * refused cancel sends and refunds nothing, a refund covers only the undelivered share, racing
 * clicks make one job, and a worker that dies during `add` is never followed by a second `add`.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runReorder } from '../../core/fulfilment/admin-actions.ts';
import { singlePanel } from '../support/single-panel.ts';
import { APPLY_SERVICE_JOB, REORDER_JOB } from '../../core/fulfilment/jobs.ts';
import { createSmmPanelClient } from '../../core/fulfilment/smm-panel-client.ts';
import { claimJobs } from '../../core/jobs/queue.ts';
import { refundDueE4 } from '../../core/orders/progress.ts';
import { ORDER_ACTION_REFUSALS } from '../../core/orders/status.ts';
import type { FakeRazorpay } from '../fakes/razorpay.ts';
import type { FakeSmmPanel } from '../fakes/smm-panel.ts';
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
  panelKey: 'panel-key',
  razorpay: { keyId: 'rzp_test_reorder', keySecret: 'reorder-secret', webhookSecret: 'reorder-webhook' },
};

describe.each(dialects)('admin reorder and apply-service on %s', (dialect) => {
  let t: TestApp;
  let panel: FakeSmmPanel;
  let razorpay: FakeRazorpay;

  beforeAll(async () => {
    ({ t, panel, razorpay } = await startSupplierApp(dialect, keys));
  });
  afterAll(() => closeSupplierApp({ t, panel, razorpay }));
  beforeEach(() => resetPanel(panel));

  const helpers = orderHelpers(() => ({ t, panel, razorpay }), {
    namePrefix: 'reorder',
    subnet: 7,
    firstSequence: 500_000,
  });
  const { db, order } = helpers;
  const supplierOrders = (id: number) =>
    db().selectFrom('supplier_orders').selectAll().where('order_id', '=', id).orderBy('id').execute();
  const timeline = async (id: number) =>
    (await db().selectFrom('order_events').selectAll().where('order_id', '=', id).orderBy('id').execute()).map((e) => ({
      kind: e.kind,
      detail: JSON.parse(e.detail_json) as Record<string, unknown>,
    }));
  const requestsFor = (action: string, supplierIds: string[]) =>
    panel.requests.filter(
      (r) => r.form.action === action && supplierIds.some((id) => (r.form.orders ?? r.form.order) === id),
    );
  const addsFor = async (id: number) => {
    const row = await order(id);
    return panel.requests.filter((r) => r.form.action === 'add' && r.form.link === row.target);
  };
  const refundsOf = (id: number) => db().selectFrom('refunds').selectAll().where('order_id', '=', id).execute();

  /** The never-two-live invariant, checked after every step. */
  async function expectAtMostOneLive(id: number) {
    const live = (await supplierOrders(id)).filter((s) => s.final === 0);
    expect(live.length).toBeLessThanOrEqual(1);
  }

  /** Runs every due job now; with an order, checks the never-two-live invariant after each round. */
  const drainJobs = (orderId?: number) =>
    helpers.drainJobs(orderId === undefined ? undefined : () => expectAtMostOneLive(orderId));

  /** A paid order through the real API, sent to the panel; returns its row id. */
  const paidOrder = () => helpers.paidOrder(expectAtMostOneLive);

  /** A paid order the supplier is delivering: `delivered` of tier.qty so far. */
  async function inProgressOrder(delivered: number) {
    const id = await paidOrder();
    const row = await order(id);
    panel.setOrder(row.supplier_order_id!, { status: 'In progress', remains: String(tier.qty - delivered) });
    await t.store.fulfilment.syncStatuses();
    await drainJobs(id);
    expect(await order(id)).toMatchObject({ order_status: 'In Progress', remains: tier.qty - delivered });
    return { id, row: await order(id), first: row.supplier_order_id! };
  }

  it('cancels a live supplier order first, then sends only the undelivered rest; a later Canceled refunds only that share', async () => {
    const delivered = Math.floor(tier.qty * 0.4);
    const rest = tier.qty - delivered;
    const { id, row, first } = await inProgressOrder(delivered);
    const accepted = await t.store.ordersConsole.reorder(row.provider_order_id, { adminId: 7 });
    expect(accepted).toEqual({ state: 'pending', action: 'reorder', attempt: 1 });
    expect(await order(id)).toMatchObject({ pending_action: 'reorder' });
    // The request only queued the job: nothing reached the panel yet.
    expect(requestsFor('cancel', [first])).toHaveLength(0);
    // Pending: neither action is offered on the row.
    const listed = await t.store.ordersConsole.list({ keyword: row.provider_order_id });
    expect(listed.rows[0]).toMatchObject({ pendingAction: 'reorder', canReorder: false, canApplyService: false });

    await drainJobs(id);
    expect(requestsFor('cancel', [first])).toHaveLength(1);
    const adds = await addsFor(id);
    expect(adds).toHaveLength(2);
    expect(adds[1].form.quantity).toBe(String(rest));
    // The cancel was confirmed before the new order was sent.
    expect(panel.requests.indexOf(requestsFor('cancel', [first])[0])).toBeLessThan(panel.requests.indexOf(adds[1]));

    const [cancelled, second] = await supplierOrders(id);
    expect(cancelled).toMatchObject({ supplier_order_id: first, status: 'Canceled', final: 1, remains: rest });
    expect(second).toMatchObject({ quantity: rest, status: 'Processing', final: 0 });
    const after = await order(id);
    expect(after).toMatchObject({
      pending_action: null,
      supplier_order_id: second.supplier_order_id,
      fulfilment_state: 'submitted',
      order_status: 'Processing',
      remains: rest,
      refunded_e4: 0,
    });
    const kinds = (await timeline(id)).map((e) => e.kind);
    expect(kinds.slice(kinds.indexOf('admin.reorder'))).toEqual([
      'admin.reorder',
      'supplier.cancel_requested',
      'supplier.final',
      'supplier.submitted',
      'admin.action_done',
    ]);
    // Every supplier order id is on the timeline.
    const submitted = (await timeline(id)).filter((e) => e.kind === 'supplier.submitted');
    expect(submitted.map((e) => e.detail.supplierOrderId)).toEqual([first, second.supplier_order_id]);
    expect(submitted[1].detail.previousSupplierOrderIds).toEqual([first]);
    expect(await refundsOf(id)).toEqual([]);

    // The second supplier order is canceled without delivering anything: only the first's share arrived.
    panel.setOrder(second.supplier_order_id, { status: 'Canceled', remains: String(rest) });
    await t.store.fulfilment.syncStatuses();
    await drainJobs(id);
    const finished = await order(id);
    expect(finished).toMatchObject({ order_status: 'Partial', remains: rest });
    const expectedE4 = Math.floor((Math.round(row.amount_e4 / 100) * rest) / tier.qty) * 100;
    expect(expectedE4).toBe(refundDueE4({ ...row, refunded_e4: 0 }, rest));
    expect(expectedE4).toBeLessThan(row.amount_e4);
    const refunds = await refundsOf(id);
    expect(refunds).toHaveLength(1);
    expect(refunds[0].amount_e4).toBe(expectedE4);
    expect(razorpay.refunds.filter((r) => r.payment_id === row.payment_id)).toHaveLength(1);
    expect(finished.refunded_e4).toBe(expectedE4);
    // Finished: no more reorders.
    await expect(t.store.ordersConsole.reorder(row.provider_order_id)).rejects.toMatchObject({
      statusCode: 409,
      message: ORDER_ACTION_REFUSALS.partial,
    });
  });

  it('refuses the reorder when the panel refuses to cancel: no second order and no refund, and the first still counts', async () => {
    const { id, row, first } = await inProgressOrder(300);
    panel.refuseCancel('Order is in progress and cannot be canceled');
    await t.store.ordersConsole.reorder(row.provider_order_id, { adminId: 7 });
    await drainJobs(id);

    expect(await addsFor(id)).toHaveLength(1);
    expect(await supplierOrders(id)).toMatchObject([{ supplier_order_id: first, final: 0, cancel_requested_at: null }]);
    const after = await order(id);
    expect(after).toMatchObject({ pending_action: null, order_status: 'In Progress', supplier_order_id: first });
    const entries = await timeline(id);
    expect(entries.find((e) => e.kind === 'supplier.cancel_refused')?.detail).toMatchObject({
      supplierOrderId: first,
      reason: 'Order is in progress and cannot be canceled',
    });
    expect(entries.at(-1)).toMatchObject({
      kind: 'admin.action_failed',
      detail: { action: 'reorder', reason: expect.stringContaining('cannot be canceled') },
    });
    expect(await refundsOf(id)).toEqual([]);

    // The first order goes on and delivers everything: Completed, nothing refunded.
    panel.setOrder(first, { status: 'Completed', remains: '0' });
    await t.store.fulfilment.syncStatuses();
    await drainJobs(id);
    expect(await order(id)).toMatchObject({ order_status: 'Completed', remains: 0, refunded_e4: 0 });
    expect(await refundsOf(id)).toEqual([]);
  });

  it('waits for the supplier to confirm the cancel: the sync resumes the reorder', async () => {
    const { id, row, first } = await inProgressOrder(100);
    panel.cancelAtOnce(false);
    await t.store.ordersConsole.reorder(row.provider_order_id);
    await drainJobs(id);
    // Cancel accepted, but the panel still reports the order In progress: nothing is sent yet.
    expect(requestsFor('cancel', [first])).toHaveLength(1);
    expect(await addsFor(id)).toHaveLength(1);
    expect(await supplierOrders(id)).toMatchObject([{ final: 0, cancel_requested_at: expect.any(String) }]);
    expect(await order(id)).toMatchObject({ pending_action: 'reorder', order_status: 'In Progress' });
    await t.store.fulfilment.syncStatuses();
    await drainJobs(id);
    expect(await addsFor(id)).toHaveLength(1);
    expect(requestsFor('cancel', [first])).toHaveLength(1); // asked once, not on every run

    // The panel stops a little later than asked: Canceled with less undelivered than at the request.
    const stopped = tier.qty - 150;
    panel.setOrder(first, { status: 'Canceled', remains: String(stopped) });
    await t.store.fulfilment.syncStatuses();
    await drainJobs(id);
    const adds = await addsFor(id);
    expect(adds).toHaveLength(2);
    expect(adds[1].form.quantity).toBe(String(stopped));
    expect(await order(id)).toMatchObject({ pending_action: null, order_status: 'Processing', remains: stopped });
    expect(await refundsOf(id)).toEqual([]);
    panel.cancelAtOnce(true);
  });

  it('makes one job of racing clicks, and answers every click with the pending state', async () => {
    const { id, row } = await inProgressOrder(0);
    const replies = await Promise.all(
      Array.from({ length: 6 }, () => t.store.ordersConsole.reorder(row.provider_order_id, { adminId: 7 })),
    );
    for (const reply of replies) expect(reply).toEqual({ state: 'pending', action: 'reorder', attempt: 1 });
    const jobs = await db().selectFrom('jobs').select('dedupe_key').where('kind', '=', REORDER_JOB.kind).execute();
    expect(jobs.filter((j) => j.dedupe_key?.startsWith(`admin.reorder:${id}:`))).toHaveLength(1);
    expect((await timeline(id)).filter((e) => e.kind === 'admin.reorder')).toHaveLength(1);
    // Apply-service meanwhile is refused: an action is running.
    await expect(t.store.ordersConsole.applyService(row.provider_order_id)).rejects.toMatchObject({
      statusCode: 409,
      message: ORDER_ACTION_REFUSALS.pending,
    });
    await drainJobs(id);
    expect(await addsFor(id)).toHaveLength(2);
    expect((await addsFor(id))[1].form.quantity).toBe(String(tier.qty));
  });

  it('never sends twice when a worker dies during add: the next run flags the order instead', async () => {
    const { id, row, first } = await inProgressOrder(250);
    await t.store.ordersConsole.reorder(row.provider_order_id, { adminId: 7 });
    // A worker whose `add` reaches the panel and then never returns (the process died there).
    const client = createSmmPanelClient({ url: panel.url, key: 'panel-key' });
    const dying = {
      db: db(),
      gateways: t.store.gateways,
      panels: singlePanel({ ...client, add: async (o) => client.add(o).then(() => new Promise<never>(() => {})) }),
      now: () => new Date(),
    };
    const [job] = await claimJobs(db(), { workerId: 'dying', kinds: [REORDER_JOB.kind], limit: 1, leaseMs: 50 });
    expect(job).toBeDefined();
    void runReorder(dying, JSON.parse(job.payload_json) as { orderId: number; attempt: number; adminId: number }, job);
    await expect.poll(async () => (await addsFor(id)).length, { timeout: 5000 }).toBe(2);
    expect(await order(id)).toMatchObject({ fulfilment_state: 'submitting' });

    // Its lease expires; a live worker takes the job over.
    await expect
      .poll(async () => {
        await drainJobs(id);
        return (await order(id)).pending_action;
      })
      .toBeNull();
    expect(await addsFor(id)).toHaveLength(2);
    const after = await order(id);
    expect(after).toMatchObject({ fulfilment_state: 'needs_review', needs_review: 1 });
    expect((await timeline(id)).at(-1)).toMatchObject({ kind: 'admin.action_failed' });
    // The add may have created an order: nothing is refunded while that is unknown.
    expect(await supplierOrders(id)).toMatchObject([{ supplier_order_id: first, final: 1 }]);
    expect(after.order_status).toBe('In Progress');
    await drainJobs(id);
    expect(await refundsOf(id)).toEqual([]);
  });

  it('ends an action whose worker died on its last attempt, so the row is not pending forever', async () => {
    panel.failNextAdd('Link is private');
    const id = await paidOrder();
    const row = await order(id);
    await t.store.ordersConsole.applyService(row.provider_order_id, { adminId: 3 });
    await db().updateTable('jobs').set({ max_attempts: 1 }).where('kind', '=', APPLY_SERVICE_JOB.kind).execute();
    const claimed = await claimJobs(db(), {
      workerId: 'dies-at-once',
      kinds: [APPLY_SERVICE_JOB.kind],
      limit: 1,
      leaseMs: 1000,
    });
    expect(claimed).toHaveLength(1);
    // The lease runs out with the attempt used up: the queue marks the job failed, no handler runs.
    const later = new Date(Date.now() + 5000);
    expect(
      await claimJobs(db(), { workerId: 'next', kinds: [APPLY_SERVICE_JOB.kind], limit: 1, leaseMs: 1000, now: later }),
    ).toEqual([]);
    expect((await order(id)).pending_action).toBe('apply-service');

    expect(await t.store.fulfilment.endAbandonedActions()).toBe(1);
    expect(await order(id)).toMatchObject({ pending_action: null, fulfilment_state: 'failed' });
    expect((await timeline(id)).at(-1)).toMatchObject({
      kind: 'admin.action_failed',
      detail: { action: 'apply-service' },
    });
    expect(await addsFor(id)).toHaveLength(1);
    // Settled: the admin may try again.
    expect(await t.store.fulfilment.endAbandonedActions()).toBe(0);
    const { order: settled } = await t.store.ordersConsole.detail(row.provider_order_id);
    expect(settled).toMatchObject({ pendingAction: null, canApplyService: true });
  });

  it('applies the service to a paid order the supplier refused, through the queue', async () => {
    panel.failNextAdd('Link is private');
    const id = await paidOrder();
    expect(await order(id)).toMatchObject({ fulfilment_state: 'failed', supplier_order_id: null });
    const row = await order(id);
    expect(await t.store.ordersConsole.applyService(row.provider_order_id, { adminId: 3 })).toEqual({
      state: 'pending',
      action: 'apply-service',
      attempt: 1,
    });
    expect(await addsFor(id)).toHaveLength(1);
    await drainJobs(id);
    expect(await addsFor(id)).toHaveLength(2);
    expect(await order(id)).toMatchObject({
      fulfilment_state: 'submitted',
      order_status: 'Processing',
      pending_action: null,
      action_attempts: 1,
    });
    expect((await timeline(id)).map((e) => e.kind).slice(-4)).toEqual([
      'supplier.error',
      'admin.apply_service',
      'supplier.submitted',
      'admin.action_done',
    ]);
    await expect(t.store.ordersConsole.applyService(row.provider_order_id)).rejects.toMatchObject({
      statusCode: 409,
      message: ORDER_ACTION_REFUSALS.alreadyAtSupplier,
    });
  });
});
