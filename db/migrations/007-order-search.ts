import { type Kysely, sql } from 'kysely';
import { isPostgres } from './helpers.ts';

/**
 * The admin orders console (core/admin/orders-console.ts): keyword search, the status filter,
 * newest-first paging and cheap counts over millions of orders.
 *
 * Search text. A keyword matches the provider order id, the e-mail, the target or the service
 * name as a case-insensitive substring. There is no stored `search_text` column: the text is
 * the expression below, computed from four columns that never change after checkout, so it
 * cannot go stale and no writer (checkout, tests, imports, the seed) has to maintain it.
 *   - PostgreSQL: a GIN trigram index (pg_trgm) on the expression serves `expr LIKE '%kw%'`.
 *     The queries must repeat the expression verbatim (see SEARCH_EXPRESSION in the console).
 *   - SQLite: a contentless FTS5 table with the trigram tokenizer (SQLite ≥ 3.43 for
 *     `contentless_delete`), kept in sync by triggers; rowid = orders.id.
 *
 * Counts. `order_counts` holds the number of orders per (order_status, payment_status), kept
 * exact by triggers in the same transaction as the change, so the unfiltered and status-only
 * totals are a read of at most two dozen rows instead of counting a million. On PostgreSQL the
 * triggers are per statement (transition tables) and upsert in key order, so concurrent writers
 * take the counter rows' locks in one order and cannot deadlock on them.
 *
 * Order. Newest first is (created_at desc, id desc): SQLite's existing index on created_at
 * already carries the rowid; PostgreSQL gets (created_at desc, id desc). Both get
 * (order_status, created_at desc, id desc) for the status filter.
 */

// Keep in step with SEARCH_EXPRESSION in core/admin/orders-console.ts: PostgreSQL only uses the
// index when the query's expression is the same text.
const PG_SEARCH_EXPRESSION = "lower(provider_order_id || E'\\n' || email || E'\\n' || target || E'\\n' || service_name)";
const SQLITE_SEARCH = (row: 'new' | 'old') =>
  `lower(${row}.provider_order_id || char(10) || ${row}.email || char(10) || ${row}.target || char(10) || ${row}.service_name)`;

export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) await upPostgres(db);
  else await upSqlite(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    for (const trigger of ['orders_counts_insert', 'orders_counts_update', 'orders_counts_delete', 'orders_counts_truncate']) {
      await sql.raw(`DROP TRIGGER IF EXISTS ${trigger} ON orders`).execute(db);
    }
    await sql.raw('DROP FUNCTION IF EXISTS orders_count_changes()').execute(db);
    await sql.raw('DROP FUNCTION IF EXISTS orders_count_truncate()').execute(db);
    await sql.raw('DROP INDEX IF EXISTS orders_search_trgm').execute(db);
    await sql.raw('DROP INDEX IF EXISTS orders_created_at_id').execute(db);
    // pg_trgm stays: other databases or schemas on the server may use it.
  } else {
    for (const trigger of ['orders_search_ai', 'orders_search_ad', 'orders_search_au', 'orders_counts_ai', 'orders_counts_ad', 'orders_counts_au']) {
      await sql.raw(`DROP TRIGGER IF EXISTS ${trigger}`).execute(db);
    }
    await sql.raw('DROP TABLE IF EXISTS orders_search').execute(db);
  }
  await sql.raw('DROP INDEX IF EXISTS orders_status_created_at').execute(db);
  await db.schema.dropTable('order_counts').ifExists().execute();
}

async function createCountsTable(db: Kysely<any>) {
  await db.schema
    .createTable('order_counts')
    .addColumn('order_status', 'text', (c) => c.notNull())
    .addColumn('payment_status', 'text', (c) => c.notNull())
    .addColumn('n', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('order_counts_pk', ['order_status', 'payment_status'])
    .execute();
  await sql`insert into order_counts (order_status, payment_status, n)
    select order_status, payment_status, count(*) from orders group by order_status, payment_status`.execute(db);
}

async function upSqlite(db: Kysely<any>) {
  const { rows } = await sql<{ v: string }>`select sqlite_version() as v`.execute(db);
  const [major, minor] = (rows[0]?.v ?? '0.0').split('.').map(Number);
  if (major < 3 || (major === 3 && minor < 43)) {
    throw new Error(`SQLite ${rows[0]?.v} is too old for the order search (FTS5 trigram with contentless_delete needs 3.43 or later)`);
  }

  await sql.raw("CREATE VIRTUAL TABLE orders_search USING fts5(search_text, tokenize = 'trigram', content = '', contentless_delete = 1)").execute(db);
  await sql.raw(`INSERT INTO orders_search (rowid, search_text) SELECT o.id, ${SQLITE_SEARCH('new').replaceAll('new.', 'o.')} FROM orders o`).execute(db);
  await sql.raw(`CREATE TRIGGER orders_search_ai AFTER INSERT ON orders BEGIN
      INSERT INTO orders_search (rowid, search_text) VALUES (new.id, ${SQLITE_SEARCH('new')});
    END`).execute(db);
  await sql.raw(`CREATE TRIGGER orders_search_ad AFTER DELETE ON orders BEGIN
      DELETE FROM orders_search WHERE rowid = old.id;
    END`).execute(db);
  await sql.raw(`CREATE TRIGGER orders_search_au AFTER UPDATE OF id, provider_order_id, email, target, service_name ON orders BEGIN
      DELETE FROM orders_search WHERE rowid = old.id;
      INSERT INTO orders_search (rowid, search_text) VALUES (new.id, ${SQLITE_SEARCH('new')});
    END`).execute(db);

  // The status filter, newest first (the rowid is the index's implicit last column).
  await sql.raw('CREATE INDEX orders_status_created_at ON orders (order_status, created_at)').execute(db);

  await createCountsTable(db);
  const bump = (row: 'new' | 'old', delta: 1 | -1) =>
    `INSERT INTO order_counts (order_status, payment_status, n) VALUES (${row}.order_status, ${row}.payment_status, ${delta})
       ON CONFLICT (order_status, payment_status) DO UPDATE SET n = n + (${delta});`;
  await sql.raw(`CREATE TRIGGER orders_counts_ai AFTER INSERT ON orders BEGIN ${bump('new', 1)} END`).execute(db);
  await sql.raw(`CREATE TRIGGER orders_counts_ad AFTER DELETE ON orders BEGIN ${bump('old', -1)} END`).execute(db);
  await sql.raw(`CREATE TRIGGER orders_counts_au AFTER UPDATE OF order_status, payment_status ON orders
      WHEN old.order_status IS NOT new.order_status OR old.payment_status IS NOT new.payment_status BEGIN
        ${bump('old', -1)}
        ${bump('new', 1)}
      END`).execute(db);
}

async function upPostgres(db: Kysely<any>) {
  const trgmSchema = await ensureTrigramExtension(db);
  if (trgmSchema) {
    await sql.raw(`CREATE INDEX orders_search_trgm ON orders USING gin ((${PG_SEARCH_EXPRESSION}) "${trgmSchema}".gin_trgm_ops)`).execute(db);
    // The planner chooses between the trigram index (rare keywords) and walking the newest-first
    // index with a filter (common ones) from the expression's statistics: sample more of them.
    await sql.raw('ALTER INDEX orders_search_trgm ALTER COLUMN 1 SET STATISTICS 1000').execute(db);
  }
  await sql.raw('CREATE INDEX orders_created_at_id ON orders (created_at DESC, id DESC)').execute(db);
  await sql.raw('CREATE INDEX orders_status_created_at ON orders (order_status, created_at DESC, id DESC)').execute(db);

  await createCountsTable(db);
  // One function for the three statement triggers; it only touches the transition tables its
  // trigger defines. Deltas are summed per key and applied in key order (no lock-order cycles);
  // an UPDATE that changes no status writes nothing.
  await sql.raw(`CREATE FUNCTION orders_count_changes() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        INSERT INTO order_counts AS c (order_status, payment_status, n)
          SELECT order_status, payment_status, count(*) FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
          ON CONFLICT (order_status, payment_status) DO UPDATE SET n = c.n + excluded.n;
      ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO order_counts AS c (order_status, payment_status, n)
          SELECT order_status, payment_status, -count(*) FROM old_rows GROUP BY 1, 2 ORDER BY 1, 2
          ON CONFLICT (order_status, payment_status) DO UPDATE SET n = c.n + excluded.n;
      ELSE
        INSERT INTO order_counts AS c (order_status, payment_status, n)
          SELECT order_status, payment_status, sum(delta) FROM (
            SELECT order_status, payment_status, -1 AS delta FROM old_rows
            UNION ALL
            SELECT order_status, payment_status, 1 AS delta FROM new_rows
          ) d GROUP BY 1, 2 HAVING sum(delta) <> 0 ORDER BY 1, 2
          ON CONFLICT (order_status, payment_status) DO UPDATE SET n = c.n + excluded.n;
      END IF;
      RETURN NULL;
    END $$`).execute(db);
  await sql.raw(`CREATE FUNCTION orders_count_truncate() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
    BEGIN
      DELETE FROM order_counts;
      RETURN NULL;
    END $$`).execute(db);
  await sql.raw(`CREATE TRIGGER orders_counts_insert AFTER INSERT ON orders REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION orders_count_changes()`).execute(db);
  await sql.raw(`CREATE TRIGGER orders_counts_update AFTER UPDATE ON orders REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION orders_count_changes()`).execute(db);
  await sql.raw(`CREATE TRIGGER orders_counts_delete AFTER DELETE ON orders REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION orders_count_changes()`).execute(db);
  await sql.raw('CREATE TRIGGER orders_counts_truncate AFTER TRUNCATE ON orders FOR EACH STATEMENT EXECUTE FUNCTION orders_count_truncate()').execute(db);
}

/**
 * Installs pg_trgm once per database (a trusted extension: the database owner may), in the
 * `public` schema so that every schema on the server can use it: test suites each live in their
 * own schema, and an extension installed into one of them would vanish with it. Returns the
 * schema that holds it, or null when it cannot be installed (search then works without the
 * trigram index, by scanning).
 */
async function ensureTrigramExtension(db: Kysely<any>): Promise<string | null> {
  // Concurrent migrations (parallel test suites) would race on CREATE EXTENSION.
  await sql`select pg_advisory_xact_lock(hashtext('boostly:pg_trgm'))`.execute(db);
  const installed = async () =>
    (
      await sql<{ schema: string }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(
        db,
      )
    ).rows[0]?.schema ?? null;
  const existing = await installed();
  if (existing) return existing;
  const { rows } = await sql<{ available: boolean; allowed: boolean }>`
    select exists (select 1 from pg_available_extensions where name = 'pg_trgm') as available,
           case when (select rolsuper from pg_roles where rolname = current_user) then true
                when not exists (select 1 from pg_namespace where nspname = 'public') then false
                else has_database_privilege(current_database(), 'CREATE') and has_schema_privilege('public', 'CREATE') end as allowed`.execute(db);
  if (!rows[0]?.available || !rows[0]?.allowed) return null;
  await sql.raw('CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public').execute(db);
  return installed();
}
