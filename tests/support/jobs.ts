/**
 * A job row written straight into the jobs table, bypassing `enqueueJob` and its schema check:
 * what a payload stored by an older version of the store (or a hand-edited row) looks like.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

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
