/**
 * Secrets that belong to one installation and need no operator (the sandbox's signing key, the
 * one-time-code pepper): made at random on first use and kept in the `settings` table. Safe
 * when several instances start at once: the first insert wins and everyone reads it back.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export async function loadInstallSecret(db: Kysely<Database>, key: string): Promise<string> {
  await db
    .insertInto('settings')
    .values({ key, value: randomBytes(32).toString('hex') })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirstOrThrow();
  return row.value;
}
