/**
 * Periodic work as recurring jobs: several workers on one database (as several instances would
 * be) run each recurring job once per time slot, on both dialects.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type RecurringJob,
  defineRecurringJob,
  offerRecurringJobs,
  recurringDedupeKey,
  slotOf,
} from '../../core/jobs/recurring.ts';
import { type JobWorker, createJobWorker, handleJob } from '../../core/jobs/worker.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { type TestDatabase, dialects, openTestDatabase } from '../support/databases.ts';
import { waitFor } from '../support/wait-for.ts';

const silent = { info() {}, warn() {}, error() {} };
const SYNC_JOB = defineRecurringJob('test.sync');
const SYNC: RecurringJob = { job: SYNC_JOB, everyMs: 60_000 };

describe.each(dialects)('recurring jobs on %s', (dialect) => {
  let database: TestDatabase;
  let workers: JobWorker[] = [];
  beforeEach(async () => {
    database = await openTestDatabase(dialect);
    await migrateToLatest(database.db);
  });
  afterEach(async () => {
    await Promise.all(workers.map((worker) => worker.stop()));
    workers = [];
    await database.dispose();
  });

  const jobsOf = (kind: string) =>
    database.db.selectFrom('jobs').select(['dedupe_key', 'status']).where('kind', '=', kind).execute();

  it('enqueues one job per slot however many instances offer it at once', async () => {
    const now = new Date('2026-06-01T12:00:30Z');
    const offers = await Promise.all(Array.from({ length: 6 }, () => offerRecurringJobs(database.db, [SYNC], now)));
    expect(offers.flat()).toEqual([SYNC_JOB.kind]);
    const rows = await jobsOf(SYNC_JOB.kind);
    expect(rows).toEqual([
      { dedupe_key: recurringDedupeKey(SYNC_JOB.kind, slotOf(now, SYNC.everyMs)), status: 'pending' },
    ]);
  });

  it('does not stack a new run behind one that is still open', async () => {
    const first = new Date('2026-06-01T12:00:00Z');
    expect(await offerRecurringJobs(database.db, [SYNC], first)).toEqual([SYNC_JOB.kind]);
    // The first run has not finished by the next slot: nothing new is enqueued.
    expect(await offerRecurringJobs(database.db, [SYNC], new Date(first.getTime() + SYNC.everyMs))).toEqual([]);
    await database.db.updateTable('jobs').set({ status: 'done' }).where('kind', '=', SYNC_JOB.kind).execute();
    expect(await offerRecurringJobs(database.db, [SYNC], new Date(first.getTime() + 2 * SYNC.everyMs))).toEqual([
      SYNC_JOB.kind,
    ]);
  });

  it('three workers run the job once per slot as the clock moves through four slots', async () => {
    let clock = new Date('2026-06-01T12:00:00Z').getTime();
    const runs: { worker: number; slot: number }[] = [];
    workers = [0, 1, 2].map((index) =>
      createJobWorker({
        db: database.db,
        pollMs: 15,
        logger: silent,
        now: () => new Date(clock),
        recurring: [SYNC],
        handlers: [
          handleJob(SYNC_JOB, (payload) => {
            runs.push({ worker: index, slot: payload.slot });
            return Promise.resolve();
          }),
        ],
      }),
    );
    for (const worker of workers) worker.start();

    const firstSlot = slotOf(new Date(clock), SYNC.everyMs);
    for (let step = 0; step < 4; step += 1) {
      await waitFor(() => runs.length === step + 1, { timeout: 10_000, message: `run ${step + 1}` });
      // Every instance offers the same slot again and runs a batch: none may run it a second time.
      for (const worker of workers) {
        await offerRecurringJobs(database.db, [SYNC], new Date(clock));
        await worker.runOnce();
      }
      expect(runs).toHaveLength(step + 1);
      clock += SYNC.everyMs;
    }
    expect(runs.map((run) => run.slot)).toEqual([firstSlot, firstSlot + 1, firstSlot + 2, firstSlot + 3]);
    const rows = await jobsOf(SYNC_JOB.kind);
    expect(rows).toHaveLength(4);
    expect(rows.every((row) => row.status === 'done')).toBe(true);
  });

  it('refuses a recurring job without a handler at construction', () => {
    expect(() => createJobWorker({ db: database.db, handlers: [], recurring: [SYNC], logger: silent })).toThrow(
      /test\.sync has no handler/,
    );
  });
});
