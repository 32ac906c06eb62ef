/**
 * Real reviews (docs/decisions/039-real-reviews.md), per dialect, through the real app
 * and store (pages from the production build): the completion e-mail carries a single-use link
 * whose token is stored only as a hash, made once per order; the review page shows the order
 * (never the e-mail); a submit spends the link once, even under a race; expired and unknown links
 * get a page that is not the customer's fault; moderation is a compare-and-set; approved reviews
 * feed the home carousel and the service page's AggregateRating, and approving or rejecting
 * renders cached pages again (on this instance at once, on another within about a second).
 * Everything runs with the server's logger at `trace` into a captured stream, which must never
 * hold a token.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishOrderEvent } from '../../core/orders/events.ts';
import { createReviews } from '../../core/reviews/reviews.ts';
import { REVIEW_FORM_MESSAGES, REVIEW_LINK_MESSAGES, REVIEW_SENT_MESSAGE } from '../../core/reviews/rules.ts';
import { catalogueSeed } from '../../core/catalogue/seed/catalogue-seed.ts';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { REDACTED, loggerOptions } from '../../server/logging.ts';
import { type Store, openStore } from '../../server/store.ts';
import { type SmtpSink, startSmtpSink } from '../fakes/smtp.ts';
import { TEST_TOTP_ENCRYPTION_KEY, loadServerBuild, root } from '../support/app.ts';
import { seedAdmin } from '../support/admin-accounts.ts';
import { adminToken } from '../support/admin-session.ts';
import { createTestClock } from '../support/clock.ts';
import { type TestDatabase, dialects, openTestDatabase } from '../support/databases.ts';
import { bodyText, decodeEntities, jsonLdBlocks } from '../support/html.ts';
import { waitFor } from '../support/wait-for.ts';

const PUBLIC_URL = 'https://shop.example';
const DAY = 24 * 60 * 60 * 1000;
const followers = catalogueSeed.groups[0].services[0];
const likes = catalogueSeed.groups[0].services[1];
const ADMIN = { email: 'moderator@reviews.test', password: 'Moderator-Password-4821' };

function captureStream() {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk.toString());
      callback();
    },
  });
  return { stream, text: () => chunks.join('') };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe.each(dialects)('real reviews on %s', (dialect) => {
  let database: TestDatabase;
  let store: Store;
  let app: FastifyInstance;
  let smtp: SmtpSink;
  let token: string;
  const clock = createTestClock();
  const log = captureStream();
  /** Every review token the suite saw: none may reach the log. */
  const tokens: string[] = [];

  beforeAll(async () => {
    smtp = await startSmtpSink();
    database = await openTestDatabase(dialect);
    const config = loadConfig({
      NODE_ENV: 'production',
      DATA_DIR: path.join(root, '.tmp/unused'),
      LOG_LEVEL: 'trace',
      SMTP_URL: smtp.url,
      PUBLIC_URL,
      TOTP_ENCRYPTION_KEY: TEST_TOTP_ENCRYPTION_KEY,
    });
    const logger = pino(loggerOptions(config.LOG_LEVEL), log.stream);
    store = await openStore(config, database, { logger, clock: clock.now });
    app = await buildApp({
      config,
      store,
      logger,
      build: await loadServerBuild(),
      clientDir: path.join(root, 'build/client'),
    });
    await app.ready();
    await seedAdmin(database.db, ADMIN.email, ADMIN.password, { verified: true });
  });
  afterAll(async () => {
    await app?.close();
    await store?.close();
    await database?.dispose();
    await smtp?.close();
  });

  let clients = 0;
  const from = () => `10.78.${Math.floor(++clients / 250)}.${clients % 250}`;
  const page = (url: string) => app.inject({ method: 'GET', url, remoteAddress: from() });
  const submit = (payload: object) =>
    app.inject({ method: 'POST', url: '/api/reviews', payload, remoteAddress: from() });
  const admin = (method: 'GET' | 'POST', url: string) =>
    app.inject({ method, url, remoteAddress: '10.77.0.1', headers: { authorization: `Bearer ${token}` } });

  let orders = 0;
  /** A paid order of `service`, as checkout leaves it; returns its row id. */
  async function insertOrder(service: { slug: string; name: string }): Promise<number> {
    orders += 1;
    const at = clock.now().toISOString();
    const { id } = await database.db
      .insertInto('orders')
      .values({
        provider: 'sandbox',
        provider_order_id: `order_Review${dialect}${orders}`,
        client_order_id: String(200_000 + orders),
        email: `reviewer.${orders}@customers.test`,
        service_slug: service.slug,
        service_name: service.name,
        plan_type: 'Standard',
        quantity: 1000,
        target: `reviewer_${orders}`,
        target_kind: 'instagram',
        comment: null,
        supplier_service_id: '1',
        price_e4: 129_900,
        amount_e4: 139_900,
        currency: 'USD',
        payment_status: 'paid',
        order_status: 'In Progress',
        payment_id: `pay_review_${orders}`,
        review_reason: null,
        error_message: null,
        created_at: at,
        updated_at: at,
        paid_at: at,
        supplier_order_id: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  }

  /** The supplier reports the order complete: the status change and its event, as fulfilment records them. */
  async function complete(orderId: number): Promise<void> {
    await database.db.transaction().execute(async (trx) => {
      const at = clock.now().toISOString();
      await trx
        .updateTable('orders')
        .set({ order_status: 'Completed', remains: 0 })
        .where('id', '=', orderId)
        .execute();
      const timeline = await trx
        .insertInto('order_events')
        .values({
          order_id: orderId,
          at,
          kind: 'status.changed',
          detail_json: JSON.stringify({ from: 'In Progress', to: 'Completed' }),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await publishOrderEvent(
        trx,
        {
          type: 'order.status_changed',
          orderId,
          from: 'In Progress',
          to: 'Completed',
          remains: 0,
          timelineId: timeline.id,
        },
        clock.now(),
      );
    });
    await drainJobs();
  }

  async function drainJobs() {
    await database.db
      .updateTable('jobs')
      .set({ run_at: new Date(0).toISOString() })
      .where('status', '=', 'pending')
      .execute();
    while ((await store.worker.runOnce()) > 0) {
      // until nothing is due
    }
  }

  /** The completion e-mail of an order, and the review token its link carries. */
  async function completionMail(orderId: number) {
    const email = await emailOf(orderId);
    const mail = await smtp.waitForMessage((m) => m.to.includes(email) && /is complete/.test(m.subject), 5_000);
    const found = /\/review\/([A-Za-z0-9_-]{43})/.exec(mail.text);
    if (!found?.[1]) throw new Error(`no review link in:\n${mail.text}`);
    tokens.push(found[1]);
    return { mail, reviewToken: found[1] };
  }
  async function emailOf(orderId: number) {
    const row = await database.db
      .selectFrom('orders')
      .select('email')
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow();
    return row.email;
  }

  /** A completed order with its review link. */
  async function invitedOrder(service: { slug: string; name: string } = followers) {
    const orderId = await insertOrder(service);
    await complete(orderId);
    const { reviewToken } = await completionMail(orderId);
    return { orderId, reviewToken };
  }

  const goodReview = (reviewToken: string, overrides: object = {}) => ({
    token: reviewToken,
    rating: 5,
    text: 'Delivery started the next day and came in steadily.',
    name: 'Maya',
    ...overrides,
  });

  describe('the invitation', () => {
    it('the completion e-mail carries a review link; only its SHA-256 is stored, once per order', async () => {
      const orderId = await insertOrder(followers);
      await complete(orderId);
      const { mail, reviewToken } = await completionMail(orderId);
      expect(mail.text).toContain(`${PUBLIC_URL}/review/${reviewToken}`);
      expect(mail.html).toContain(`${PUBLIC_URL}/review/${reviewToken}`);
      // 32 random bytes: 256 bits.
      expect(Buffer.from(reviewToken, 'base64url')).toHaveLength(32);
      const rows = await database.db
        .selectFrom('review_invitations')
        .selectAll()
        .where('order_id', '=', orderId)
        .execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]?.token_hash).toBe(sha256(reviewToken));
      expect(JSON.stringify(rows)).not.toContain(reviewToken);
      expect(Date.parse(rows[0].expires_at) - Date.parse(rows[0].created_at)).toBe(60 * DAY);

      // The same completion announced again (a retried job, a second sync): no second link, no second mail.
      await complete(orderId);
      expect(
        await database.db.selectFrom('review_invitations').select('id').where('order_id', '=', orderId).execute(),
      ).toHaveLength(1);
      const mails = smtp.messages.filter((m) => m.to.includes(`reviewer.${orders}@`) && /is complete/.test(m.subject));
      expect(mails).toHaveLength(1);
    });

    it('other status e-mails carry no review link', async () => {
      const orderId = await insertOrder(followers);
      await database.db.transaction().execute(async (trx) => {
        const timeline = await trx
          .insertInto('order_events')
          .values({ order_id: orderId, at: clock.now().toISOString(), kind: 'status.changed', detail_json: '{}' })
          .returning('id')
          .executeTakeFirstOrThrow();
        await publishOrderEvent(
          trx,
          {
            type: 'order.status_changed',
            orderId,
            from: 'Processing',
            to: 'In Progress',
            remains: 1000,
            timelineId: timeline.id,
          },
          clock.now(),
        );
      });
      await drainJobs();
      const mail = await smtp.waitForMessage(
        (m) => m.to.includes(`reviewer.${orders}@`) && /on its way/.test(m.subject),
      );
      expect(mail.text).not.toContain('/review/');
      expect(
        await database.db.selectFrom('review_invitations').select('id').where('order_id', '=', orderId).execute(),
      ).toEqual([]);
    });
  });

  describe('the review page and submit', () => {
    it('shows which order the link is about, never the e-mail address; private and never cached', async () => {
      const { orderId, reviewToken } = await invitedOrder();
      const response = await page(`/review/${reviewToken}`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('private, no-store');
      const text = bodyText(response.body);
      expect(text).toContain(followers.name);
      expect(text).toContain('1,000');
      expect(response.body).not.toContain(await emailOf(orderId));
      expect(response.body).not.toContain(`reviewer_${orders}`);
      expect(response.body).toMatch(/<meta name="robots" content="noindex, nofollow"/);
      expect(response.body).toContain('name="rating"');
    });

    it('an unknown link gets a page that is not the customer’s fault, with a way to support', async () => {
      for (const unknown of ['x'.repeat(43), 'not-a-token', 'A'.repeat(43)]) {
        const response = await page(`/review/${unknown}`);
        expect(response.statusCode).toBe(200);
        expect(response.body).toContain('data-problem="unknown"');
        expect(decodeEntities(response.body)).toContain(REVIEW_LINK_MESSAGES.unknown);
        expect(response.body).toContain('href="/contact"');
      }
    });

    it('refuses an invalid review field by field, and keeps the link usable', async () => {
      const { reviewToken } = await invitedOrder();
      const refused = await submit({ token: reviewToken, rating: 7, text: 'short', name: '' });
      expect(refused.statusCode).toBe(400);
      const errors = refused.json<{ errors: { field: string; message: string }[] }>().errors;
      expect(errors).toEqual(
        expect.arrayContaining([
          { field: 'rating', message: REVIEW_FORM_MESSAGES.ratingRequired },
          { field: 'text', message: REVIEW_FORM_MESSAGES.textTooShort },
          { field: 'name', message: REVIEW_FORM_MESSAGES.nameRequired },
        ]),
      );
      const sent = await submit(goodReview(reviewToken, { rating: '4' }));
      expect(sent.statusCode).toBe(201);
      expect(sent.json()).toEqual({ isSuccessful: true, message: REVIEW_SENT_MESSAGE });
    });

    it('spends the link once: of racing submits exactly one stores a review', async () => {
      const { orderId, reviewToken } = await invitedOrder();
      const replies = await Promise.all(
        Array.from({ length: 6 }, (_, i) => submit(goodReview(reviewToken, { text: `Racing submit number ${i}.` }))),
      );
      const statuses = replies.map((reply) => reply.statusCode).sort();
      expect(statuses).toEqual([201, 410, 410, 410, 410, 410]);
      for (const reply of replies.filter((r) => r.statusCode === 410))
        expect(reply.json().message).toBe(REVIEW_LINK_MESSAGES.used);
      const stored = await database.db.selectFrom('reviews').selectAll().where('order_id', '=', orderId).execute();
      expect(stored).toHaveLength(1);
      expect(stored[0]).toMatchObject({
        state: 'pending',
        rating: 5,
        display_name: 'Maya',
        service_slug: followers.slug,
      });
      // The page now says the order was reviewed.
      expect((await page(`/review/${reviewToken}`)).body).toContain('data-problem="used"');
    });

    it('a link past its 60 days is expired, on the page and on submit', async () => {
      const { orderId, reviewToken } = await invitedOrder();
      clock.advance(60 * DAY + 60_000);
      expect((await page(`/review/${reviewToken}`)).body).toContain('data-problem="expired"');
      const late = await submit(goodReview(reviewToken));
      expect(late.statusCode).toBe(410);
      expect(late.json().message).toBe(REVIEW_LINK_MESSAGES.expired);
      expect(await database.db.selectFrom('reviews').select('id').where('order_id', '=', orderId).execute()).toEqual(
        [],
      );
    });

    it('stores text as plain text and the page escapes it', async () => {
      const { reviewToken } = await invitedOrder(likes);
      const sent = await submit(
        goodReview(reviewToken, { text: '<img src=x onerror=alert(1)> great likes', name: '<b>Bo</b>' }),
      );
      expect(sent.statusCode).toBe(201);
      const row = await database.db
        .selectFrom('reviews')
        .select(['body', 'display_name'])
        .where('display_name', '=', '<b>Bo</b>')
        .executeTakeFirstOrThrow();
      expect(row.body).toBe('<img src=x onerror=alert(1)> great likes');
    });
  });

  describe('moderation and public pages', () => {
    // Logged in here: the expiry test above moved the store's clock past any earlier session.
    beforeAll(async () => {
      token = await adminToken({ app, store, database, close: async () => {} }, ADMIN, '10.77.0.1', clock.now);
    });
    const pending = async () =>
      (await admin('GET', '/api/admin/reviews?status=pending')).json<{
        data: { id: number; name: string; text: string }[];
      }>().data;
    const nonceOf = async (url: string) => / nonce="([^"]+)"/.exec((await page(url)).body)?.[1];
    const productOf = async (url: string) => {
      const blocks = jsonLdBlocks((await page(url)).body).map((block) => JSON.parse(block) as unknown);
      const flat = blocks.flatMap((block) => (Array.isArray(block) ? block : [block])) as Record<string, unknown>[];
      return flat.find((block) => block['@type'] === 'Product');
    };

    it('needs an admin token', async () => {
      const response = await app.inject({ method: 'GET', url: '/api/admin/reviews', remoteAddress: from() });
      expect(response.statusCode).toBe(401);
      expect(
        (await app.inject({ method: 'POST', url: '/api/admin/reviews/1/approve', remoteAddress: from() })).statusCode,
      ).toBe(401);
    });

    it('without approved reviews: no carousel on the home page, no AggregateRating', async () => {
      const home = await page('/');
      expect(home.body).not.toContain('data-testid="reviews"');
      expect(await productOf(`/service/${followers.slug}`)).not.toHaveProperty('aggregateRating');
    });

    it('lists pending first with the order, counts them, and approves by compare-and-set', async () => {
      const list = await admin('GET', '/api/admin/reviews');
      expect(list.statusCode).toBe(200);
      const rows = list.json<{ data: { id: number; state: string; orderId: string; serviceName: string }[] }>().data;
      expect(rows.length).toBeGreaterThanOrEqual(3);
      expect(rows.every((row) => row.state === 'pending')).toBe(true);
      expect(rows[0]?.orderId).toMatch(/^Review/);
      const count = await admin('GET', '/api/admin/reviews/pending-count');
      expect(count.json().data).toEqual({ count: rows.length });

      const [first] = await pending();
      const cachedNonce = await nonceOf('/');
      expect(await nonceOf('/')).toBe(cachedNonce);
      // Two admins (or a double click) approve at once: one change.
      const approvals = await Promise.all([
        admin('POST', `/api/admin/reviews/${first.id}/approve`),
        admin('POST', `/api/admin/reviews/${first.id}/approve`),
      ]);
      expect(approvals.map((reply) => reply.statusCode)).toEqual([200, 200]);
      expect(approvals.map((reply) => reply.json().data.changed).sort()).toEqual([false, true]);
      expect(approvals.map((reply) => reply.json().data.state)).toEqual(['approved', 'approved']);
      expect((await admin('GET', '/api/admin/reviews/pending-count')).json().data.count).toBe(rows.length - 1);
      expect((await admin('POST', '/api/admin/reviews/999999/approve')).statusCode).toBe(404);
      // Pending first: the approved one, although as new as any, is listed after every pending one.
      const states = (await admin('GET', '/api/admin/reviews'))
        .json<{ data: { id: number; state: string }[] }>()
        .data.map((row) => row.state);
      expect(states).toEqual([...Array<string>(rows.length - 1).fill('pending'), 'approved']);

      // The cached home page is rendered again and shows the review, its text escaped.
      const home = await page('/');
      expect(/ nonce="([^"]+)"/.exec(home.body)?.[1]).not.toBe(cachedNonce);
      expect(home.body).toContain('data-testid="reviews"');
      expect(home.body).toContain('What our customers say');
      expect(home.body).not.toContain('Example reviews');
    });

    it('feeds the carousel (newest first, approved only) and each service’s AggregateRating', async () => {
      for (const row of await pending()) {
        const action = row.name === '<b>Bo</b>' || row.name === 'Maya' ? 'approve' : 'reject';
        expect((await admin('POST', `/api/admin/reviews/${row.id}/${action}`)).statusCode).toBe(200);
      }
      const approved = await database.db
        .selectFrom('reviews')
        .select(['service_slug', 'rating', 'body', 'created_at'])
        .where('state', '=', 'approved')
        .orderBy('created_at', 'desc')
        .execute();
      const home = await page('/');
      expect(home.body.match(/data-testid="review-slide"/g)).toHaveLength(approved.length);
      expect(home.body).not.toContain('<img src=x');
      expect(home.body).toContain('&lt;img src=x onerror=alert(1)&gt; great likes');
      const shown = bodyText(home.body);
      expect(shown.indexOf(approved[0].body)).toBeLessThan(shown.indexOf(approved[approved.length - 1].body));

      for (const service of [followers, likes]) {
        const ratings = approved.filter((row) => row.service_slug === service.slug).map((row) => row.rating);
        const product = await productOf(`/service/${service.slug}`);
        expect(ratings.length, service.slug).toBeGreaterThan(0);
        expect(product?.aggregateRating, service.slug).toEqual({
          '@type': 'AggregateRating',
          ratingValue: Math.round((ratings.reduce((a, b) => a + b, 0) / ratings.length) * 10) / 10,
          reviewCount: ratings.length,
          bestRating: 5,
          worstRating: 1,
        });
      }
      // A service nobody reviewed has none.
      const other = catalogueSeed.groups[1].services[0];
      expect(await productOf(`/service/${other.slug}`)).not.toHaveProperty('aggregateRating');
    });

    it('rejecting an approved review takes it off the pages; another instance’s decision shows within a second', async () => {
      const approvedRows = (await admin('GET', '/api/admin/reviews?status=approved')).json<{
        data: { id: number; text: string }[];
      }>().data;
      const target = approvedRows[0];
      const before = await page('/');
      expect(decodeEntities(before.body)).toContain(target.text);
      const rejected = await admin('POST', `/api/admin/reviews/${target.id}/reject`);
      expect(rejected.json().data).toMatchObject({ state: 'rejected', changed: true });
      expect(decodeEntities((await page('/')).body)).not.toContain(target.text);

      // Another instance on the same database approves it again.
      const cached = await nonceOf('/');
      const otherInstance = createReviews({ db: database.db });
      expect(await otherInstance.decide(target.id, 'approved', 1)).toMatchObject({ changed: true });
      await waitFor(async () => decodeEntities((await page('/')).body).includes(target.text), {
        timeout: 5_000,
        interval: 100,
        message: 'the home page to show the review another instance approved',
      });
      expect(await nonceOf('/')).not.toBe(cached);
    });
  });

  it('never logs a review token (the page path is redacted)', () => {
    const text = log.text();
    expect(tokens.length).toBeGreaterThan(5);
    for (const seen of tokens) expect(text).not.toContain(seen);
    expect(text).toContain(`/review/${REDACTED}`);
  });
});
