/**
 * The `jobs` table as a durable queue (the outbox).
 *
 * - Producers call `enqueueJob` with their own transaction, so a job exists if and only if the
 *   state change that caused it was committed.
 * - Workers `claimJobs` with a lease (`locked_by`, `locked_until`); a crashed worker's jobs are
 *   claimed again once the lease has expired. On PostgreSQL the claim uses
 *   `SELECT … FOR UPDATE SKIP LOCKED`, so any number of app instances can poll the same table
 *   without ever claiming the same job; on SQLite one `UPDATE … RETURNING` is atomic because
 *   SQLite serialises writers.
 * - `completeJob`, `failJob`, `renewLease` and `releaseJob` are compare-and-set on the claim
 *   (`status = 'running'`, `locked_by`, `attempts`): a worker whose lease was taken over can no
 *   longer change the job.
 *
 * - Every kind is a `JobDefinition` (`defineJob`, ./job-definition.ts): its name, next to a zod
 *   schema of its payload. A failed attempt is retried after the backoff of ./retry.ts.
 *
 * Delivery is at-least-once: a handler may run again if its worker dies after the side effect
 * but before `completeJob`. Handlers must therefore be idempotent or tolerate a rare repeat.
 * Timestamps are ISO-8601 UTC text (`toISOString()`), which sorts correctly as text.
 */
import type { ExpressionBuilder, Kysely, Selectable, Transaction } from 'kysely';
import { isPostgres } from '../../db/dialect.ts';
import type { Database, JobsTable } from '../../db/schema.ts';
import {
  DEFAULT_MAX_ATTEMPTS,
  type JobDefinition,
  type JobPayloadInput,
  describePayloadIssues,
} from './job-definition.ts';
import { JOB_STATUSES, type JobStatus } from '../../db/column-values.ts';
import { backoffMs, describeError } from './retry.ts';

export { JOB_STATUSES, type JobStatus };
// Producers define a kind and enqueue it together: both come from here.
export { type JobDefinition, type JobPayload, type JobPayloadInput, defineJob } from './job-definition.ts';

export type JobRow = Selectable<JobsTable>;
/** The fields of a claimed job that identify the claim (what compare-and-set checks). */
export type JobClaim = Pick<JobRow, 'id' | 'attempts' | 'max_attempts'>;
export type Db = Kysely<Database> | Transaction<Database>;

export interface EnqueueOptions {
  /** A second job with the same key is silently dropped (e.g. `receipt:<orderId>`). */
  dedupeKey?: string | null | undefined;
  /** Not before this time; default now. */
  runAt?: Date | undefined;
  /** Overrides the definition's maxAttempts. */
  maxAttempts?: number | undefined;
  /** Clock override for tests. */
  now?: Date | undefined;
}

export type EnqueueResult = { enqueued: true; id: number } | { enqueued: false };

/**
 * Inserts a `pending` job of a defined kind. Pass the caller's transaction so the job commits (or
 * rolls back) together with the state change that causes it. A payload its schema refuses is a
 * programming error and throws here, before anything is stored.
 */
export async function enqueueJob<D extends JobDefinition>(
  db: Db,
  job: D,
  payload: JobPayloadInput<D>,
  options: EnqueueOptions = {},
): Promise<EnqueueResult> {
  const { dedupeKey = null } = options;
  const maxAttempts = options.maxAttempts ?? job.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1)
    throw new Error('enqueueJob: maxAttempts must be a positive integer');
  const checked = job.payload.safeParse(payload);
  if (!checked.success)
    throw new Error(`enqueueJob: invalid ${job.kind} payload: ${describePayloadIssues(checked.error)}`);
  const payloadJson = JSON.stringify(payload);
  if (payloadJson === undefined) throw new Error('enqueueJob: payload must be JSON-serialisable');
  const now = (options.now ?? new Date()).toISOString();
  const row = await db
    .insertInto('jobs')
    .values({
      kind: job.kind,
      payload_json: payloadJson,
      dedupe_key: dedupeKey,
      status: 'pending',
      attempts: 0,
      max_attempts: maxAttempts,
      run_at: (options.runAt ?? options.now ?? new Date()).toISOString(),
      locked_by: null,
      locked_until: null,
      last_error: null,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row ? { enqueued: true, id: Number(row.id) } : { enqueued: false };
}

export interface ClaimOptions {
  workerId: string;
  /** Only these kinds; default all. An empty list claims nothing. */
  kinds?: readonly string[];
  limit: number;
  leaseMs: number;
  now?: Date;
}

/**
 * Atomically claims up to `limit` due jobs: pending ones whose `run_at` has come, and running
 * ones whose lease expired (their worker crashed or hung). Each claimed job gets
 * `status = 'running'`, this worker's id, a lease until `now + leaseMs`, and `attempts + 1`.
 *
 * Expired running jobs that have already used all their attempts are not claimed again but
 * marked `failed`, so a job that kills its worker every time cannot loop forever.
 */
export async function claimJobs(db: Db, options: ClaimOptions): Promise<JobRow[]> {
  const { workerId, kinds, limit, leaseMs } = options;
  if (!workerId) throw new Error('claimJobs: workerId is required');
  if (kinds && kinds.length === 0) return [];
  if (!(limit > 0)) return [];
  const nowDate = options.now ?? new Date();
  const now = nowDate.toISOString();
  const lockedUntil = new Date(nowDate.getTime() + leaseMs).toISOString();

  const due = (eb: ExpressionBuilder<Database, 'jobs'>) => {
    const condition = eb.or([
      eb.and([eb('status', '=', 'pending'), eb('run_at', '<=', now)]),
      eb.and([eb('status', '=', 'running'), eb('locked_until', '<', now), eb('attempts', '<', eb.ref('max_attempts'))]),
    ]);
    return kinds ? eb.and([condition, eb('kind', 'in', [...kinds])]) : condition;
  };

  const claim = async (trx: Db): Promise<JobRow[]> => {
    // A job whose last lease expired on its last attempt: give up on it.
    await trx
      .updateTable('jobs')
      .set((eb) => ({
        status: 'failed',
        locked_until: null,
        updated_at: now,
        last_error: eb.fn.coalesce(
          'last_error',
          eb.val('lease expired on the last attempt (the worker crashed or the handler ran longer than its lease)'),
        ),
      }))
      .where('status', '=', 'running')
      .where('locked_until', '<', now)
      .where((eb) => eb('attempts', '>=', eb.ref('max_attempts')))
      .$if(kinds !== undefined, (qb) => qb.where('kind', 'in', [...(kinds ?? [])]))
      .execute();

    const set = (eb: ExpressionBuilder<Database, 'jobs'>) => ({
      status: 'running' as const,
      locked_by: workerId,
      locked_until: lockedUntil,
      attempts: eb('attempts', '+', 1),
      updated_at: now,
    });

    if (isPostgres(trx)) {
      // Row locks taken here are held until commit; rows locked by another claimer are skipped,
      // and rows another claimer already committed are re-checked against `due` by PostgreSQL.
      const ids = await trx
        .selectFrom('jobs')
        .select('id')
        .where(due)
        .orderBy('run_at')
        .orderBy('id')
        .limit(limit)
        .forUpdate()
        .skipLocked()
        .execute();
      if (ids.length === 0) return [];
      return trx
        .updateTable('jobs')
        .set(set)
        .where(
          'id',
          'in',
          ids.map((r) => r.id),
        )
        .returningAll()
        .execute();
    }

    // SQLite: one statement, one write transaction; writers are serialised by the database.
    return trx
      .updateTable('jobs')
      .set(set)
      .where('id', 'in', trx.selectFrom('jobs').select('id').where(due).orderBy('run_at').orderBy('id').limit(limit))
      .returningAll()
      .execute();
  };

  // PostgreSQL: one transaction, so the row locks are held from SELECT to UPDATE. SQLite: no
  // explicit transaction; each statement is its own atomic write transaction, and holding a
  // SQLite write lock across an `await` would block every other connection until it commits.
  const rows = db.isTransaction || !isPostgres(db) ? await claim(db) : await db.transaction().execute(claim);
  return rows.map(normaliseRow).sort((a, b) => (a.run_at < b.run_at ? -1 : a.run_at > b.run_at ? 1 : a.id - b.id));
}

function normaliseRow(row: JobRow): JobRow {
  return { ...row, id: Number(row.id), attempts: Number(row.attempts), max_attempts: Number(row.max_attempts) };
}

function claimedBy(job: JobClaim, workerId: string) {
  return (eb: ExpressionBuilder<Database, 'jobs'>) =>
    eb.and([
      eb('id', '=', job.id),
      eb('status', '=', 'running'),
      eb('locked_by', '=', workerId),
      eb('attempts', '=', job.attempts),
    ]);
}

/** Marks the job `done` if this worker still holds the claim. Returns whether it did. */
export async function completeJob(db: Db, job: JobClaim, workerId: string, now = new Date()): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({ status: 'done', locked_until: null, updated_at: now.toISOString() })
    .where(claimedBy(job, workerId))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Extends the lease of a job this worker still holds. Returns false if the claim was lost. */
export async function renewLease(
  db: Db,
  job: JobClaim,
  workerId: string,
  leaseMs: number,
  now = new Date(),
): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({ locked_until: new Date(now.getTime() + leaseMs).toISOString(), updated_at: now.toISOString() })
    .where(claimedBy(job, workerId))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Gives back a claimed job that was never started (e.g. the worker is shutting down): it is
 * pending again right away and the claim does not count as an attempt.
 */
export async function releaseJob(db: Db, job: JobClaim, workerId: string, now = new Date()): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set((eb) => ({
      status: 'pending',
      attempts: eb('attempts', '-', 1),
      locked_by: null,
      locked_until: null,
      updated_at: now.toISOString(),
    }))
    .where(claimedBy(job, workerId))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export interface FailOptions {
  retryable: boolean;
  now?: Date;
  random?: () => number;
  /**
   * No retry at or after this time, whatever attempts are left (the kind's `retryForMs` after the
   * job's creation). A retry that would fall after it is moved back to it, so the last try
   * happens at the end of the window rather than never.
   */
  giveUpAt?: Date | undefined;
}

export interface FailResult {
  /** False when the claim was lost (another worker took the job over); nothing changed. */
  updated: boolean;
  status: 'pending' | 'failed';
  /** When it will be retried, for `status: 'pending'`. */
  runAt: string | null;
}

/**
 * Records a failed attempt. Retryable failures with attempts left (and, for a kind with a retry
 * window, before `giveUpAt`) go back to `pending` with an exponential backoff; otherwise the job
 * is `failed` for good. Compare-and-set on the claim.
 */
export async function failJob(
  db: Db,
  job: JobClaim,
  workerId: string,
  error: unknown,
  options: FailOptions,
): Promise<FailResult> {
  const now = options.now ?? new Date();
  const lastError = describeError(error);
  const giveUpAt = options.giveUpAt?.getTime() ?? Infinity;
  const retry = options.retryable && job.attempts < job.max_attempts && now.getTime() < giveUpAt;
  const runAt = retry
    ? new Date(Math.min(now.getTime() + backoffMs(job.attempts, options.random), giveUpAt)).toISOString()
    : null;
  const result = await db
    .updateTable('jobs')
    .set(
      retry
        ? {
            status: 'pending',
            run_at: runAt!,
            locked_by: null,
            locked_until: null,
            last_error: lastError,
            updated_at: now.toISOString(),
          }
        : { status: 'failed', locked_until: null, last_error: lastError, updated_at: now.toISOString() },
    )
    .where(claimedBy(job, workerId))
    .executeTakeFirst();
  return { updated: Number(result.numUpdatedRows) === 1, status: retry ? 'pending' : 'failed', runAt };
}
