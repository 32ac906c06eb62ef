/**
 * Renewal without stored cards, per dialect, through the real app with a fake Razorpay and a real
 * SMTP sink: the reminder job e-mails each subscription once (run twice, or by two instances at
 * once), never an ended, silenced or renewed one; the e-mail's renewal link opens the order page
 * for the same package and account; a renewal token links one paid renewal; a used, stale or
 * unknown link is a page that says why; reminders stop from /client's proof and from the e-mail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueRefillToken } from '../../core/fulfilment/refills/tokens.ts';
import { loadInstallSecret } from '../../core/settings/install-secret.ts';
import { REMINDER_MESSAGES } from '../../core/subscriptions/renewal-contracts.ts';
import { RENEWAL_LINK_GRACE_MS, renewalMailKey, sendRenewalReminders } from '../../core/renewals/renewals.ts';
import { DAY_MS } from '../../core/subscriptions/terms.ts';
import { MAIL_JOB } from '../../core/mail/send-mail-job.ts';
import { type FakeRazorpay, startFakeRazorpay } from '../fakes/razorpay.ts';
import { type SmtpSink, startSmtpSink } from '../fakes/smtp.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { type TestClock, createTestClock } from '../support/clock.ts';
import { dialects } from '../support/databases.ts';
import { placePaidOrder } from '../support/paid-order.ts';

const keys = { keyId: 'rzp_test_renewals', keySecret: 'renewals-secret', webhookSecret: 'renewals-webhook' };
const SLUG = 'instagram-followers';
const PUBLIC_URL = 'http://store.renewals.test';

describe.each(dialects)('subscription renewals (%s)', (dialect) => {
  let t: TestApp;
  let second: TestApp;
  let razorpay: FakeRazorpay;
  let smtp: SmtpSink;
  let clock: TestClock;
  let sequence = 0;
  let plan = { type: '', qty: 0 };

  beforeAll(async () => {
    razorpay = await startFakeRazorpay(keys);
    smtp = await startSmtpSink();
    clock = createTestClock();
    const env = {
      RAZORPAY_KEY_ID: keys.keyId,
      RAZORPAY_KEY_SECRET: keys.keySecret,
      RAZORPAY_API_URL: razorpay.url,
      SMTP_URL: smtp.url,
      PUBLIC_URL,
    };
    t = await startTestApp(dialect, { withPages: true, env, overrides: { clock: clock.now } });
    second = await startTestApp(dialect, { env, overrides: { clock: clock.now }, sameDatabaseAs: t });
    // Instagram Followers sold as automatic likes: 30 new posts over 30 days.
    await t.database.db
      .updateTable('services')
      .set({ kind: 'automatic_likes', period_days: 30, posts_per_period: 30, post_delay_minutes: 0 })
      .where('slug', '=', SLUG)
      .execute();
    const { version } = await t.database.db
      .updateTable('catalogue_content')
      .set((eb) => ({ version: eb('version', '+', 1) }))
      .where('id', '=', 1)
      .returning('version')
      .executeTakeFirstOrThrow();
    t.store.catalogue.wrote(Number(version));
    second.store.catalogue.wrote(Number(version));
    const service = await t.store.catalogue.getService(SLUG);
    const first = service?.plans[0];
    const tier = first?.list[0];
    if (!service || !first || !tier) throw new Error('the seed has no Instagram Followers package');
    expect(service.kind).toBe('automatic_likes');
    plan = { type: first.type, qty: tier.qty };
  });

  afterAll(async () => {
    await second?.close();
    await t?.close();
    await Promise.all([razorpay?.close(), smtp?.close()]);
  });

  const db = () => t.database.db;
  /** Each instance's own use-case deps over the shared database (two workers at once). */
  const depsOf = (app: TestApp) => ({
    db: app.database.db,
    catalogue: app.store.catalogue,
    publicUrl: PUBLIC_URL,
    tokenKey: 'unused here',
    now: clock.now,
  });
  const subscription = (orderId: number) =>
    db().selectFrom('subscriptions').selectAll().where('order_id', '=', orderId).executeTakeFirstOrThrow();
  const providerId = async (orderId: number) =>
    (await db().selectFrom('orders').select('provider_order_id').where('id', '=', orderId).executeTakeFirstOrThrow())
      .provider_order_id;
  const reminderMails = (orderId: number) =>
    db()
      .selectFrom('jobs')
      .select(['payload_json', 'status'])
      .where('kind', '=', MAIL_JOB)
      .where('dedupe_key', '=', renewalMailKey(orderId))
      .execute();

  async function drainJobs() {
    await db()
      .updateTable('jobs')
      .set({ run_at: new Date(0).toISOString() })
      .where('status', '=', 'pending')
      .execute();
    while ((await t.store.worker.runOnce()) > 0) {
      // until nothing is due
    }
  }

  /**
   * A paid automatic-likes order whose period (as the sync records it once the panel has it)
   * ends `endsInDays` from now, with 12 posts served.
   */
  async function runningSubscription(name: string, endsInDays = 2.5): Promise<number> {
    sequence += 1;
    const id = await placePaidOrder(t, razorpay, {
      sequence,
      name,
      type: plan.type,
      slug: SLUG,
      qty: plan.qty,
      subnet: 41,
    });
    const now = clock.now().getTime();
    await db()
      .updateTable('subscriptions')
      .set({
        starts_at: new Date(now + endsInDays * DAY_MS - 30 * DAY_MS).toISOString(),
        ends_at: new Date(now + endsInDays * DAY_MS).toISOString(),
        posts_served: 12,
        panel_status: 'In progress',
      })
      .where('order_id', '=', id)
      .execute();
    return id;
  }

  /** A new order for the package, made (not paid) with a renewal token, as the order page sends it. */
  async function orderWith(name: string, renewalToken: string | undefined) {
    sequence += 1;
    const created = await t.store.orders.create({
      type: plan.type,
      slug: SLUG,
      qty: plan.qty,
      name,
      email: `${name}@example.com`,
      order_id: String(100000 + sequence),
      renewalToken,
    });
    const row = await db()
      .selectFrom('orders')
      .select('id')
      .where('provider_order_id', '=', created.razorpay_order_id)
      .executeTakeFirstOrThrow();
    return { id: row.id, created };
  }

  async function pay(created: { checkout: unknown }) {
    const checkout = created.checkout as { order_id: string };
    const { handlerResult } = razorpay.pay(checkout.order_id);
    const verified = await t.app.inject({
      method: 'POST',
      url: '/api/order/verify-payment',
      payload: handlerResult,
      remoteAddress: '10.42.0.1',
    });
    expect(verified.statusCode).toBe(200);
  }

  /** Reminds the due subscriptions and returns the renewal token e-mailed for `orderId`. */
  async function remindedToken(orderId: number): Promise<string> {
    await t.store.renewals.sendReminders();
    const [mail] = await reminderMails(orderId);
    if (!mail) throw new Error(`no reminder for order ${orderId}`);
    const { text } = JSON.parse(mail.payload_json) as { text: string };
    const token = new RegExp(`${PUBLIC_URL}/renew/([A-Za-z0-9_-]{43})`).exec(text)?.[1];
    if (!token) throw new Error('the reminder has no renewal link');
    return token;
  }

  const setReminders = (payload: Record<string, unknown>, address = '10.43.0.1') =>
    t.app.inject({ method: 'POST', url: '/api/order/subscription/reminders', payload, remoteAddress: address });

  it('reminds each subscription once, even when the job runs twice or on two instances at once', async () => {
    const id = await runningSubscription('remind.once');
    const [a, b] = await Promise.all([sendRenewalReminders(depsOf(t)), sendRenewalReminders(depsOf(second))]);
    await t.store.renewals.sendReminders();
    // Exactly one of the racing runs won the subscription.
    expect(a.sent + b.sent).toBe(1);
    expect(await reminderMails(id)).toHaveLength(1);
    const row = await subscription(id);
    expect(row.reminder_sent_at).not.toBeNull();
    expect(row.renewal_token_hash).toMatch(/^[0-9a-f]{64}$/);

    await drainJobs();
    const name = 'remind.once@example.com';
    // The receipt went to the same address; the reminder is the one about the end.
    const received = smtp.messages.filter((m) => m.to.includes(name) && m.subject.includes(' end on '));
    expect(received).toHaveLength(1);
    const [message] = received;
    expect(message?.subject).toContain('automatic likes for remind.once end on');
    expect(message?.text).toContain('Likes on 12 of up to 30 new posts');
    expect(message?.text).toMatch(/up to 30 new posts, [\d,]+ likes each, until \d{1,2} \w{3} \d{4}/);
    expect(message?.text).toContain(`${PUBLIC_URL}/renew/`);
    expect(message?.text).toMatch(
      /Stop renewal reminders: http:\/\/store\.renewals\.test\/renew\/[A-Za-z0-9_-]{43}\/stop/,
    );
    // The token is e-mailed, never stored: the row has only its hash.
    const token = /\/renew\/([A-Za-z0-9_-]{43})/.exec(message?.text ?? '')?.[1] ?? '';
    expect(row.renewal_token_hash).not.toContain(token);
  });

  it('does not remind an ended, silenced, renewed or far-from-its-end subscription', async () => {
    const ended = await runningSubscription('not.ended');
    await db()
      .updateTable('subscriptions')
      .set({ ended_at: clock.now().toISOString(), end_reason: 'panel' })
      .where('order_id', '=', ended)
      .execute();
    const silenced = await runningSubscription('not.silenced');
    await db().updateTable('subscriptions').set({ reminders: 0 }).where('order_id', '=', silenced).execute();
    const renewed = await runningSubscription('not.renewed');
    const later = await runningSubscription('not.yet', 10);
    await db()
      .updateTable('subscriptions')
      .set({ renewed_by_order_id: later })
      .where('order_id', '=', renewed)
      .execute();
    const past = await runningSubscription('not.past', -0.5);
    await t.store.renewals.sendReminders();
    for (const id of [ended, silenced, renewed, later, past]) expect(await reminderMails(id)).toHaveLength(0);
    // The one ending in 10 days is reminded once it is 3 days from its end.
    clock.advance(7.5 * DAY_MS);
    await t.store.renewals.sendReminders();
    expect(await reminderMails(later)).toHaveLength(1);
    for (const id of [ended, silenced, renewed, past]) expect(await reminderMails(id)).toHaveLength(0);
  });

  it("the e-mail's renewal link opens the order page for the same package and account", async () => {
    const id = await runningSubscription('link.opens');
    const token = await remindedToken(id);
    const page = await t.app.inject({ method: 'GET', url: `/renew/${token}` });
    expect(page.statusCode).toBe(302);
    const location = new URL(page.headers.location ?? '', PUBLIC_URL);
    expect(location.pathname).toBe(`/order/${SLUG}GOI${plan.qty}`);
    expect(location.searchParams.get('type')).toBe(plan.type);
    expect(location.searchParams.get('target')).toBe('link.opens');
    expect(location.searchParams.get('renewal')).toBe(token);
    expect(page.headers['cache-control']).toMatch(/no-store/);
  });

  it('a renewal token links one paid renewal; a second order with it is an ordinary order', async () => {
    const old = await runningSubscription('renews.once');
    const token = await remindedToken(old);
    // Two orders made with the link before either is paid: both point at the old one for now.
    const first = await orderWith('renews.once', token);
    const second_ = await orderWith('renews.once', token);
    expect((await subscription(first.id)).renewal_of_order_id).toBe(old);
    expect((await subscription(second_.id)).renewal_of_order_id).toBe(old);
    // Another account's order cannot use the link.
    const stranger = await orderWith('someone.else', token);
    expect((await subscription(stranger.id)).renewal_of_order_id).toBeNull();

    await pay(first.created);
    await drainJobs();
    expect((await subscription(old)).renewed_by_order_id).toBe(first.id);
    await pay(second_.created);
    await drainJobs();
    expect((await subscription(old)).renewed_by_order_id).toBe(first.id);
    expect((await subscription(second_.id)).renewal_of_order_id).toBeNull();
    expect((await subscription(first.id)).renewal_of_order_id).toBe(old);
    // Made after the renewal: not linked at all.
    const third = await orderWith('renews.once', token);
    expect((await subscription(third.id)).renewal_of_order_id).toBeNull();

    // The used link's page says so and links to the renewal.
    const page = await t.app.inject({ method: 'GET', url: `/renew/${token}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('This subscription is renewed already');
    const number = (await providerId(first.id)).replace(/^order_/, '');
    expect(page.body).toContain(`/order-confirm/${number}`);
  });

  it('refuses an unknown, stale or no-longer-sold link with a page that says why', async () => {
    const unknown = await t.app.inject({ method: 'GET', url: `/renew/${'x'.repeat(43)}` });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.body).toContain('This renewal link does not work');
    const short = await t.app.inject({ method: 'GET', url: '/renew/abc' });
    expect(short.body).toContain('This renewal link does not work');

    const gone = await runningSubscription('package.gone');
    const goneToken = await remindedToken(gone);
    await db().updateTable('orders').set({ quantity: 999_999 }).where('id', '=', gone).execute();
    const gonePage = await t.app.inject({ method: 'GET', url: `/renew/${goneToken}` });
    expect(gonePage.statusCode).toBe(200);
    expect(gonePage.body).toContain('This package is no longer sold');
    expect(gonePage.body).toContain(`href="/service/${SLUG}"`);

    const stale = await runningSubscription('link.stale');
    const staleToken = await remindedToken(stale);
    clock.advance(2.5 * DAY_MS + RENEWAL_LINK_GRACE_MS + 60_000);
    const stalePage = await t.app.inject({ method: 'GET', url: `/renew/${staleToken}` });
    expect(stalePage.statusCode).toBe(200);
    expect(stalePage.body).toContain('This renewal link has expired');
    expect(stalePage.body).toContain(`href="/service/${SLUG}"`);
    // An order made with it anyway (an old tab) is an ordinary order.
    const late = await orderWith('link.stale', staleToken);
    expect((await subscription(late.id)).renewal_of_order_id).toBeNull();
  });

  it("stops reminders with /client's per-order proof, and refuses a wrong proof", async () => {
    const id = await runningSubscription('stop.client', 20);
    const orderId = (await providerId(id)).replace(/^order_/, '');
    const key = await loadInstallSecret(db(), 'refill-token.key');
    const email = 'stop.client@example.com';
    const token = issueRefillToken(key, clock.now().getTime(), `order_${orderId}`, email);

    const wrong = await setReminders({ orderId, token: `${token}x`, reminders: false });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toMatchObject({ isSuccessful: false, message: REMINDER_MESSAGES.badToken });
    const unknownOrder = await setReminders({ orderId: 'NoSuchOrder123', token, reminders: false });
    expect(unknownOrder.statusCode).toBe(403);
    const malformed = await setReminders({ orderId, token, reminders: 'no' });
    expect(malformed.statusCode).toBe(400);

    const off = await setReminders({ orderId, token, reminders: false });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ isSuccessful: true, data: { orderId, reminders: false } });
    expect(off.headers['cache-control']).toContain('no-store');
    expect((await subscription(id)).reminders).toBe(0);
    clock.advance(17.5 * DAY_MS);
    await t.store.renewals.sendReminders();
    expect(await reminderMails(id)).toHaveLength(0);

    const on = await setReminders(
      { orderId, token: issueRefillToken(key, clock.now().getTime(), `order_${orderId}`, email), reminders: true },
      '10.43.0.2',
    );
    expect(on.statusCode).toBe(200);
    expect((await subscription(id)).reminders).toBe(1);

    // An ended subscription has nothing to remind of.
    await db()
      .updateTable('subscriptions')
      .set({ ended_at: clock.now().toISOString(), end_reason: 'expired' })
      .where('order_id', '=', id)
      .execute();
    const ended = await setReminders(
      { orderId, token: issueRefillToken(key, clock.now().getTime(), `order_${orderId}`, email), reminders: false },
      '10.43.0.2',
    );
    expect(ended.statusCode).toBe(409);
    expect(ended.json()).toMatchObject({ message: REMINDER_MESSAGES.ended });
  });

  it("stops reminders from the e-mail's link: a page with a button, the token as the proof", async () => {
    const id = await runningSubscription('stop.mail');
    const token = await remindedToken(id);
    const orderId = (await providerId(id)).replace(/^order_/, '');
    // Opening the page changes nothing (mail scanners open links).
    const page = await t.app.inject({ method: 'GET', url: `/renew/${token}/stop` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Stop renewal reminders?');
    expect((await subscription(id)).reminders).toBe(1);
    // Another order's id with this token is refused.
    const other = await runningSubscription('stop.other', 20);
    const refused = await setReminders(
      { orderId: (await providerId(other)).replace(/^order_/, ''), token, reminders: false },
      '10.43.0.3',
    );
    expect(refused.statusCode).toBe(403);

    const stopped = await setReminders({ orderId, token, reminders: false }, '10.43.0.3');
    expect(stopped.statusCode).toBe(200);
    expect(stopped.json()).toMatchObject({ message: REMINDER_MESSAGES.off });
    expect((await subscription(id)).reminders).toBe(0);
    const again = await t.app.inject({ method: 'GET', url: `/renew/${token}/stop` });
    expect(again.body).toContain('Reminders are already off');
  });
});
