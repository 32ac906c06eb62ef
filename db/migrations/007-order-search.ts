import { sql } from 'kysely';
import { type MigrationDb, isPostgres } from './helpers.ts';

/**
 * The admin orders console (core/admin/orders-console.ts): keyword search, the status filter,
 * newest-first paging and cheap counts over millions of orders.
 *
 * Search text. `orders.search_text` = lower(provider order id, e-mail, target, service name),
 * newline-separated. A keyword matches as a case-insensitive substring of it. The four source
 * columns never change after checkout; triggers fill the column on every insert (whatever the
 * writer put there: checkout, tests copying rows, the seed) and on the rare update, so no code
 * has to maintain it. Stored rather than computed: scanning it is 2-3 times cheaper than
 * rebuilding the text for every row a search walks.
 *   - PostgreSQL: a BEFORE trigger sets it; a GIN trigram index (pg_trgm) serves
 *     `search_text LIKE '%kw%'`, with fine-grained statistics so the planner can size a search.
 *   - SQLite (no BEFORE trigger can change NEW): an AFTER trigger corrects it when it differs.
 *     A contentless FTS5 table with the trigram tokenizer (SQLite ≥ 3.43 for
 *     `contentless_delete`), rowid = orders.id, is kept in sync from the source columns.
 *
 * Counts. `order_counts` holds the number of orders per (order_status, payment_status), kept
 * exact by triggers in the same transaction as the change, so the unfiltered and status-only
 * totals are a read of a dozen rows instead of counting a million. On PostgreSQL the triggers
 * are per statement (transition tables) and upsert in key order, so concurrent writers take the
 * counter rows' locks in one order and cannot deadlock on them.
 *
 * Order. Newest first is (created_at desc, id desc): SQLite's existing index on created_at
 * already ends with the rowid; PostgreSQL gets (created_at desc, id desc). Both get
 * (order_status, created_at desc, id desc) for the status filter.
 */

const SQLITE_TEXT = (row: string) =>
  `lower(${row}.provider_order_id || char(10) || ${row}.email || char(10) || ${row}.target || char(10) || ${row}.service_name)`;
const PG_TEXT = (row: string) =>
  `lower(${row}.provider_order_id || E'\\n' || ${row}.email || E'\\n' || ${row}.target || E'\\n' || ${row}.service_name)`;

export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .alterTable('orders')
    .addColumn('search_text', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  if (isPostgres(db)) await upPostgres(db);
  else await upSqlite(db);
}

export async function down(db: MigrationDb): Promise<void> {
  if (isPostgres(db)) {
    for (const trigger of [
      'orders_counts_insert',
      'orders_counts_update',
      'orders_counts_delete',
      'orders_counts_truncate',
      'orders_search_text',
    ]) {
      await sql.raw(`DROP TRIGGER IF EXISTS ${trigger} ON orders`).execute(db);
    }
    for (const fn of ['orders_count_changes', 'orders_count_truncate', 'orders_search_text']) {
      await sql.raw(`DROP FUNCTION IF EXISTS ${fn}()`).execute(db);
    }
    await sql.raw('DROP INDEX IF EXISTS orders_search_trgm').execute(db);
    await sql.raw('DROP INDEX IF EXISTS orders_created_at_id').execute(db);
    // pg_trgm stays: other databases or schemas on the server may use it.
  } else {
    for (const trigger of [
      'orders_search_ai',
      'orders_search_ad',
      'orders_search_au',
      'orders_search_text_ai',
      'orders_search_text_au',
      'orders_counts_ai',
      'orders_counts_ad',
      'orders_counts_au',
    ]) {
      await sql.raw(`DROP TRIGGER IF EXISTS ${trigger}`).execute(db);
    }
    await sql.raw('DROP TABLE IF EXISTS orders_search').execute(db);
  }
  await sql.raw('DROP INDEX IF EXISTS orders_status_created_at').execute(db);
  await db.schema.dropTable('order_counts').ifExists().execute();
  await db.schema.alterTable('orders').dropColumn('search_text').execute();
}

async function createCountsTable(db: MigrationDb) {
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

async function upSqlite(db: MigrationDb) {
  const { rows } = await sql<{ v: string }>`select sqlite_version() as v`.execute(db);
  // A part that is missing counts as 0, i.e. too old.
  const [major = 0, minor = 0] = (rows[0]?.v ?? '0.0').split('.').map(Number);
  if (major < 3 || (major === 3 && minor < 43)) {
    throw new Error(
      `SQLite ${rows[0]?.v} is too old for the order search (FTS5 trigram with contentless_delete needs 3.43 or later)`,
    );
  }

  await sql.raw(`UPDATE orders SET search_text = ${SQLITE_TEXT('orders')}`).execute(db);
  // Not recursive (recursive_triggers is off): the correcting UPDATE does not fire these again.
  await sql
    .raw(
      `CREATE TRIGGER orders_search_text_ai AFTER INSERT ON orders WHEN new.search_text IS NOT ${SQLITE_TEXT('new')} BEGIN
      UPDATE orders SET search_text = ${SQLITE_TEXT('new')} WHERE id = new.id;
    END`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER orders_search_text_au AFTER UPDATE OF provider_order_id, email, target, service_name, search_text ON orders
      WHEN new.search_text IS NOT ${SQLITE_TEXT('new')} BEGIN
      UPDATE orders SET search_text = ${SQLITE_TEXT('new')} WHERE id = new.id;
    END`,
    )
    .execute(db);

  // The trigram index reads the source columns, so it never depends on the order the triggers run in.
  await sql
    .raw(
      "CREATE VIRTUAL TABLE orders_search USING fts5(search_text, tokenize = 'trigram', content = '', contentless_delete = 1)",
    )
    .execute(db);
  await sql.raw('INSERT INTO orders_search (rowid, search_text) SELECT id, search_text FROM orders').execute(db);
  await sql
    .raw(
      `CREATE TRIGGER orders_search_ai AFTER INSERT ON orders BEGIN
      INSERT INTO orders_search (rowid, search_text) VALUES (new.id, ${SQLITE_TEXT('new')});
    END`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER orders_search_ad AFTER DELETE ON orders BEGIN
      DELETE FROM orders_search WHERE rowid = old.id;
    END`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER orders_search_au AFTER UPDATE OF id, provider_order_id, email, target, service_name ON orders BEGIN
      DELETE FROM orders_search WHERE rowid = old.id;
      INSERT INTO orders_search (rowid, search_text) VALUES (new.id, ${SQLITE_TEXT('new')});
    END`,
    )
    .execute(db);

  // The status filter, newest first (the rowid is the index's implicit last column).
  await sql.raw('CREATE INDEX orders_status_created_at ON orders (order_status, created_at)').execute(db);

  await createCountsTable(db);
  const bump = (row: 'new' | 'old', delta: 1 | -1) =>
    `INSERT INTO order_counts (order_status, payment_status, n) VALUES (${row}.order_status, ${row}.payment_status, ${delta})
       ON CONFLICT (order_status, payment_status) DO UPDATE SET n = n + (${delta});`;
  await sql.raw(`CREATE TRIGGER orders_counts_ai AFTER INSERT ON orders BEGIN ${bump('new', 1)} END`).execute(db);
  await sql.raw(`CREATE TRIGGER orders_counts_ad AFTER DELETE ON orders BEGIN ${bump('old', -1)} END`).execute(db);
  await sql
    .raw(
      `CREATE TRIGGER orders_counts_au AFTER UPDATE OF order_status, payment_status ON orders
      WHEN old.order_status IS NOT new.order_status OR old.payment_status IS NOT new.payment_status BEGIN
        ${bump('old', -1)}
        ${bump('new', 1)}
      END`,
    )
    .execute(db);
}

async function upPostgres(db: MigrationDb) {
  await sql
    .raw(
      `CREATE FUNCTION orders_search_text() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      NEW.search_text := ${PG_TEXT('NEW')};
      RETURN NEW;
    END $$`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER orders_search_text BEFORE INSERT OR UPDATE OF provider_order_id, email, target, service_name, search_text ON orders
    FOR EACH ROW EXECUTE FUNCTION orders_search_text()`,
    )
    .execute(db);
  await sql.raw(`UPDATE orders SET search_text = ${PG_TEXT('orders')}`).execute(db);

  const trgmSchema = await ensureTrigramExtension(db);
  if (trgmSchema) {
    await sql
      .raw(`CREATE INDEX orders_search_trgm ON orders USING gin (search_text "${trgmSchema}".gin_trgm_ops)`)
      .execute(db);
  }
  // The console asks the planner how many orders a keyword matches (and the planner chooses
  // between the trigram index and the newest-first index): sample the text finely.
  await sql.raw('ALTER TABLE orders ALTER COLUMN search_text SET STATISTICS 1000').execute(db);
  await sql.raw('CREATE INDEX orders_created_at_id ON orders (created_at DESC, id DESC)').execute(db);
  await sql.raw('CREATE INDEX orders_status_created_at ON orders (order_status, created_at DESC, id DESC)').execute(db);

  await createCountsTable(db);
  // One function for the three statement triggers; it only touches the transition tables its
  // trigger defines. Deltas are summed per key and applied in key order (no lock-order cycles);
  // an UPDATE that changes no status writes nothing.
  await sql
    .raw(
      `CREATE FUNCTION orders_count_changes() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
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
    END $$`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE FUNCTION orders_count_truncate() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
    BEGIN
      DELETE FROM order_counts;
      RETURN NULL;
    END $$`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER orders_counts_insert AFTER INSERT ON orders REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION orders_count_changes()`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER orders_counts_update AFTER UPDATE ON orders REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION orders_count_changes()`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER orders_counts_delete AFTER DELETE ON orders REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION orders_count_changes()`,
    )
    .execute(db);
  await sql
    .raw(
      'CREATE TRIGGER orders_counts_truncate AFTER TRUNCATE ON orders FOR EACH STATEMENT EXECUTE FUNCTION orders_count_truncate()',
    )
    .execute(db);
}

/**
 * Installs pg_trgm once per database (a trusted extension: the database owner may), in the
 * `public` schema so that every schema on the server can use it: test suites each live in their
 * own schema, and an extension installed into one of them would vanish with it. Returns the
 * schema that holds it, or null when it cannot be installed (search then works without the
 * trigram index, by scanning).
 */
async function ensureTrigramExtension(db: MigrationDb): Promise<string | null> {
  // Concurrent migrations (parallel test suites) would race on CREATE EXTENSION.
  await sql`select pg_advisory_xact_lock(hashtext('boostly:pg_trgm'))`.execute(db);
  const installed = async () =>
    (
      await sql<{
        schema: string;
      }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(
        db,
      )
    ).rows[0]?.schema ?? null;
  const existing = await installed();
  if (existing) return existing;
  const { rows } = await sql<{ available: boolean; allowed: boolean }>`
    select exists (select 1 from pg_available_extensions where name = 'pg_trgm') as available,
           case when (select rolsuper from pg_roles where rolname = current_user) then true
                when not exists (select 1 from pg_namespace where nspname = 'public') then false
                else has_database_privilege(current_database(), 'CREATE') and has_schema_privilege('public', 'CREATE') end as allowed`.execute(
    db,
  );
  if (!rows[0]?.available || !rows[0]?.allowed) return null;
  await sql.raw('CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public').execute(db);
  return installed();
}
