/**
 * The audit log's before/after (decision 047), per dialect, through the real app: every order,
 * blog, message and review action an admin takes records what the thing was before and what it
 * became, in the fields the action changes, as the core function saw them in its compare-and-set
 * (not the request body). Orders go through the fake SMM panel over HTTP.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FakeRazorpay } from '../fakes/razorpay.ts';
import type { FakeSmmPanel } from '../fakes/smm-panel.ts';
import { MAIL_JOB } from '../../core/mail/send-mail-job.ts';
import { adminToken } from '../support/admin-session.ts';
import type { TestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';
import { closeSupplierApp, orderHelpers, resetPanel, startSupplierApp } from '../support/supplier-app.ts';

const keys = {
  panelKey: 'audit-panel-key',
  razorpay: { keyId: 'rzp_test_audit', keySecret: 'audit-secret', webhookSecret: 'audit-webhook' },
};
const ADMIN = { email: 'audit.owner@example.com', password: 'a long enough audit password' };
const ADMIN_ADDRESS = '10.77.0.1';

interface Summary {
  before?: unknown;
  after?: unknown;
}

describe.each(dialects)('audit before/after on %s', (dialect) => {
  let t: TestApp;
  let panel: FakeSmmPanel;
  let razorpay: FakeRazorpay;
  let token = '';

  beforeAll(async () => {
    ({ t, panel, razorpay } = await startSupplierApp(dialect, keys));
    await t.store.adminAuth.createAdmin(ADMIN.email, ADMIN.password);
    token = await adminToken(t, ADMIN, ADMIN_ADDRESS);
  });
  afterAll(() => closeSupplierApp({ t, panel, razorpay }));
  beforeEach(() => resetPanel(panel));

  const { db, order, drainJobs, paidOrder } = orderHelpers(() => ({ t, panel, razorpay }), {
    namePrefix: 'audited',
    subnet: 11,
    firstSequence: 910_000,
  });

  const admin = async (method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) => {
    const response = await t.app.inject({
      method,
      url,
      ...(payload ? { payload } : {}),
      headers: { authorization: `Bearer ${token}` },
      remoteAddress: ADMIN_ADDRESS,
    });
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
    return response;
  };

  /** The newest audit entry: the one the call just made (the hook writes it before the reply). */
  async function lastEntry() {
    const row = await db().selectFrom('admin_audit').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    return { ...row, summary: JSON.parse(row.summary ?? 'null') as Summary | null };
  }

  describe('orders', () => {
    it('reorder: the pending action and attempt number the compare-and-set replaced and wrote', async () => {
      const id = await paidOrder();
      const row = await order(id);
      await admin('POST', '/api/order/reorder', { razorpay_order_id: row.provider_order_id });
      const entry = await lastEntry();
      expect(entry).toMatchObject({ action: 'POST /order/reorder', target_id: row.provider_order_id, outcome: 202 });
      expect(entry.summary).toEqual({
        before: { pendingAction: null, actionAttempts: row.action_attempts },
        after: { pendingAction: 'reorder', actionAttempts: row.action_attempts + 1 },
      });
      await drainJobs();
    });

    it('apply-service: the same for an order the supplier refused', async () => {
      panel.failNextAdd('Link is private');
      const id = await paidOrder();
      const row = await order(id);
      expect(row).toMatchObject({ fulfilment_state: 'failed' });
      await admin('POST', '/api/order/apply-service', { razorpay_order_id: row.provider_order_id });
      expect((await lastEntry()).summary).toEqual({
        before: { pendingAction: null, actionAttempts: row.action_attempts },
        after: { pendingAction: 'apply-service', actionAttempts: row.action_attempts + 1 },
      });
      await drainJobs();
    });

    it('refill and cancel at the supplier: no open refill → the refill asked for; cancel not asked → asked', async () => {
      const live = await order(await paidOrder());
      await admin('POST', '/api/order/cancel-at-supplier', { razorpay_order_id: live.provider_order_id });
      expect((await lastEntry()).summary).toMatchObject({
        before: { cancelRequested: false },
        after: { cancelRequested: true, answer: expect.any(String) as string },
      });
      await drainJobs();

      const id = await paidOrder();
      const row = await order(id);
      panel.setOrder(row.supplier_order_id!, { status: 'Completed', remains: '0' });
      await t.store.fulfilment.syncStatuses();
      await drainJobs();
      await admin('POST', '/api/order/refill-at-supplier', { razorpay_order_id: row.provider_order_id });
      const entry = await lastEntry();
      expect(entry).toMatchObject({ target_type: 'order', target_id: row.provider_order_id });
      expect(entry.summary).toMatchObject({
        before: { openRefill: null },
        after: { openRefill: { state: expect.any(String) as string }, accepted: true },
      });
    });

    it('mail resend: failed → pending', async () => {
      const job = await db()
        .selectFrom('jobs')
        .select('id')
        .where('kind', '=', MAIL_JOB)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      await db().updateTable('jobs').set({ status: 'failed' }).where('id', '=', job.id).execute();
      await admin('POST', `/api/admin/mail/${job.id}/resend`);
      expect((await lastEntry()).summary).toEqual({ before: { status: 'failed' }, after: { status: 'pending' } });
    });
  });

  describe('blog', () => {
    it('create, edit (only the changed fields, long texts cut) and delete', async () => {
      const created = await admin('POST', '/api/blog', {
        title: 'Audited post',
        category: 'Growth',
        description: '<p>First body</p>',
      });
      const post = created.json<{ data: { id: number; slug: string } }>().data;
      const written = await lastEntry();
      expect(written).toMatchObject({ target_type: 'blog', target_id: String(post.id) });
      expect(written.summary).toMatchObject({
        before: null,
        after: { title: 'Audited post', slug: post.slug, category: 'Growth' },
      });

      const longBody = `<p>${'word '.repeat(100)}</p>`;
      await admin('PATCH', `/api/blog/${post.id}`, { title: 'Audited post, renamed', description: longBody });
      const edited = (await lastEntry()).summary!;
      expect(Object.keys(edited.before as object).sort()).toEqual(['description', 'shortDesc', 'title']);
      expect(edited.before).toMatchObject({ title: 'Audited post', description: '<p>First body</p>' });
      expect(edited.after).toMatchObject({ title: 'Audited post, renamed' });
      // Cut by redactSecrets: the log is not a copy of the blog.
      expect((edited.after as { description: string }).description.length).toBeLessThanOrEqual(201);

      await admin('DELETE', `/api/blog/${post.id}`);
      expect((await lastEntry()).summary).toEqual({
        before: expect.objectContaining({ title: 'Audited post, renamed', slug: post.slug }) as object,
        after: null,
      });
    });
  });

  describe('messages and reviews', () => {
    async function newMessage(): Promise<number> {
      const { id } = await db()
        .insertInto('contact_messages')
        .values({
          email: 'customer@example.com',
          order_id: null,
          message: 'Where is my order?',
          status: 'new',
          created_at: new Date().toISOString(),
          handled_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(id);
    }

    it('handled, reopen and reply: the status (and read mark) before and after', async () => {
      const id = await newMessage();
      await admin('POST', `/api/admin/messages/${id}/handled`);
      expect((await lastEntry()).summary).toMatchObject({
        before: { status: 'new' },
        after: { status: 'handled', handledAt: expect.any(String) as string },
      });
      // Again: nothing moves, and the entry says so.
      await admin('POST', `/api/admin/messages/${id}/handled`);
      expect((await lastEntry()).summary).toMatchObject({
        before: { status: 'handled' },
        after: { status: 'handled' },
      });

      await admin('POST', `/api/admin/messages/${id}/reopen`);
      expect((await lastEntry()).summary).toEqual({
        before: { status: 'handled' },
        after: { status: 'new', handledAt: null },
      });

      const unread = await newMessage();
      await admin('POST', `/api/admin/messages/${unread}/replies`, { body: 'It is on its way.' });
      expect((await lastEntry()).summary).toEqual({
        before: { status: 'new', readAt: null },
        after: { status: 'handled', readAt: expect.any(String) as string, reply: 'It is on its way.' },
      });
    });

    it('approve and reject: the state the review moved from and to', async () => {
      const orderId = await paidOrder();
      const { id } = await db()
        .insertInto('reviews')
        .values({
          order_id: orderId,
          service_slug: 'instagram-followers',
          rating: 5,
          body: 'Fast and real.',
          display_name: 'Asha',
          created_at: new Date().toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await admin('POST', `/api/admin/reviews/${id}/approve`);
      expect((await lastEntry()).summary).toEqual({ before: { state: 'pending' }, after: { state: 'approved' } });
      await admin('POST', `/api/admin/reviews/${id}/reject`);
      expect((await lastEntry()).summary).toEqual({ before: { state: 'approved' }, after: { state: 'rejected' } });
      await admin('POST', `/api/admin/reviews/${id}/reject`);
      expect((await lastEntry()).summary).toEqual({ before: { state: 'rejected' }, after: { state: 'rejected' } });
    });
  });
});
