import { type MigrationDb, isPostgres, sql } from './helpers.ts';

/**
 * The orders list's keyword walk, covered (decision 049). A keyword with many matches ("instagram
 * followers": about three orders in ten) is searched by walking the newest-first index with
 * `instr(search_text, …)` as a filter (core/admin/orders-search.ts). On SQLite each step of that
 * walk read the order's table row for `search_text`: page 500 checked about 35,000 rows that way
 * (57.7 ms p95 at a million orders, over the 50 ms target). This index holds `search_text` beside
 * (created_at, id), in the list's order, so the walk never leaves the index.
 *
 * SQLite only. PostgreSQL's walk met the target without it, and a B-tree entry there is capped at
 * about 2.7 kB, which a long target URL could pass: `include (search_text)` would make such an
 * order fail to save.
 */
export async function up(db: MigrationDb): Promise<void> {
  if (isPostgres(db)) return;
  await sql`create index orders_created_at_search on orders (created_at, id, search_text)`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  if (isPostgres(db)) return;
  await sql`drop index orders_created_at_search`.execute(db);
}
