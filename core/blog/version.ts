/**
 * The blog's content version (`blog_content.version`): every write bumps it in its own
 * transaction, so the page cache of every instance learns that a post changed
 * (core/content-version.ts).
 */
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { type ContentVersion, createContentVersion } from '../content-version.ts';
import type { BlogDb } from './deps.ts';

export async function readBlogVersion(db: BlogDb): Promise<number> {
  const row = await db.selectFrom('blog_content').select('version').where('id', '=', 1).executeTakeFirst();
  return row?.version ?? 0;
}

/** Bumps the content version inside the writing transaction; returns the new one. */
export async function bumpBlogVersion(trx: Transaction<Database>): Promise<number> {
  const row = await trx
    .updateTable('blog_content')
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where('id', '=', 1)
    .returning('version')
    .executeTakeFirstOrThrow();
  return row.version;
}

/** This instance's tracker of the blog's version, reading it from `db`. */
export function createBlogContentVersion(db: BlogDb): ContentVersion {
  return createContentVersion(() => readBlogVersion(db));
}
