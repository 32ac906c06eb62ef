import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { type AddressInfo, type Server, type Socket, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import PostalMime from 'postal-mime';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashToken } from '../../core/auth/admins.ts';
import { claimJobs } from '../../core/jobs/queue.ts';
import { type JobLogger, type JobWorker, createJobWorker } from '../../core/jobs/worker.ts';
import { createFailedMailConsole } from '../../core/mail/failed-mail.ts';
import {
  type Mailer,
  SMTP_TIMEOUTS,
  createMailer,
  createSmtpMailer,
  smtpTransportOptions,
} from '../../core/mail/mailer.ts';
import {
  MAIL_ALERT_KEY_PREFIX,
  MAIL_JOB,
  MAIL_RETRY_WINDOW_MS,
  createSendMailHandler,
  enqueueMail,
  isPermanentMailError,
} from '../../core/mail/send-mail-job.ts';
import { renderReceipt } from '../../core/mail/templates/receipt.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { RESEND_NOT_FAILED_MESSAGE, RESEND_QUEUED_MESSAGE } from '../../server/api/admin-mail.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { type SmtpSink, startSmtpSink } from '../fakes/smtp.ts';
import { type TestClock, createTestClock } from '../support/clock.ts';
import { type TestDatabase, dialects, openTestDatabase } from '../support/databases.ts';
import { insertRawJob, jobCounts } from '../support/jobs.ts';

const FROM = 'Boostly <orders@boostly.test>';

function captureLogger() {
  const lines: { level: string; msg: string | undefined; obj: Record<string, unknown> }[] = [];
  const at = (level: string) => (obj: object, msg?: string) =>
    lines.push({ level, obj: obj as Record<string, unknown>, msg });
  return { lines, logger: { info: at('info'), warn: at('warn'), error: at('error') } satisfies JobLogger };
}

const receipt = (email = 'ana@example.com', target = 'boostly.demo') => ({
  to: email,
  ...renderReceipt({
    orderNumber: 'BST-10042',
    serviceName: 'Instagram Followers',
    target,
    quantity: 1000,
    amountText: '$2.99',
    trackingUrl: 'http://localhost:3000/order/BST-10042',
    email,
  }),
  headers: { 'X-Boostly-Order': 'BST-10042' },
});

describe('mailers', () => {
  let sink: SmtpSink;
  let dir: string;
  const mailers: Mailer[] = [];

  beforeEach(async () => {
    sink = await startSmtpSink();
    dir = mkdtempSync(path.join(tmpdir(), 'boostly-mail-'));
  });
  afterEach(async () => {
    await Promise.all(mailers.splice(0).map((m) => m.close()));
    await sink.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('uses a pooled SMTP transport with short timeouts; the URL can override them', () => {
    expect(smtpTransportOptions('smtp://user:p%40ss@mail.example.com:2525')).toMatchObject({
      host: 'mail.example.com',
      port: 2525,
      secure: false,
      auth: { user: 'user', pass: 'p@ss' },
      pool: true,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
    expect(SMTP_TIMEOUTS).toEqual({ connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 });
    expect(smtpTransportOptions('smtps://mail.example.com?socketTimeout=5000')).toMatchObject({
      secure: true,
      socketTimeout: 5000,
    });
    expect(() => smtpTransportOptions('http://mail.example.com')).toThrow(/SMTP_URL/);
  });

  it('the SMTP mailer delivers a receipt with an HTML and a text part', async () => {
    const { lines, logger } = captureLogger();
    const mailer = createSmtpMailer({ url: sink.url, from: FROM, logger });
    mailers.push(mailer);
    const { messageId } = await mailer.send(receipt());
    const message = await sink.waitForMessage((m) => m.to === 'ana@example.com', 5000);

    expect(message.subject).toBe('Your Boostly order BST-10042 is confirmed');
    expect(message.from).toBe('orders@boostly.test');
    expect(message.parsed.from?.address).toBe('orders@boostly.test');
    expect(message.parsed.messageId).toBe(messageId);
    expect(message.raw.toString()).toMatch(/Content-Type: multipart\/alternative/i);
    expect(message.html).toContain('Track your order');
    expect(message.html).toContain('href="http://localhost:3000/order/BST-10042"');
    expect(message.text).toContain('BST-10042');
    expect(message.text).toContain('Track your order: http://localhost:3000/order/BST-10042');
    expect(message.parsed.headers.find((h) => h.key === 'x-boostly-order')?.value).toBe('BST-10042');
    expect(lines.some((l) => l.msg === 'mail sent' && l.obj.messageId === messageId)).toBe(true);
  });

  it('the file mailer writes a parseable .eml into a new directory and logs its path', async () => {
    const { lines, logger } = captureLogger();
    const mailDir = path.join(dir, 'data', 'mail');
    const mailer = createMailer({ dir: mailDir, from: FROM, logger });
    mailers.push(mailer);
    const { messageId } = await mailer.send(receipt('Ana.Silva+shop@Example.com', '<script>alert(1)</script>'));

    const files = readdirSync(mailDir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z-ana\.silva\+shop@example\.com-[0-9a-f]{8}\.eml$/);
    const raw = readFileSync(path.join(mailDir, files[0]));
    expect(raw.toString()).toContain('\r\n');
    expect(raw.toString()).not.toMatch(/[^\r]\n/);

    const parsed = await PostalMime.parse(raw);
    expect(parsed.subject).toBe('Your Boostly order BST-10042 is confirmed');
    // nodemailer lowercases the domain part.
    expect(parsed.to?.[0]).toMatchObject({ address: 'Ana.Silva+shop@example.com' });
    expect(parsed.from).toMatchObject({ address: 'orders@boostly.test', name: 'Boostly' });
    expect(parsed.messageId).toBe(messageId);
    expect(parsed.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(parsed.html).not.toContain('<script>');
    expect(parsed.text).toContain('Instagram Followers');

    const line = lines.find((l) => l.level === 'info');
    expect(line?.obj.file).toBe(path.join(mailDir, files[0]));
    expect(line?.msg).toContain(path.join(mailDir, files[0]));

    await mailer.send(receipt());
    expect(readdirSync(mailDir)).toHaveLength(2);
  });

  it('createMailer picks SMTP when a URL is given', async () => {
    const mailer = createMailer({ smtpUrl: sink.url, dir, from: FROM, logger: captureLogger().logger });
    mailers.push(mailer);
    await mailer.send(receipt('smtp@example.com'));
    await sink.waitForMessage((m) => m.to === 'smtp@example.com');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('classifies SMTP failures: rejections are permanent, 4xx and connection errors are not', async () => {
    const mailer = createSmtpMailer({ url: sink.url, from: FROM, logger: captureLogger().logger });
    mailers.push(mailer);

    sink.failWith = 'reject';
    const rejected = await mailer.send(receipt()).catch((err: unknown) => err);
    expect(rejected).toMatchObject({ responseCode: 550, code: 'EENVELOPE' });
    expect(isPermanentMailError(rejected)).toBe(true);

    sink.failWith = 'tempfail';
    const busy = await mailer.send(receipt()).catch((err: unknown) => err);
    expect(busy).toMatchObject({ responseCode: 451 });
    expect(isPermanentMailError(busy)).toBe(false);

    sink.failWith = null;
    await sink.stop();
    const down = await mailer.send(receipt()).catch((err: unknown) => err);
    expect(down).toBeInstanceOf(Error);
    expect(isPermanentMailError(down)).toBe(false);
    expect(isPermanentMailError(Object.assign(new Error('auth'), { code: 'EAUTH', responseCode: 535 }))).toBe(false);
    expect(isPermanentMailError(Object.assign(new Error('No recipients defined'), { code: 'EENVELOPE' }))).toBe(true);
  });

  it('a server that accepts but never greets fails within the configured timeout', async () => {
    const sockets = new Set<Socket>();
    const blackHole: Server = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
    const { port } = blackHole.address() as AddressInfo;
    const mailer = createSmtpMailer({
      url: `smtp://127.0.0.1:${port}?greetingTimeout=300`,
      from: FROM,
      logger: captureLogger().logger,
    });
    mailers.push(mailer);
    try {
      const started = Date.now();
      const error = await mailer.send(receipt()).catch((err: unknown) => err);
      expect(Date.now() - started).toBeLessThan(5000);
      expect(error).toMatchObject({ code: 'ETIMEDOUT' });
      expect(isPermanentMailError(error)).toBe(false);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => blackHole.close(resolve));
    }
  });
});

describe.each(dialects)('mail.send jobs on %s', (dialect) => {
  let database: TestDatabase;
  let sink: SmtpSink;
  let mailer: Mailer;
  const getJob = (id: number) =>
    database.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const makeDue = (id: number) =>
    database.db.updateTable('jobs').set({ run_at: new Date().toISOString() }).where('id', '=', id).execute();

  beforeEach(async () => {
    database = await openTestDatabase(dialect);
    await migrateToLatest(database.db);
    sink = await startSmtpSink();
    mailer = createSmtpMailer({ url: sink.url, from: FROM, logger: captureLogger().logger });
  });
  afterEach(async () => {
    await mailer.close();
    await sink.close();
    await database.dispose();
  });

  const worker = (logger: JobLogger = captureLogger().logger) =>
    createJobWorker({
      db: database.db,
      handlers: [createSendMailHandler(mailer)],
      workerId: 'mail-worker',
      logger,
    });

  it('retries while the SMTP server is down, then delivers exactly once', async () => {
    await sink.stop();
    const { lines, logger } = captureLogger();
    const w = worker(logger);
    const queued = await database.db
      .transaction()
      .execute((trx) => enqueueMail(trx, receipt(), { dedupeKey: 'receipt:42' }));
    if (!queued.enqueued) throw new Error('not enqueued');
    expect(await enqueueMail(database.db, receipt(), { dedupeKey: 'receipt:42' })).toEqual({ enqueued: false });

    expect(await w.runOnce()).toBe(1);
    let job = await getJob(queued.id);
    expect(job).toMatchObject({ kind: 'mail.send', status: 'pending', attempts: 1, locked_by: null });
    expect(job.last_error).toMatch(/ECONNREFUSED|ECONNECTION|ESOCKET/);
    expect(Date.parse(job.run_at)).toBeGreaterThan(Date.now() + 3000);
    expect(lines.some((l) => l.msg === 'job failed; will retry')).toBe(true);
    expect(sink.messages).toHaveLength(0);

    // Not due yet: nothing happens even once the server is back.
    await sink.restart();
    expect(await w.runOnce()).toBe(0);

    await makeDue(queued.id);
    expect(await w.runOnce()).toBe(1);
    const message = await sink.waitForMessage((m) => m.to === 'ana@example.com');
    expect(message.subject).toBe('Your Boostly order BST-10042 is confirmed');
    expect(message.html).toContain('Track your order');
    expect(message.text).toContain('BST-10042');
    job = await getJob(queued.id);
    expect(job).toMatchObject({ status: 'done', attempts: 2 });

    // runOnce settles only after the jobs it claimed have run, and the sink records a message
    // before it acknowledges it: claiming nothing, it cannot have sent a second one.
    expect(await w.runOnce()).toBe(0);
    expect(sink.messages).toHaveLength(1);
    expect(await jobCounts(database.db)).toEqual({ pending: 0, running: 0, done: 1, failed: 0 });
  });

  it('fails permanently when the server rejects the address (550)', async () => {
    sink.failWith = 'reject';
    const queued = await enqueueMail(database.db, receipt('nobody@example.com'));
    if (!queued.enqueued) throw new Error('not enqueued');
    expect(await worker().runOnce()).toBe(1);
    const job = await getJob(queued.id);
    expect(job).toMatchObject({ status: 'failed', attempts: 1 });
    expect(job.last_error).toMatch(/^PermanentJobError: mail rejected \(550\)/);
    expect(job.last_error).toContain('mailbox unavailable');
    expect(sink.messages).toHaveLength(0);
  });

  it('retries a temporary 451 refusal', async () => {
    sink.failWith = 'tempfail';
    const queued = await enqueueMail(database.db, receipt());
    if (!queued.enqueued) throw new Error('not enqueued');
    const w = worker();
    await w.runOnce();
    expect(await getJob(queued.id)).toMatchObject({ status: 'pending', attempts: 1 });
    sink.failWith = null;
    await makeDue(queued.id);
    await w.runOnce();
    expect(await getJob(queued.id)).toMatchObject({ status: 'done', attempts: 2 });
    expect(sink.messages).toHaveLength(1);
  });

  it('fails an invalid payload permanently without contacting the server', async () => {
    // Stored as is (enqueueMail would refuse it): the worker's schema check is what is tested.
    const id = await insertRawJob(database.db, MAIL_JOB, JSON.stringify({ to: '', subject: 1 }));
    await worker().runOnce();
    const job = await getJob(id);
    expect(job.status).toBe('failed');
    expect(job.last_error).toMatch(/invalid mail.send payload: .*subject must be a string/);
    expect(sink.attempts).toBe(0);
    expect(await claimJobs(database.db, { workerId: 'x', limit: 10, leaseMs: 1000 })).toEqual([]);
  });
});

describe.each(dialects)('mail through a long SMTP outage on %s', (dialect) => {
  const MINUTE = 60_000;
  const HOUR = 60 * MINUTE;
  let database: TestDatabase;
  let sink: SmtpSink;
  let mailer: Mailer;
  let clock: TestClock;
  let lines: ReturnType<typeof captureLogger>['lines'];
  let worker: JobWorker;

  beforeEach(async () => {
    database = await openTestDatabase(dialect);
    await migrateToLatest(database.db);
    sink = await startSmtpSink();
    mailer = createSmtpMailer({ url: sink.url, from: FROM, logger: captureLogger().logger });
    clock = createTestClock();
    const captured = captureLogger();
    lines = captured.lines;
    worker = createJobWorker({
      db: database.db,
      handlers: [createSendMailHandler(mailer, { db: database.db, publicUrl: 'https://shop.example', now: clock.now })],
      workerId: 'outage-worker',
      now: clock.now,
      logger: captured.logger,
    });
  });
  afterEach(async () => {
    await worker.stop();
    await mailer.close();
    await sink.close();
    await database.dispose();
  });

  const mailJobs = () =>
    database.db.selectFrom('jobs').selectAll().where('kind', '=', MAIL_JOB).orderBy('id').execute();
  /** Moves the store's clock in steps, running a batch after each, as a live worker would. */
  async function runFor(ms: number, step = 5 * MINUTE) {
    for (let moved = 0; moved < ms; moved += step) {
      clock.advance(step);
      while ((await worker.runOnce()) > 0) {
        // A full batch: poll again at once, as the worker's loop does.
      }
    }
  }
  async function addAdmin(email: string) {
    const at = new Date().toISOString();
    await database.db
      .insertInto('admins')
      .values({
        email,
        password_hash: 'scrypt$unused',
        created_at: at,
        updated_at: at,
        last_failed_at: null,
        locked_until: null,
      })
      .execute();
  }

  it('keeps retrying through 24 hours of SMTP outage, then delivers every message exactly once', async () => {
    await sink.stop();
    const recipients = ['a@example.com', 'b@example.com', 'c@example.com'];
    for (const [i, to] of recipients.entries())
      await enqueueMail(database.db, receipt(to), { dedupeKey: `receipt:${i}`, now: clock.now() });

    await runFor(24 * HOUR);
    const during = await mailJobs();
    expect(during.map((job) => job.status)).toEqual(['pending', 'pending', 'pending']);
    // Tried all day (backoff capped at an hour), not given up after a few minutes.
    for (const job of during) expect(job.attempts).toBeGreaterThanOrEqual(25);
    expect(sink.messages).toHaveLength(0);
    expect(lines.some((l) => l.msg === 'job failed permanently')).toBe(false);

    await sink.restart();
    await runFor(2 * HOUR);
    expect((await mailJobs()).map((job) => job.status)).toEqual(['done', 'done', 'done']);
    expect(sink.messages.map((m) => m.to).sort()).toEqual(recipients);
    await runFor(6 * HOUR, HOUR);
    expect(sink.messages).toHaveLength(3);
  });

  it('gives a mail up only after 3 days, alerts every admin once, lists it, and resends it exactly once', async () => {
    await addAdmin('owner@example.com');
    await addAdmin('second@example.com');
    await sink.stop();
    const queued = await enqueueMail(database.db, receipt('lost@example.com'), { now: clock.now() });
    if (!queued.enqueued) throw new Error('not enqueued');

    await runFor(MAIL_RETRY_WINDOW_MS - 2 * HOUR, 30 * MINUTE);
    expect((await mailJobs())[0]).toMatchObject({ status: 'pending' });

    await runFor(3 * HOUR, 30 * MINUTE);
    const [failed, ...alerts] = await mailJobs();
    expect(failed).toMatchObject({ id: queued.id, status: 'failed' });
    expect(failed.last_error).toMatch(/ECONNREFUSED|ECONNECTION|ESOCKET/);
    // The last attempt happened at the end of the window, not an hour short of it.
    expect(Date.parse(failed.updated_at) - Date.parse(failed.created_at)).toBeGreaterThanOrEqual(MAIL_RETRY_WINDOW_MS);
    expect(alerts.map((job) => JSON.parse(job.payload_json).to).sort()).toEqual([
      'owner@example.com',
      'second@example.com',
    ]);

    const console = createFailedMailConsole({ db: database.db, now: clock.now });
    expect(await console.count()).toBe(1);
    expect(await console.list()).toEqual([
      {
        id: queued.id,
        to: 'lost@example.com',
        subject: 'Your Boostly order BST-10042 is confirmed',
        attempts: failed.attempts,
        lastError: failed.last_error,
        queuedAt: failed.created_at,
        failedAt: failed.updated_at,
      },
    ]);

    // The server is back: the alerts go out, and the admin sends the lost mail again.
    await sink.restart();
    await runFor(HOUR, 30 * MINUTE);
    const alertMail = sink.messages.find((m) => m.to === 'owner@example.com');
    expect(alertMail?.subject).toBe('Boostly: an e-mail to lost@example.com could not be delivered');
    expect(alertMail?.text).toContain('Your Boostly order BST-10042 is confirmed');
    expect(alertMail?.text).toContain('https://shop.example/admin/mail');
    expect(sink.messages.filter((m) => m.to === 'lost@example.com')).toHaveLength(0);

    expect(await console.resend(queued.id)).toEqual({ ok: true });
    expect(await console.resend(queued.id)).toEqual({ ok: false, reason: 'not-failed' });
    expect(await console.resend(999_999)).toEqual({ ok: false, reason: 'not-found' });
    expect(await console.count()).toBe(0);
    await runFor(HOUR, 30 * MINUTE);
    expect(sink.messages.filter((m) => m.to === 'lost@example.com')).toHaveLength(1);
    expect((await mailJobs())[0]).toMatchObject({ status: 'done', attempts: failed.attempts + 1 });
    // Two admins, one alert each.
    expect(sink.messages).toHaveLength(3);
  });

  it('a resent mail gets one attempt; failing again it is back on the list and alerted again', async () => {
    await addAdmin('owner@example.com');
    sink.failWith = 'reject';
    const queued = await enqueueMail(database.db, receipt('nobody@example.com'), { now: clock.now() });
    if (!queued.enqueued) throw new Error('not enqueued');
    await runFor(MINUTE, MINUTE);
    const console = createFailedMailConsole({ db: database.db, now: clock.now });
    const listed = async () => (await console.list()).filter((mail) => mail.to === 'nobody@example.com');
    expect(await listed()).toMatchObject([{ id: queued.id, attempts: 1 }]);

    sink.failWith = 'tempfail';
    expect(await console.resend(queued.id)).toEqual({ ok: true });
    await runFor(2 * HOUR, 10 * MINUTE);
    expect(await listed()).toMatchObject([{ id: queued.id, attempts: 2 }]);
    const alerts = (await mailJobs()).filter((job) => job.dedupe_key?.startsWith(MAIL_ALERT_KEY_PREFIX));
    expect(alerts.map((job) => job.dedupe_key)).toEqual([
      `${MAIL_ALERT_KEY_PREFIX}${queued.id}:1:1`,
      `${MAIL_ALERT_KEY_PREFIX}${queued.id}:2:1`,
    ]);
    // The first alert was refused (550) and is listed too, but an alert that fails is never
    // alerted about: no alert names an alert's job.
    const alertIds = new Set(alerts.map((job) => `${MAIL_ALERT_KEY_PREFIX}${job.id}:`));
    expect((await mailJobs()).filter((job) => [...alertIds].some((key) => job.dedupe_key?.startsWith(key)))).toEqual(
      [],
    );
  });
});

describe.each(dialects)('the failed-mail admin API on %s', (dialect) => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    const admin = await t.store.adminAuth.createAdmin('mail.admin@example.com', 'a long enough admin password');
    await t.database.db.updateTable('admins').set({ is_verified: 1 }).where('id', '=', admin.id).execute();
    // A session as a login issues one (the login itself is tested in admin-auth.test.ts).
    token = randomBytes(32).toString('base64url');
    const at = new Date();
    await t.database.db
      .insertInto('admin_tokens')
      .values({
        admin_id: admin.id,
        token_hash: hashToken(token),
        created_at: at.toISOString(),
        expires_at: new Date(at.getTime() + 3_600_000).toISOString(),
        revoked_at: null,
        last_used_at: null,
      })
      .execute();
  });
  afterAll(async () => {
    await t?.close();
  });

  const call = (method: 'GET' | 'POST', url: string, bearer: string | null = token) =>
    t.app.inject({ method, url, headers: bearer ? { authorization: `Bearer ${bearer}` } : {} });

  it('lists failed mail with its count, and resends one exactly once', async () => {
    const queued = await enqueueMail(t.database.db, receipt('gone@example.com'));
    if (!queued.enqueued) throw new Error('not enqueued');
    await t.database.db
      .updateTable('jobs')
      .set({ status: 'failed', attempts: 97, last_error: 'Error [ECONNECTION]: connect ECONNREFUSED' })
      .where('id', '=', queued.id)
      .execute();

    const count = await call('GET', '/api/admin/mail/failed/count');
    expect(count.statusCode).toBe(200);
    expect(count.headers['cache-control']).toBe('private, no-store');
    expect(count.json()).toEqual({ isSuccessful: true, message: 'Success', data: { count: 1 } });
    const list = await call('GET', '/api/admin/mail/failed');
    expect(list.json().data).toEqual([
      expect.objectContaining({
        id: queued.id,
        to: 'gone@example.com',
        subject: 'Your Boostly order BST-10042 is confirmed',
        attempts: 97,
        lastError: 'Error [ECONNECTION]: connect ECONNREFUSED',
      }),
    ]);
    // Never the body: a code e-mail's body holds the code.
    expect(list.body).not.toContain('Track your order');

    const resent = await call('POST', `/api/admin/mail/${queued.id}/resend`);
    expect(resent.statusCode, resent.body).toBe(202);
    expect(resent.json()).toEqual({ isSuccessful: true, message: RESEND_QUEUED_MESSAGE, data: { id: queued.id } });
    const again = await call('POST', `/api/admin/mail/${queued.id}/resend`);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ isSuccessful: false, message: RESEND_NOT_FAILED_MESSAGE });
    const job = await t.database.db
      .selectFrom('jobs')
      .selectAll()
      .where('id', '=', queued.id)
      .executeTakeFirstOrThrow();
    expect(job).toMatchObject({ status: 'pending', attempts: 97, max_attempts: 98 });
    expect((await call('GET', '/api/admin/mail/failed/count')).json().data).toEqual({ count: 0 });

    expect((await call('POST', '/api/admin/mail/424242/resend')).statusCode).toBe(404);
    expect((await call('POST', '/api/admin/mail/not-a-number/resend')).statusCode).toBe(400);
  });

  it('answers 401 without a valid token on every route', async () => {
    for (const [method, url] of [
      ['GET', '/api/admin/mail/failed'],
      ['GET', '/api/admin/mail/failed/count'],
      ['POST', '/api/admin/mail/1/resend'],
    ] as const) {
      expect((await call(method, url, null)).statusCode, url).toBe(401);
      expect((await call(method, url, 'not-a-real-token')).statusCode, url).toBe(401);
    }
  });
});
