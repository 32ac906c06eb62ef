/**
 * The catalogue's content version (`catalogue_content.version`): every write bumps it in its own
 * transaction, and each instance follows it (core/content-version.ts), so page cache keys change
 * and a stale snapshot is reloaded.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';

export async function readCatalogueVersion(db: Kysely<Database> | Transaction<Database>): Promise<number> {
  const row = await db.selectFrom('catalogue_content').select('version').where('id', '=', 1).executeTakeFirst();
  return row ? Number(row.version) : 0;
}

/** Bumps the catalogue's content version inside the writing transaction; returns the new one. */
export async function bumpCatalogueVersion(trx: Transaction<Database>): Promise<number> {
  const row = await trx
    .updateTable('catalogue_content')
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where('id', '=', 1)
    .returning('version')
    .executeTakeFirstOrThrow();
  return Number(row.version);
}
