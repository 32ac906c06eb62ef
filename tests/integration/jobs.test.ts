import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  claimJobs,
  completeJob,
  defineJob,
  enqueueJob,
  failJob,
  type JobRow,
  releaseJob,
  renewLease,
} from '../../core/jobs/queue.ts';
import { type JobLogger, PermanentJobError, createJobWorker, handleJob } from '../../core/jobs/worker.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { type TestDatabase, dialects, openTestDatabase } from '../support/databases.ts';
import { insertRawJob, jobCounts } from '../support/jobs.ts';

const silentLogger: JobLogger = { info() {}, warn() {}, error() {} };

/** A test kind taking any JSON payload: the queue's mechanics do not depend on it. */
const anyJob = (kind: string) => defineJob({ kind, payload: z.unknown() });
/** A test kind with a typed payload. */
const indexedJob = (kind: string) => defineJob({ kind, payload: z.object({ i: z.number().int() }) });

function captureLogger() {
  const lines: { level: string; msg: string | undefined; obj: object }[] = [];
  const at = (level: string) => (obj: object, msg?: string) => lines.push({ level, obj, msg });
  return { lines, logger: { info: at('info'), warn: at('warn'), error: at('error') } satisfies JobLogger };
}

const at = (iso: string, plusMs = 0) => new Date(Date.parse(iso) + plusMs);

describe.each(dialects)('jobs queue on %s', (dialect) => {
  let database: TestDatabase;
  const getJob = (id: number) =>
    database.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const makeDue = (id: number) =>
    database.db.updateTable('jobs').set({ run_at: new Date().toISOString() }).where('id', '=', id).execute();

  beforeEach(async () => {
    database = await openTestDatabase(dialect);
    await migrateToLatest(database.db);
  });
  afterEach(async () => {
    await database.dispose();
  });

  it('enqueues a pending job and ignores a second job with the same dedupe key', async () => {
    const first = await enqueueJob(
      database.db,
      anyJob('mail.send'),
      { to: 'a@example.com' },
      { dedupeKey: 'receipt:1' },
    );
    expect(first).toEqual({ enqueued: true, id: expect.any(Number) });
    const again = await enqueueJob(
      database.db,
      anyJob('mail.send'),
      { to: 'other@example.com' },
      { dedupeKey: 'receipt:1' },
    );
    expect(again).toEqual({ enqueued: false });

    // Without a key there is no de-duplication (NULLs are distinct in a UNIQUE column).
    await enqueueJob(database.db, anyJob('noop'), null);
    await enqueueJob(database.db, anyJob('noop'), null);

    const rows = await database.db.selectFrom('jobs').selectAll().orderBy('id').execute();
    expect(rows).toHaveLength(3);
    const job = rows[0];
    if (!first.enqueued) throw new Error('unreachable');
    expect(job).toMatchObject({
      id: first.id,
      kind: 'mail.send',
      dedupe_key: 'receipt:1',
      status: 'pending',
      attempts: 0,
      max_attempts: 8,
      locked_by: null,
      locked_until: null,
      last_error: null,
    });
    expect(JSON.parse(job.payload_json)).toEqual({ to: 'a@example.com' });
    expect(job.run_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(await jobCounts(database.db)).toEqual({ pending: 3, running: 0, done: 0, failed: 0 });
  });

  it('commits a job with its transaction and leaves none after a rollback', async () => {
    await expect(
      database.db.transaction().execute(async (trx) => {
        await enqueueJob(trx, anyJob('mail.send'), { n: 1 }, { dedupeKey: 'rolled-back' });
        throw new Error('the order update failed');
      }),
    ).rejects.toThrow('the order update failed');
    expect(await database.db.selectFrom('jobs').selectAll().execute()).toEqual([]);

    await database.db.transaction().execute(async (trx) => {
      await enqueueJob(trx, anyJob('mail.send'), { n: 2 }, { dedupeKey: 'rolled-back' });
    });
    const rows = await database.db.selectFrom('jobs').selectAll().execute();
    expect(rows.map((r) => JSON.parse(r.payload_json))).toEqual([{ n: 2 }]);
  });

  it('claims only due jobs and records the lease', async () => {
    const now = new Date('2030-01-01T00:00:00.000Z');
    await enqueueJob(database.db, anyJob('a'), 1, { now });
    await enqueueJob(database.db, anyJob('a'), 2, { now, runAt: at(now.toISOString(), 10_000) });
    await enqueueJob(database.db, anyJob('b'), 3, { now });

    const claimed = await claimJobs(database.db, { workerId: 'w1', limit: 10, leaseMs: 30_000, now, kinds: ['a'] });
    expect(claimed.map((j) => JSON.parse(j.payload_json))).toEqual([1]);
    expect(claimed[0]).toMatchObject({
      status: 'running',
      locked_by: 'w1',
      locked_until: '2030-01-01T00:00:30.000Z',
      attempts: 1,
    });

    expect(await claimJobs(database.db, { workerId: 'w1', limit: 10, leaseMs: 30_000, now, kinds: ['a'] })).toEqual([]);
    expect(await claimJobs(database.db, { workerId: 'w1', limit: 10, leaseMs: 30_000, now, kinds: [] })).toEqual([]);

    const later = await claimJobs(database.db, {
      workerId: 'w1',
      limit: 10,
      leaseMs: 30_000,
      now: at(now.toISOString(), 20_000),
    });
    expect(later.map((j) => JSON.parse(j.payload_json)).sort()).toEqual([2, 3]);
    expect(await jobCounts(database.db)).toMatchObject({ pending: 0, running: 3 });
  });

  it('claims at most `limit` jobs, oldest run_at first', async () => {
    const base = '2030-01-01T00:00:00.000Z';
    for (let i = 5; i >= 1; i--) await enqueueJob(database.db, anyJob('a'), i, { runAt: at(base, i * 1000) });
    const first = await claimJobs(database.db, { workerId: 'w', limit: 2, leaseMs: 1000, now: at(base, 10_000) });
    expect(first.map((j) => JSON.parse(j.payload_json))).toEqual([1, 2]);
  });

  it('never gives the same job to two concurrent claimers (two app instances)', async () => {
    const second = database.openAnother();
    try {
      const total = 50;
      for (let i = 0; i < total; i++) await enqueueJob(database.db, anyJob('work'), { i });

      const claimers = [
        { db: database.db, workerId: 'instance-a' },
        { db: second.db, workerId: 'instance-b' },
      ];
      const batches = await Promise.all(
        claimers.flatMap(({ db, workerId }) =>
          Array.from({ length: 12 }, (_, n) =>
            claimJobs(db, { workerId: `${workerId}-${n}`, limit: 3, leaseMs: 60_000 }),
          ),
        ),
      );
      const ids = batches.flat().map((j) => j.id);
      expect(new Set(ids).size).toBe(ids.length);
      // Both instances got work, and a final claim finds nothing left.
      expect(ids.length).toBe(total);
      expect(await claimJobs(database.db, { workerId: 'late', limit: 100, leaseMs: 60_000 })).toEqual([]);

      const rows = await database.db.selectFrom('jobs').select(['id', 'locked_by', 'attempts', 'status']).execute();
      expect(rows.every((r) => r.status === 'running' && r.attempts === 1)).toBe(true);
      const owners = new Map(batches.flat().map((j) => [j.id, j.locked_by]));
      for (const row of rows) expect(row.locked_by).toBe(owners.get(row.id));
    } finally {
      await second.close();
    }
  });

  it('two workers on two instances run every job exactly once', async () => {
    const second = database.openAnother();
    try {
      for (let i = 0; i < 30; i++) await enqueueJob(database.db, anyJob('count'), { i });
      const runs: number[] = [];
      const handlers = [
        handleJob(indexedJob('count'), async (payload) => {
          await new Promise((r) => setTimeout(r, 1));
          runs.push(payload.i);
        }),
      ];
      const a = createJobWorker({ db: database.db, handlers, workerId: 'a', batch: 4, logger: silentLogger });
      const b = createJobWorker({ db: second.db, handlers, workerId: 'b', batch: 4, logger: silentLogger });
      const drain = async (w: typeof a) => {
        while ((await w.runOnce()) > 0);
      };
      await Promise.all([drain(a), drain(b), drain(a), drain(b)]);
      expect(runs.sort((x, y) => x - y)).toEqual(Array.from({ length: 30 }, (_, i) => i));
      expect(await jobCounts(database.db)).toEqual({ pending: 0, running: 0, done: 30, failed: 0 });
    } finally {
      await second.close();
    }
  });

  it('two workers running batches several at a time run every job exactly once, never more at once than allowed', async () => {
    const second = database.openAnother();
    try {
      const total = 60;
      for (let i = 0; i < total; i++) await enqueueJob(database.db, anyJob('lanes'), { i });
      const runs: number[] = [];
      const active = { a: 0, b: 0 };
      const most = { a: 0, b: 0 };
      const handlersOf = (name: 'a' | 'b') => [
        handleJob(indexedJob('lanes'), async (payload) => {
          active[name] += 1;
          most[name] = Math.max(most[name], active[name]);
          await new Promise((r) => setTimeout(r, 2 + (payload.i % 3)));
          runs.push(payload.i);
          active[name] -= 1;
        }),
      ];
      const options = { batch: 8, concurrency: 4, logger: silentLogger };
      const a = createJobWorker({ db: database.db, handlers: handlersOf('a'), workerId: 'a', ...options });
      const b = createJobWorker({ db: second.db, handlers: handlersOf('b'), workerId: 'b', ...options });
      const drain = async (w: typeof a) => {
        while ((await w.runOnce()) > 0);
      };
      await Promise.all([drain(a), drain(b)]);
      expect(runs.sort((x, y) => x - y)).toEqual(Array.from({ length: total }, (_, i) => i));
      expect(await jobCounts(database.db)).toEqual({ pending: 0, running: 0, done: total, failed: 0 });
      expect(Math.max(most.a, most.b)).toBeGreaterThan(1);
      expect(Math.max(most.a, most.b)).toBeLessThanOrEqual(4);
    } finally {
      await second.close();
    }
  });

  it('reclaims a job whose lease expired (crashed worker)', async () => {
    const t0 = '2030-01-01T00:00:00.000Z';
    await enqueueJob(database.db, anyJob('a'), 1, { now: new Date(t0) });
    const [crashed] = await claimJobs(database.db, { workerId: 'A', limit: 1, leaseMs: 1000, now: new Date(t0) });
    expect(crashed.locked_by).toBe('A');

    expect(await claimJobs(database.db, { workerId: 'B', limit: 1, leaseMs: 1000, now: at(t0, 999) })).toEqual([]);
    const [taken] = await claimJobs(database.db, { workerId: 'B', limit: 1, leaseMs: 1000, now: at(t0, 1001) });
    expect(taken).toMatchObject({
      id: crashed.id,
      locked_by: 'B',
      attempts: 2,
      status: 'running',
      locked_until: '2030-01-01T00:00:02.001Z',
    });
  });

  it('complete, fail, renew and release are compare-and-set on the claim', async () => {
    const t0 = '2030-01-01T00:00:00.000Z';
    await enqueueJob(database.db, anyJob('a'), 1, { now: new Date(t0) });
    const [jobA] = await claimJobs(database.db, { workerId: 'A', limit: 1, leaseMs: 1000, now: new Date(t0) });
    const [jobB] = await claimJobs(database.db, { workerId: 'B', limit: 1, leaseMs: 60_000, now: at(t0, 5000) });

    // A's lease was taken over: A can no longer change the job.
    expect(await completeJob(database.db, jobA, 'A')).toBe(false);
    expect(await failJob(database.db, jobA, 'A', new Error('late'), { retryable: true })).toMatchObject({
      updated: false,
    });
    expect(await renewLease(database.db, jobA, 'A', 1000)).toBe(false);
    expect(await releaseJob(database.db, jobA, 'A')).toBe(false);
    // Even with the right worker id, a stale claim (older attempt) is refused.
    expect(await completeJob(database.db, { ...jobB, attempts: 1 }, 'B')).toBe(false);
    expect(await getJob(jobB.id)).toMatchObject({ status: 'running', locked_by: 'B', attempts: 2, last_error: null });

    expect(await renewLease(database.db, jobB, 'B', 1000, at(t0, 6000))).toBe(true);
    expect((await getJob(jobB.id)).locked_until).toBe('2030-01-01T00:00:07.000Z');
    expect(await completeJob(database.db, jobB, 'B')).toBe(true);
    expect(await completeJob(database.db, jobB, 'B')).toBe(false);
    expect(await getJob(jobB.id)).toMatchObject({ status: 'done', locked_by: 'B', locked_until: null });
    expect(await claimJobs(database.db, { workerId: 'C', limit: 1, leaseMs: 1000, now: at(t0, 3_600_000) })).toEqual(
      [],
    );
  });

  it('release gives an unstarted job back without using an attempt', async () => {
    await enqueueJob(database.db, anyJob('a'), 1);
    const [job] = await claimJobs(database.db, { workerId: 'A', limit: 1, leaseMs: 60_000 });
    expect(await releaseJob(database.db, job, 'A')).toBe(true);
    expect(await getJob(job.id)).toMatchObject({ status: 'pending', attempts: 0, locked_by: null, locked_until: null });
  });

  it('retries with exponential backoff, then fails after max attempts', async () => {
    const t0 = Date.parse('2030-01-01T00:00:00.000Z');
    const { id } = (await enqueueJob(database.db, anyJob('a'), 1, { maxAttempts: 3, now: new Date(t0) })) as {
      id: number;
    };
    let now = t0;
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      // Not claimable a millisecond before it is due.
      if (attempt > 1)
        expect(
          await claimJobs(database.db, { workerId: 'w', limit: 1, leaseMs: 1000, now: new Date(now - 1) }),
        ).toEqual([]);
      const [job] = await claimJobs(database.db, { workerId: 'w', limit: 1, leaseMs: 1000, now: new Date(now) });
      expect(job).toMatchObject({ id, attempts: attempt });
      const result = await failJob(database.db, job, 'w', new Error(`boom ${attempt}`), {
        retryable: true,
        now: new Date(now),
        random: () => 0.5,
      });
      const row = await getJob(id);
      expect(row.last_error).toBe(`Error: boom ${attempt}`);
      if (attempt < 3) {
        expect(result).toMatchObject({ updated: true, status: 'pending' });
        expect(row).toMatchObject({ status: 'pending', locked_by: null, locked_until: null });
        delays.push(Date.parse(row.run_at) - now);
        now = Date.parse(row.run_at);
      } else {
        expect(result).toEqual({ updated: true, status: 'failed', runAt: null });
        expect(row.status).toBe('failed');
      }
    }
    expect(delays).toEqual([5_000, 10_000]);
    expect(
      await claimJobs(database.db, { workerId: 'w', limit: 1, leaseMs: 1000, now: new Date(now + 86_400_000) }),
    ).toEqual([]);
  });

  it('marks a job failed when its lease expires on the last attempt instead of looping', async () => {
    const t0 = '2030-01-01T00:00:00.000Z';
    const { id } = (await enqueueJob(database.db, anyJob('a'), 1, { maxAttempts: 1, now: new Date(t0) })) as {
      id: number;
    };
    await claimJobs(database.db, { workerId: 'A', limit: 1, leaseMs: 1000, now: new Date(t0) });
    expect(await claimJobs(database.db, { workerId: 'B', limit: 1, leaseMs: 1000, now: at(t0, 2000) })).toEqual([]);
    const row = await getJob(id);
    expect(row.status).toBe('failed');
    expect(row.last_error).toMatch(/lease expired/);
  });

  describe('worker', () => {
    it('runs a handler and marks the job done', async () => {
      const seen: { payload: unknown; job: JobRow }[] = [];
      const worker = createJobWorker({
        db: database.db,
        workerId: 'w',
        logger: silentLogger,
        handlers: [
          handleJob(anyJob('greet'), (payload, job) => {
            seen.push({ payload, job });
            return Promise.resolve();
          }),
        ],
      });
      const { id } = (await enqueueJob(database.db, anyJob('greet'), { name: 'Ana' })) as { id: number };
      expect(await worker.runOnce()).toBe(1);
      expect(seen).toEqual([
        { payload: { name: 'Ana' }, job: expect.objectContaining({ id, attempts: 1, locked_by: 'w' }) },
      ]);
      expect(await getJob(id)).toMatchObject({ status: 'done', attempts: 1 });
      expect(await worker.runOnce()).toBe(0);
    });

    it('retries ordinary errors with backoff and fails after max attempts', async () => {
      let calls = 0;
      const worker = createJobWorker({
        db: database.db,
        logger: silentLogger,
        handlers: [
          handleJob(anyJob('flaky'), () => {
            calls++;
            return Promise.reject(new Error('supplier timed out'));
          }),
        ],
      });
      const { id } = (await enqueueJob(database.db, anyJob('flaky'), {}, { maxAttempts: 3 })) as { id: number };
      const before = Date.now();
      expect(await worker.runOnce()).toBe(1);
      let row = await getJob(id);
      expect(row).toMatchObject({ status: 'pending', attempts: 1, last_error: 'Error: supplier timed out' });
      const delay = Date.parse(row.run_at) - before;
      expect(delay).toBeGreaterThanOrEqual(4_000);
      expect(delay).toBeLessThanOrEqual(6_100);
      expect(await worker.runOnce()).toBe(0); // not due yet

      await makeDue(id);
      await worker.runOnce();
      row = await getJob(id);
      expect(row).toMatchObject({ status: 'pending', attempts: 2 });
      expect(Date.parse(row.run_at) - Date.now()).toBeGreaterThan(7_000);

      await makeDue(id);
      await worker.runOnce();
      expect(await getJob(id)).toMatchObject({
        status: 'failed',
        attempts: 3,
        last_error: 'Error: supplier timed out',
      });
      expect(calls).toBe(3);
    });

    it('fails at once on PermanentJobError', async () => {
      const worker = createJobWorker({
        db: database.db,
        logger: silentLogger,
        handlers: [handleJob(anyJob('bad'), () => Promise.reject(new PermanentJobError('the address is invalid')))],
      });
      const { id } = (await enqueueJob(database.db, anyJob('bad'), {})) as { id: number };
      await worker.runOnce();
      expect(await getJob(id)).toMatchObject({
        status: 'failed',
        attempts: 1,
        last_error: 'PermanentJobError: the address is invalid',
      });
    });

    it('fails unknown kinds and unreadable payloads permanently with a clear error', async () => {
      const { lines, logger } = captureLogger();
      const worker = createJobWorker({
        db: database.db,
        logger,
        handlers: [handleJob(anyJob('known'), async () => {})],
      });
      const unknown = (await enqueueJob(database.db, anyJob('no.such.kind'), {})) as { id: number };
      const proto = (await enqueueJob(database.db, anyJob('toString'), {})) as { id: number };
      const { id: broken } = (await enqueueJob(database.db, anyJob('known'), {})) as { id: number };
      await database.db.updateTable('jobs').set({ payload_json: '{not json' }).where('id', '=', broken).execute();

      expect(await worker.runOnce()).toBe(3);
      expect(await getJob(unknown.id)).toMatchObject({
        status: 'failed',
        last_error: 'PermanentJobError: no handler registered for job kind "no.such.kind"',
      });
      expect(await getJob(proto.id)).toMatchObject({ status: 'failed' });
      expect((await getJob(broken)).last_error).toMatch(/^PermanentJobError: payload is not valid JSON/);
      expect(lines.filter((l) => l.level === 'error' && l.msg === 'job failed permanently')).toHaveLength(3);
    });

    it('parses the stored payload with its kind’s schema: a bad one fails for good, the handler never sees it', async () => {
      const fulfil = defineJob({ kind: 'order.fulfil.test', payload: z.object({ orderId: z.number().int() }) });
      const seen: number[] = [];
      const { lines, logger } = captureLogger();
      const worker = createJobWorker({
        db: database.db,
        logger,
        handlers: [
          handleJob(fulfil, (payload) => {
            seen.push(payload.orderId);
            return Promise.resolve();
          }),
        ],
      });
      const good = (await enqueueJob(database.db, fulfil, { orderId: 7 })) as { id: number };
      const stale = await insertRawJob(database.db, fulfil.kind, JSON.stringify({ orderId: 'seven' }));
      const empty = await insertRawJob(database.db, fulfil.kind, 'null');
      expect(await worker.runOnce()).toBe(3);
      expect(seen).toEqual([7]);
      expect(await getJob(good.id)).toMatchObject({ status: 'done' });
      expect(await getJob(stale)).toMatchObject({
        status: 'failed',
        attempts: 1,
        last_error: expect.stringMatching(/^PermanentJobError: invalid order\.fulfil\.test payload: orderId: .*number/),
      });
      expect(await getJob(empty)).toMatchObject({ status: 'failed', attempts: 1 });
      expect((await getJob(empty)).last_error).toMatch(/^PermanentJobError: invalid order\.fulfil\.test payload/);
      expect(lines.filter((l) => l.msg === 'job failed permanently')).toHaveLength(2);
    });

    it('enqueues only a payload of the definition’s type, checked again at run time', async () => {
      const fulfil = defineJob({ kind: 'order.fulfil.test', payload: z.object({ orderId: z.number().int() }) });
      await expect(
        // @ts-expect-error -- the point of the test: the compiler refuses a payload of the wrong type
        enqueueJob(database.db, fulfil, { orderId: '7' }),
      ).rejects.toThrow(/invalid order\.fulfil\.test payload: orderId/);
      await expect(
        // @ts-expect-error -- a missing field is refused by the compiler too
        enqueueJob(database.db, fulfil, {}),
      ).rejects.toThrow(/invalid order\.fulfil\.test payload/);
      expect(await jobCounts(database.db)).toEqual({ pending: 0, running: 0, done: 0, failed: 0 });
      // A handler's payload is the schema's type: reading a field it does not have does not compile.
      handleJob(fulfil, (payload) => {
        // @ts-expect-error -- `missing` is not in the schema
        void payload.missing;
        return Promise.resolve(payload.orderId);
      });
    });

    it('refuses two handlers for one kind', () => {
      const job = anyJob('twice');
      expect(() =>
        createJobWorker({
          db: database.db,
          logger: silentLogger,
          handlers: [handleJob(job, async () => {}), handleJob(job, async () => {})],
        }),
      ).toThrow(/two handlers for job kind twice/);
    });

    it('runs handlers of a batch one after another', async () => {
      let active = 0;
      let maxActive = 0;
      const order: number[] = [];
      const worker = createJobWorker({
        db: database.db,
        logger: silentLogger,
        batch: 5,
        handlers: [
          handleJob(indexedJob('slow'), async (payload) => {
            active++;
            maxActive = Math.max(maxActive, active);
            await new Promise((r) => setTimeout(r, 5));
            order.push(payload.i);
            active--;
          }),
        ],
      });
      for (let i = 0; i < 7; i++)
        await enqueueJob(database.db, anyJob('slow'), { i }, { runAt: new Date(Date.now() - 1000 + i) });
      expect(await worker.runOnce()).toBe(5);
      expect(await worker.runOnce()).toBe(2);
      expect(maxActive).toBe(1);
      expect(order).toEqual([0, 1, 2, 3, 4, 5, 6]);
    });

    it('polls by itself, survives a failing poll, and stop() waits for the running handler', async () => {
      let release!: () => void;
      const gate = new Promise<void>((r) => {
        release = r;
      });
      const started: number[] = [];
      const finished: number[] = [];
      const { lines, logger } = captureLogger();
      const worker = createJobWorker({
        db: database.db,
        logger,
        pollMs: 20,
        batch: 1,
        handlers: [
          handleJob(indexedJob('wait'), async (payload) => {
            started.push(payload.i);
            await gate;
            finished.push(payload.i);
          }),
        ],
      });
      worker.start();
      worker.start(); // idempotent
      await enqueueJob(database.db, anyJob('wait'), { i: 1 });
      worker.wake();
      await expect.poll(() => started, { timeout: 5000 }).toEqual([1]);

      const stopping = worker.stop();
      let stopped = false;
      void stopping.then(() => {
        stopped = true;
      });
      // A grace period for a negative check: stop() must not resolve while the handler is blocked.
      await new Promise((r) => setTimeout(r, 50));
      expect(stopped).toBe(false);
      release();
      await stopping;
      expect(finished).toEqual([1]);
      expect(await jobCounts(database.db)).toMatchObject({ done: 1 });

      // After stop nothing is polled any more.
      await enqueueJob(database.db, anyJob('wait'), { i: 2 });
      // Four poll periods (pollMs 20) as a grace period for a negative check: nothing may start.
      await new Promise((r) => setTimeout(r, 80));
      expect(started).toEqual([1]);

      // A poll that throws (here: the database is gone) is logged, not thrown.
      const broken = await openTestDatabase(dialect);
      await broken.dispose();
      const orphan = createJobWorker({ db: broken.db, logger, pollMs: 10, handlers: [] });
      orphan.start();
      await expect.poll(() => lines.some((l) => l.msg === 'job worker poll failed'), { timeout: 5000 }).toBe(true);
      await orphan.stop();
    });

    it('a free lane takes the next due job at once, while a slow job of the same claim still runs', async () => {
      let release!: () => void;
      const gate = new Promise<void>((r) => {
        release = r;
      });
      const ran: number[] = [];
      const worker = createJobWorker({
        db: database.db,
        logger: silentLogger,
        // No timer poll during the test: only wake() and finished jobs may claim.
        pollMs: 60_000,
        batch: 8,
        concurrency: 2,
        handlers: [
          handleJob(indexedJob('mixed'), async (payload) => {
            if (payload.i === 0) await gate;
            ran.push(payload.i);
          }),
        ],
      });
      await enqueueJob(database.db, anyJob('mixed'), { i: 0 });
      worker.start();
      await expect.poll(async () => (await jobCounts(database.db)).running, { timeout: 5000 }).toBe(1);
      // Enqueued after the slow job was claimed: it must not wait for the slow one to end.
      await enqueueJob(database.db, anyJob('mixed'), { i: 1 });
      worker.wake();
      await expect.poll(() => ran, { timeout: 5000 }).toEqual([1]);
      release();
      await expect.poll(() => ran, { timeout: 5000 }).toEqual([1, 0]);
      await worker.stop();
      expect(await jobCounts(database.db)).toMatchObject({ done: 2, running: 0 });
    });

    it('runs jobs with the same exclusive key one after the other, and others beside them', async () => {
      const perOrder = defineJob({
        kind: 'per-order',
        payload: z.object({ orderId: z.number().int(), i: z.number().int() }),
        exclusiveKey: ({ orderId }) => `order:${orderId}`,
      });
      let releaseFirst!: () => void;
      const firstHeld = new Promise<void>((r) => {
        releaseFirst = r;
      });
      const started: number[] = [];
      const ended: number[] = [];
      const worker = createJobWorker({
        db: database.db,
        logger: silentLogger,
        pollMs: 60_000,
        batch: 8,
        concurrency: 4,
        handlers: [
          handleJob(perOrder, async ({ i }) => {
            started.push(i);
            if (i === 0) await firstHeld;
            ended.push(i);
          }),
        ],
      });
      // 0 and 1 are one order's jobs, 2 another order's: all three are claimed at once.
      await enqueueJob(database.db, perOrder, { orderId: 7, i: 0 });
      await enqueueJob(database.db, perOrder, { orderId: 7, i: 1 });
      await enqueueJob(database.db, perOrder, { orderId: 8, i: 2 });
      worker.start();
      await expect.poll(() => ended, { timeout: 5000 }).toEqual([2]);
      // Order 7's second job has not started while its first is running.
      expect(started.sort()).toEqual([0, 2]);
      releaseFirst();
      await expect.poll(() => ended, { timeout: 5000 }).toEqual([2, 0, 1]);
      await worker.stop();
      expect(await jobCounts(database.db)).toMatchObject({ done: 3, running: 0 });
    });

    it('stop() releases claimed jobs that have not started', async () => {
      let release!: () => void;
      const gate = new Promise<void>((r) => {
        release = r;
      });
      const worker = createJobWorker({
        db: database.db,
        logger: silentLogger,
        batch: 3,
        handlers: [
          handleJob(anyJob('wait'), async () => {
            await gate;
          }),
        ],
      });
      for (let i = 0; i < 3; i++)
        await enqueueJob(database.db, anyJob('wait'), { i }, { runAt: new Date(Date.now() - 1000 + i) });
      const run = worker.runOnce();
      await expect.poll(async () => (await jobCounts(database.db)).running, { timeout: 5000 }).toBe(3);
      const stopping = worker.stop();
      release();
      await stopping;
      expect(await run).toBe(3);
      expect(await jobCounts(database.db)).toEqual({ pending: 2, running: 0, done: 1, failed: 0 });
      const pending = await database.db.selectFrom('jobs').selectAll().where('status', '=', 'pending').execute();
      expect(pending.every((j) => j.attempts === 0 && j.locked_by === null)).toBe(true);
    });
  });
});
