/**
 * A content version for page cache keys (decision 005): a number in the database that every
 * write to some content (the blog, the reviews) bumps in its own transaction. Each instance keeps
 * the highest version it has seen; `known()` answers at once and re-reads the database in the
 * background at most once a second, so a change made on another instance reaches this one's page
 * keys within about a second, and a request never waits for the read.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';

/** The one-row tables (id 1) that hold a content version. */
export type ContentVersionTable = 'blog_content' | 'catalogue_content' | 'reviews_content';

/** How stale `known()` may get before it reads the database again. */
const REFRESH_MS = 1000;

export interface ContentVersion {
  /** Records a version this instance wrote or read. */
  saw: (version: number) => void;
  /** Reads the database's version now (and records it). */
  read: () => Promise<number>;
  /** The highest version seen; starts a background read when the last one is over a second old. */
  known: () => number;
  /** Counts a read made some other way as the latest read. */
  markRead: () => void;
}

export function createContentVersion(readFromDatabase: () => Promise<number>): ContentVersion {
  let knownVersion = 0;
  let lastRead = 0;
  let reading: Promise<void> | null = null;
  const saw = (version: number) => {
    knownVersion = Math.max(knownVersion, version);
  };
  const read = async () => {
    const version = await readFromDatabase();
    saw(version);
    return version;
  };
  return {
    saw,
    read,
    known: () => {
      if (reading === null && Date.now() - lastRead >= REFRESH_MS) {
        lastRead = Date.now();
        reading = read()
          .then(() => undefined)
          // A database hiccup keeps the last known version; the next call tries again.
          .catch(() => undefined)
          .finally(() => {
            reading = null;
          });
      }
      return knownVersion;
    },
    markRead: () => {
      lastRead = Date.now();
    },
  };
}

/** The content version stored in `table`; 0 before the row exists. */
export async function readContentVersion(db: Kysely<Database>, table: ContentVersionTable): Promise<number> {
  const row = await db.selectFrom(table).select('version').where('id', '=', 1).executeTakeFirst();
  return row ? Number(row.version) : 0;
}

/** Bumps the content version in `table` inside the writing transaction; returns the new one. */
export async function bumpContentVersion(trx: Transaction<Database>, table: ContentVersionTable): Promise<number> {
  const row = await trx
    .updateTable(table)
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where('id', '=', 1)
    .returning('version')
    .executeTakeFirstOrThrow();
  return Number(row.version);
}
