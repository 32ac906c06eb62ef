/**
 * A job row written straight into the jobs table, bypassing `enqueueJob` and its schema check:
 * what a payload stored by an older version of the store (or a hand-edited row) looks like.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { JobStatus } from '../../core/jobs/queue.ts';

export async function insertRawJob(db: Kysely<Database>, kind: string, payloadJson: string): Promise<number> {
  const now = new Date().toISOString();
  const row = await db
    .insertInto('jobs')
    .values({
      kind,
      payload_json: payloadJson,
      dedupe_key: null,
      status: 'pending',
      attempts: 0,
      max_attempts: 8,
      run_at: now,
      locked_by: null,
      locked_until: null,
      last_error: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Number of jobs per status; the four known statuses are always present. */
export async function jobCounts(db: Kysely<Database>): Promise<Record<JobStatus, number> & Record<string, number>> {
  const rows = await db
    .selectFrom('jobs')
    .select((eb) => ['status', eb.fn.countAll().as('count')])
    .groupBy('status')
    .execute();
  const counts: Record<string, number> = { pending: 0, running: 0, done: 0, failed: 0 };
  for (const row of rows) counts[row.status] = Number(row.count);
  return counts as Record<JobStatus, number> & Record<string, number>;
}
