/**
 * The order page's activity line (decision 031): how many orders were really paid in the last
 * 24 hours, read from the orders table, instead of the spec's fixed "208 people are buying right
 * now". Counted at most once a minute per instance: the line is a rough signal, and the order
 * page should not add a table scan to every render.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';

export const PAID_RECENTLY_WINDOW_MS = 24 * 60 * 60 * 1000;
const RECOUNT_MS = 60_000;

export async function countOrdersPaidSince(db: Kysely<Database>, since: Date): Promise<number> {
  const row = await db
    .selectFrom('orders')
    .select(sql<number | string>`count(*)`.as('n'))
    .where('payment_status', '=', 'paid')
    .where('paid_at', '>=', since.toISOString())
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Orders paid in the last 24 hours, recounted at most once a minute (by the store's clock). */
export function createPaidRecentlyCounter(db: Kysely<Database>, clock: Clock): () => Promise<number> {
  let cached: { at: number; count: Promise<number> } | null = null;
  return () => {
    const now = clock().getTime();
    if (!cached || now - cached.at >= RECOUNT_MS || now < cached.at) {
      const count = countOrdersPaidSince(db, new Date(now - PAID_RECENTLY_WINDOW_MS));
      cached = { at: now, count };
      count.catch(() => {
        if (cached?.count === count) cached = null; // do not keep a failure
      });
    }
    return cached.count;
  };
}
