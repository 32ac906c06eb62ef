/**
 * The admin inbox (decision 026) through the real app, on each dialect, with a real admin login
 * and a real SMTP sink: the list (keyword over e-mail, order id and text, case-blind and with
 * LIKE's wildcards taken literally; status filter; pages), the unread count, opening (marks read
 * once), the linked order's facts and timeline only for a really linked order, mark handled as a
 * compare-and-set under a race, replies stored and e-mailed (escaped), validation messages, and
 * the 401 on every route.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  INBOX_MESSAGES,
  type InboxListReply,
  type InboxMessage,
  type InboxReplyCreated,
  type InboxTransition,
  MAX_REPLY_LENGTH,
} from '../../core/contact/inbox-contracts.ts';
import { purgeExpiredData } from '../../core/retention/purge.ts';
import { catalogueSeed } from '../../core/catalogue/seed/catalogue-seed.ts';
import { BAD_TOKEN_MESSAGE, NO_TOKEN_MESSAGE } from '../../server/api/admin-guard.ts';
import { type SmtpSink, startSmtpSink } from '../fakes/smtp.ts';
import { adminToken } from '../support/admin-session.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';

const followers = catalogueSeed.groups[0].services[0];
const standard = followers.plans[0];
const tier = standard.tiers[0];

const SUPPORT = 'inbox.desk@shop.example';
const ADMIN = { email: 'inbox.admin@example.com', password: 'a long enough admin password' };

describe.each(dialects)('admin inbox on %s', (dialect) => {
  let t: TestApp;
  let smtp: SmtpSink;
  let token = '';
  let adminId = 0;
  let clients = 0;
  let orderSequence = 700_000;
  let mailboxes = 0;

  const nextAddress = () => `10.66.${Math.floor(++clients / 250)}.${clients % 250}`;
  const freshEmail = (label: string) => `${label}.${(mailboxes += 1)}@example.com`;
  const auth = () => ({ authorization: `Bearer ${token}` });

  beforeAll(async () => {
    smtp = await startSmtpSink();
    t = await startTestApp(dialect, {
      env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://shop.example', SUPPORT_EMAIL: SUPPORT },
    });
    adminId = (await t.store.adminAuth.createAdmin(ADMIN.email, ADMIN.password)).id;
    token = await adminToken(t, ADMIN, '10.66.250.1');
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  /** A message through the public form, as a customer sends it; returns its id. */
  async function sendMessage(payload: { email: string; message: string; orderId?: string }): Promise<number> {
    const response = await t.app.inject({ method: 'POST', url: '/api/contact', payload, remoteAddress: nextAddress() });
    expect(response.statusCode, response.body).toBe(200);
    const row = await t.database.db
      .selectFrom('contact_messages')
      .select('id')
      .where('email', '=', payload.email)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async function placeOrder(email: string): Promise<string> {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/order',
      remoteAddress: nextAddress(),
      payload: {
        type: standard.type,
        slug: followers.slug,
        qty: tier.qty,
        name: 'inbox.buyer',
        email,
        order_id: String((orderSequence += 1)),
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    return created.json().data.razorpay_order_id as string;
  }

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: auth() });
  const post = (url: string, payload?: object) =>
    t.app.inject({ method: 'POST', url, headers: auth(), ...(payload ? { payload } : {}) });
  const list = async (query: string) => {
    const response = await get(`/api/admin/messages?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<InboxListReply>();
  };
  const open = async (id: number) => {
    const response = await get(`/api/admin/messages/${id}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: InboxMessage }>().data;
  };
  const unread = async () => {
    const response = await get('/api/admin/messages/unread-count');
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: { count: number } }>().data.count;
  };

  it('answers 401 without a token, and with a forged one, on every route', async () => {
    const id = await sendMessage({ email: freshEmail('guard'), message: 'Guarded' });
    const routes = [
      { method: 'GET' as const, url: '/api/admin/messages?keyword=x&status=new' },
      { method: 'GET' as const, url: '/api/admin/messages?status=bogus' },
      { method: 'GET' as const, url: '/api/admin/messages/unread-count' },
      { method: 'GET' as const, url: `/api/admin/messages/${id}` },
      { method: 'GET' as const, url: '/api/admin/messages/not-a-number' },
      { method: 'POST' as const, url: `/api/admin/messages/${id}/handled` },
      { method: 'POST' as const, url: `/api/admin/messages/${id}/reopen` },
      { method: 'POST' as const, url: `/api/admin/messages/${id}/replies`, payload: { body: 'Hello' } },
      { method: 'POST' as const, url: `/api/admin/messages/${id}/replies`, payload: {} },
    ];
    for (const route of routes) {
      const anonymous = await t.app.inject(route);
      expect(anonymous.statusCode, route.url).toBe(401);
      expect(anonymous.json()).toEqual({ isSuccessful: false, message: NO_TOKEN_MESSAGE });
      const forged = await t.app.inject({ ...route, headers: { authorization: 'Bearer not-a-real-token' } });
      expect(forged.statusCode, route.url).toBe(401);
      expect(forged.json()).toEqual({ isSuccessful: false, message: BAD_TOKEN_MESSAGE });
    }
    // Nothing was read, changed or sent.
    const row = await t.database.db
      .selectFrom('contact_messages')
      .select(['status', 'read_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'new', read_at: null });
    const replies = await t.database.db
      .selectFrom('contact_replies')
      .selectAll()
      .where('message_id', '=', id)
      .execute();
    expect(replies).toEqual([]);
  });

  it('refuses bad input with clear messages, and answers 404 for a message that does not exist', async () => {
    const id = await sendMessage({ email: freshEmail('validation'), message: 'Validate me' });
    const refusals: [Promise<{ statusCode: number; json: () => unknown }>, string, string][] = [
      [get('/api/admin/messages?status=bogus'), 'status', INBOX_MESSAGES.badStatus],
      [get('/api/admin/messages?page=0'), 'page', INBOX_MESSAGES.badPage],
      [get('/api/admin/messages?size=101'), 'size', INBOX_MESSAGES.badSize],
      [get(`/api/admin/messages?keyword=${'k'.repeat(201)}`), 'keyword', INBOX_MESSAGES.badKeyword],
      [get('/api/admin/messages/abc'), 'id', INBOX_MESSAGES.badId],
      [post('/api/admin/messages/0/handled'), 'id', INBOX_MESSAGES.badId],
      [post(`/api/admin/messages/${id}/replies`, {}), 'body', INBOX_MESSAGES.replyRequired],
      [post(`/api/admin/messages/${id}/replies`, { body: ' \n\t ' }), 'body', INBOX_MESSAGES.replyRequired],
      [
        post(`/api/admin/messages/${id}/replies`, { body: 'x'.repeat(MAX_REPLY_LENGTH + 1) }),
        'body',
        INBOX_MESSAGES.replyTooLong,
      ],
      [
        post(`/api/admin/messages/${id}/replies`, { body: 'Hi', markHandled: 'yes' }),
        'markHandled',
        INBOX_MESSAGES.badMarkHandled,
      ],
    ];
    for (const [pending, field, message] of refusals) {
      const response = await pending;
      expect(response.statusCode, message).toBe(400);
      expect(response.json()).toEqual({ isSuccessful: false, message, errors: [{ field, message }] });
    }
    for (const response of [
      await get('/api/admin/messages/99999999'),
      await post('/api/admin/messages/99999999/handled'),
      await post('/api/admin/messages/99999999/reopen'),
      await post('/api/admin/messages/99999999/replies', { body: 'Anyone there?' }),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ isSuccessful: false, message: INBOX_MESSAGES.notFound });
    }
    // A refused reply stored nothing and queued no e-mail.
    expect(
      await t.database.db.selectFrom('contact_replies').selectAll().where('message_id', '=', id).execute(),
    ).toEqual([]);
  });

  it('searches e-mail, order id and text case-blind, takes % and _ literally, and filters by status', async () => {
    const tag = `zq${dialect}search`;
    const owner = freshEmail(`${tag}.owner`);
    const providerId = await placeOrder(owner);
    const publicId = providerId.replace(/^order_/, '');
    const linked = await sendMessage({ email: owner, orderId: publicId, message: `Where is it? ${tag}` });
    const accented = await sendMessage({ email: freshEmail('accent'), message: `Bonjour, ici Élodie ${tag}-fr` });
    const percent = await sendMessage({ email: freshEmail('percent'), message: `I want 100% ${tag} refund` });
    const plain = await sendMessage({ email: freshEmail('plain'), message: `I want 1000 ${tag} refunds` });

    const ids = async (query: string) => (await list(query)).data.map((row) => row.id);
    // E-mail, with another case.
    expect(await ids(`keyword=${encodeURIComponent(owner.toUpperCase())}`)).toEqual([linked]);
    // The linked order's id, with or without `order_`, any case.
    expect(await ids(`keyword=${encodeURIComponent(publicId.toLowerCase())}`)).toEqual([linked]);
    expect(await ids(`keyword=${encodeURIComponent(providerId)}`)).toEqual([linked]);
    // Text, beyond ASCII: "ÉLODIE" finds "Élodie" on both dialects.
    expect(await ids(`keyword=${encodeURIComponent('ÉLODIE')}`)).toEqual([accented]);
    // LIKE's wildcards are literal: "0%" matches "100%" only, "_" matches no plain character.
    expect(await ids(`keyword=${encodeURIComponent(`0% ${tag}`)}`)).toEqual([percent]);
    expect(await ids(`keyword=${encodeURIComponent(`10_0 ${tag}`)}`)).toEqual([]);
    // Newest first; the row shows the order id and the first line.
    const all = await list(`keyword=${tag}`);
    expect(all.data.map((row) => row.id)).toEqual([plain, percent, accented, linked]);
    expect(all.count).toBe(4);
    expect(all.data.at(-1)).toMatchObject({
      email: owner,
      orderId: publicId,
      preview: `Where is it? ${tag}`,
      status: 'new',
      readAt: null,
      replyCount: 0,
    });
    expect(all.data[0]?.orderId).toBeNull();

    // Status filter.
    expect((await post(`/api/admin/messages/${percent}/handled`)).statusCode).toBe(200);
    expect(await ids(`keyword=${tag}&status=handled`)).toEqual([percent]);
    expect(await ids(`keyword=${tag}&status=new`)).toEqual([plain, accented, linked]);
    expect(await ids(`keyword=${tag}&status=all`)).toEqual([plain, percent, accented, linked]);
    expect(await ids(`keyword=${tag}&status=`)).toEqual([plain, percent, accented, linked]);
    const none = await list(`keyword=${tag}-nothing-matches`);
    expect(none).toMatchObject({ isSuccessful: true, message: 'No messages found', data: [], count: 0, totalPages: 0 });
  });

  it('pages the list: counts, page count, no row twice or missing, past the end empty', async () => {
    const tag = `zq${dialect}paging`;
    const sent: number[] = [];
    for (let i = 0; i < 23; i += 1)
      sent.push(await sendMessage({ email: freshEmail('pager'), message: `${tag} #${i}` }));
    const newestFirst = [...sent].reverse();
    const pages = [1, 2, 3].map((page) => list(`keyword=${tag}&size=10&page=${page}`));
    const [first, second, third] = await Promise.all(pages);
    for (const [index, page] of [first, second, third].entries()) {
      expect(page).toMatchObject({ count: 23, totalPages: 3, currentPage: index + 1 });
    }
    expect(first?.data).toHaveLength(10);
    expect(second?.data).toHaveLength(10);
    expect(third?.data).toHaveLength(3);
    expect([...(first?.data ?? []), ...(second?.data ?? []), ...(third?.data ?? [])].map((row) => row.id)).toEqual(
      newestFirst,
    );
    const beyond = await list(`keyword=${tag}&size=10&page=4`);
    expect(beyond).toMatchObject({ data: [], count: 23, totalPages: 3, currentPage: 4 });
    // The default page size is 20.
    expect((await list(`keyword=${tag}`)).data).toHaveLength(20);
  });

  it('counts unread messages; opening marks one read once, and only that one', async () => {
    const first = await sendMessage({ email: freshEmail('unread'), message: 'First unread' });
    const second = await sendMessage({ email: freshEmail('unread'), message: 'Second unread' });
    const before = await unread();
    expect(before).toBeGreaterThanOrEqual(2);

    const opened = await open(first);
    expect(opened.readAt).not.toBeNull();
    expect(await unread()).toBe(before - 1);
    const again = await open(first);
    expect(again.readAt).toBe(opened.readAt);
    expect(await unread()).toBe(before - 1);

    const rows = (await list('keyword=unread')).data;
    expect(rows.find((row) => row.id === first)?.readAt).toBe(opened.readAt);
    expect(rows.find((row) => row.id === second)?.readAt).toBeNull();
    // Opening changes nothing else: still new.
    expect(again).toMatchObject({ status: 'new', canMarkHandled: true, canReopen: false, handledAt: null });
  });

  it("shows the linked order's facts and timeline only for an order of the sender's own", async () => {
    const owner = freshEmail('linked');
    const stranger = freshEmail('stranger');
    const providerId = await placeOrder(owner);
    const publicId = providerId.replace(/^order_/, '');
    const own = await sendMessage({ email: owner, orderId: publicId, message: 'My order please' });
    const foreign = await sendMessage({ email: stranger, orderId: publicId, message: 'Someone else’s order' });

    const ownDetail = await open(own);
    expect(ownDetail.order?.order).toMatchObject({
      orderId: publicId,
      razorPayOrderId: providerId,
      email: owner,
      serviceName: expect.any(String),
    });
    // The admin order detail's own timeline (core/admin/order-detail.ts), oldest first.
    expect(ownDetail.order?.timeline.map((entry) => entry.kind)).toContain('order.created');
    const events = await t.database.db
      .selectFrom('order_events')
      .select('kind')
      .where('order_id', '=', ownDetail.order?.order.id ?? -1)
      .orderBy('at')
      .orderBy('id')
      .execute();
    expect(ownDetail.order?.timeline.map((entry) => entry.kind)).toEqual(events.map((event) => event.kind));

    const foreignDetail = await open(foreign);
    expect(foreignDetail.order).toBeNull();
    expect(foreignDetail.message).toBe('Someone else’s order');
  });

  it('marks handled as a compare-and-set: of two concurrent calls one changes it, the other is a no-op', async () => {
    const id = await sendMessage({ email: freshEmail('race'), message: 'Race me' });
    const results = await Promise.all([
      post(`/api/admin/messages/${id}/handled`),
      post(`/api/admin/messages/${id}/handled`),
    ]);
    for (const response of results) expect(response.statusCode, response.body).toBe(200);
    const bodies = results.map((response) => response.json<{ message: string; data: InboxTransition }>());
    expect(bodies.map((body) => body.data.changed).sort()).toEqual([false, true]);
    expect(bodies.map((body) => body.message).sort()).toEqual(
      [INBOX_MESSAGES.alreadyHandled, INBOX_MESSAGES.handled].sort(),
    );
    for (const body of bodies) {
      expect(body.data).toMatchObject({ id, status: 'handled', canMarkHandled: false, canReopen: true });
    }
    const row = await t.database.db
      .selectFrom('contact_messages')
      .select(['status', 'handled_at', 'handled_by', 'read_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'handled', handled_by: adminId });
    expect(row.handled_at).not.toBeNull();
    // Handling a message the admin never opened also takes it off the unread count.
    expect(row.read_at).not.toBeNull();

    // Mark as new again: the same compare-and-set the other way.
    const reopened = await Promise.all([
      post(`/api/admin/messages/${id}/reopen`),
      post(`/api/admin/messages/${id}/reopen`),
    ]);
    expect(reopened.map((response) => response.json<{ data: InboxTransition }>().data.changed).sort()).toEqual([
      false,
      true,
    ]);
    expect((await open(id)).status).toBe('new');
  });

  it('stores a reply on the thread, e-mails it to the sender escaped, and marks the message handled', async () => {
    const email = freshEmail('reply');
    const providerId = await placeOrder(email);
    const publicId = providerId.replace(/^order_/, '');
    const id = await sendMessage({ email, orderId: publicId, message: 'Is my order late?' });
    const body = 'Hello!\nYour order is on its way <b>today</b> & "soon".\n\n<script>alert(1)</script>';

    const since = smtp.messages.length;
    const response = await post(`/api/admin/messages/${id}/replies`, { body: `  ${body}  ` });
    expect(response.statusCode, response.body).toBe(201);
    const created = response.json<{ message: string; data: InboxReplyCreated }>();
    expect(created.message).toBe(INBOX_MESSAGES.replied);
    expect(created.data.reply).toMatchObject({ body, adminEmail: ADMIN.email });
    expect(created.data.state).toMatchObject({ id, status: 'handled', canMarkHandled: false, canReopen: true });

    // One mail job per reply id, in the outbox with the reply.
    const jobs = await t.database.db
      .selectFrom('jobs')
      .select(['dedupe_key', 'payload_json'])
      .where('dedupe_key', '=', `contact-reply:${created.data.reply.id}`)
      .execute();
    expect(jobs).toHaveLength(1);

    // Earlier tests' mails are queued too: run the worker until the outbox is empty.
    while ((await t.store.worker.runOnce()) > 0);
    const mail = await smtp.waitForMessage(
      (m) => smtp.messages.indexOf(m) >= since && m.to === email && m.subject.startsWith('Re:'),
      5_000,
    );
    expect(mail.subject).toBe(`Re: your message about order ${publicId}`);
    expect(mail.parsed.replyTo?.[0]?.address).toBe(SUPPORT);
    expect(mail.text).toContain('Your order is on its way <b>today</b> & "soon".');
    expect(mail.html).not.toContain('<b>today</b>');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail.html).toContain('&lt;b&gt;today&lt;/b&gt; &amp; &quot;soon&quot;.');
    // Never the customer's own text (the address may be a stranger's, decision 024).
    expect(mail.text).not.toContain('Is my order late?');

    const detail = await open(id);
    expect(detail.replies).toEqual([created.data.reply]);
    expect(detail.status).toBe('handled');
    expect((await list(`keyword=${encodeURIComponent(email)}`)).data[0]?.replyCount).toBe(1);
  });

  it('keeps the message new when the admin says so, and threads several replies oldest first', async () => {
    const email = freshEmail('thread');
    const id = await sendMessage({ email, message: 'Two questions' });
    const first = await post(`/api/admin/messages/${id}/replies`, { body: 'First answer', markHandled: false });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json<{ data: InboxReplyCreated }>().data.state).toMatchObject({ status: 'new', canMarkHandled: true });
    const second = await post(`/api/admin/messages/${id}/replies`, { body: 'Second answer', markHandled: true });
    expect(second.statusCode, second.body).toBe(201);

    const detail = await open(id);
    expect(detail.replies.map((reply) => reply.body)).toEqual(['First answer', 'Second answer']);
    expect(detail.status).toBe('handled');
    // A reply to a handled message is taken too (the customer wrote back by e-mail, say).
    const third = await post(`/api/admin/messages/${id}/replies`, { body: 'Third answer' });
    expect(third.statusCode, third.body).toBe(201);
    expect((await open(id)).replies).toHaveLength(3);
  });

  it('keeps stored text as typed: the API hands it out as data, never as markup', async () => {
    const text = '<img src=x onerror=alert(1)>\n</textarea><script>alert(2)</script>';
    const id = await sendMessage({ email: freshEmail('markup'), message: text });
    const detail = await open(id);
    expect(detail.message).toBe(text);
    const response = await get(`/api/admin/messages/${id}`);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['cache-control']).toBe('private, no-store');
    const row = (await list('keyword=onerror')).data.find((candidate) => candidate.id === id);
    expect(row?.preview).toBe('<img src=x onerror=alert(1)>');
  });

  it('purges a message past the retention window with its replies (2 years, decision 024)', async () => {
    const id = await sendMessage({ email: freshEmail('purge'), message: 'Old news' });
    expect((await post(`/api/admin/messages/${id}/replies`, { body: 'Old answer' })).statusCode).toBe(201);
    const old = new Date(Date.now() - 3 * 365 * 24 * 60 * 60 * 1000).toISOString();
    await t.database.db.updateTable('contact_messages').set({ created_at: old }).where('id', '=', id).execute();
    await purgeExpiredData(t.database.db);
    expect((await get(`/api/admin/messages/${id}`)).statusCode).toBe(404);
    const replies = await t.database.db
      .selectFrom('contact_replies')
      .selectAll()
      .where('message_id', '=', id)
      .execute();
    expect(replies).toEqual([]);
  });
});
