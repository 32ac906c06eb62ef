import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { type AddressInfo, type Server, type Socket, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import PostalMime from 'postal-mime';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claimJobs, jobCounts } from '../../core/jobs/queue.ts';
import { type JobLogger, createJobWorker } from '../../core/jobs/worker.ts';
import {
  type Mailer,
  SMTP_TIMEOUTS,
  createMailer,
  createSmtpMailer,
  smtpTransportOptions,
} from '../../core/mail/mailer.ts';
import { MAIL_JOB, createSendMailHandler, enqueueMail, isPermanentMailError } from '../../core/mail/send-mail-job.ts';
import { renderReceipt } from '../../core/mail/templates/receipt.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { type SmtpSink, startSmtpSink } from '../fakes/smtp.ts';
import { type TestDatabase, dialects, openTestDatabase } from '../support/databases.ts';
import { insertRawJob } from '../support/jobs.ts';

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
    amount: '$2.99',
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
