/**
 * A scheduled post goes live with no write: nothing bumps the blog's content version then, so the
 * page cache (keyed by that version) would keep serving the list, the feed, the sitemap and the
 * post's "not found" without it for up to PAGE_CACHE_SECONDS. The schedule knows the earliest publish
 * time still ahead (read with the content version and after every write) and counts each one the
 * clock passes; the version the page cache keys on moves on with that count.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';

/** The database (deps.ts's BlogDb without the transaction: this reads outside any write). */
type BlogDb = Kysely<Database>;

export interface PublishSchedule {
  /** Reads the earliest publish time still ahead of the clock (none: null). */
  refresh(): Promise<void>;
  /** How many publish times this instance has seen pass: a part of the blog pages' cache version. */
  passed(): number;
}

/** The earliest `published_at` after `now`, or null when no post is scheduled. */
export async function nextScheduledPublish(db: BlogDb, now: Date): Promise<string | null> {
  const row = await db
    .selectFrom('blog_posts')
    .select((eb) => eb.fn.min('published_at').as('next'))
    .where('published_at', '>', now.toISOString())
    .executeTakeFirst();
  return row?.next ?? null;
}

export function createPublishSchedule(db: BlogDb, clock: Clock): PublishSchedule {
  // As a number: this is read for every cached blog page, and an ISO string per read cost more
  // than the rest of the cache look-up.
  let nextMs: number | null = null;
  let passed = 0;
  const refresh = async () => {
    const next = await nextScheduledPublish(db, clock());
    nextMs = next === null ? null : Date.parse(next);
  };
  return {
    refresh,
    passed: () => {
      if (nextMs !== null && nextMs <= clock().getTime()) {
        passed += 1;
        nextMs = null;
        // The following scheduled post, if any; a failed read leaves it to the next version read.
        void refresh().catch(() => undefined);
      }
      return passed;
    },
  };
}
