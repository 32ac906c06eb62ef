import { type MigrationDb, isPostgres, sql } from './helpers.ts';

/**
 * The owner's dashboard (decision 042) at a million orders: per-day totals kept by triggers, so a
 * 90-day chart reads at most a few hundred small rows instead of aggregating the orders table.
 *
 * - `orders.completed_at` / `orders.refunded_at`: when the order first became Completed and when
 *   its money first went back. Set once by triggers from `updated_at` at that change, whatever
 *   code made it (fulfilment sync, admin actions, the bench's seeding). Orders from before this
 *   migration get `updated_at` (Completed) and their refund row's date (refunded).
 * - `order_daily_totals` (UTC day, currency): checkouts created that day and how many of them
 *   were paid (by the day they were created: paid vs abandoned), payments and revenue (by the
 *   day paid), refunds and refunded money (by the day refunded).
 * - `service_delivery_daily` (UTC day, service): orders completed that day and the seconds from
 *   payment to completion, summed (the average delivery time per service).
 *
 * Each row of `orders` contributes to these totals as a pure function of its own columns
 * (ORDER_CONTRIBUTIONS, DELIVERY_CONTRIBUTIONS). Triggers subtract the old row's contribution
 * and add the new one's, so any sequence of writes keeps the totals exact, and the migration
 * fills them with the same functions.
 * - "Flagged for review" is counted through a partial index holding only flagged orders.
 */

const DAY = (column: string) => `substr(${column}, 1, 10)`;

/** One row per total an order feeds: (day, currency, checkouts, converted, paid, revenue_e4, refunds, refunded_e4). */
function orderContributions(from: string, row: string, sign: string): string {
  return `
    SELECT ${DAY(`${row}.created_at`)} AS day, ${row}.currency AS currency, ${sign} AS checkouts,
           CASE WHEN ${row}.paid_at IS NULL THEN 0 ELSE ${sign} END AS converted,
           0 AS paid, 0 AS revenue_e4, 0 AS refunds, 0 AS refunded_e4
      FROM ${from}
    UNION ALL
    SELECT ${DAY(`${row}.paid_at`)}, ${row}.currency, 0, 0, ${sign}, ${sign} * ${row}.amount_e4, 0, 0
      FROM ${from} WHERE ${row}.paid_at IS NOT NULL
    UNION ALL
    SELECT ${DAY(`${row}.refunded_at`)}, ${row}.currency, 0, 0, 0, 0, ${sign}, ${sign} * ${row}.refunded_e4
      FROM ${from} WHERE ${row}.refunded_at IS NOT NULL`;
}

function secondsBetween(pg: boolean, from: string, to: string): string {
  return pg
    ? `round(extract(epoch from (${to}::timestamptz - ${from}::timestamptz)))::bigint`
    : `CAST(round((julianday(${to}) - julianday(${from})) * 86400) AS INTEGER)`;
}

/** (day, service_slug, completed, delivery_seconds) for a completed, paid order. */
function deliveryContributions(pg: boolean, from: string, row: string, sign: string): string {
  return `
    SELECT ${DAY(`${row}.completed_at`)} AS day, ${row}.service_slug AS service_slug, ${sign} AS completed,
           ${sign} * ${secondsBetween(pg, `${row}.paid_at`, `${row}.completed_at`)} AS delivery_seconds
      FROM ${from} WHERE ${row}.completed_at IS NOT NULL AND ${row}.paid_at IS NOT NULL`;
}

const TOTAL_COLUMNS = ['checkouts', 'converted', 'paid', 'revenue_e4', 'refunds', 'refunded_e4'] as const;
const DELIVERY_COLUMNS = ['completed', 'delivery_seconds'] as const;

/**
 * Sums contribution rows per key and adds them to the table (rows that sum to zero write
 * nothing). "WHERE true": SQLite needs a WHERE to tell an upsert's ON CONFLICT from a join's ON.
 * No alias for the target table: SQLite re-reads triggers when any table is renamed and does
 * not resolve an upsert alias there (ALTER TABLE … RENAME failed with "no such column: t.…").
 */
function applyTotals(contributions: string): string {
  const sums = TOTAL_COLUMNS.map((c) => `sum(${c})`).join(', ');
  const nonZero = TOTAL_COLUMNS.map((c) => `sum(${c}) <> 0`).join(' OR ');
  const add = TOTAL_COLUMNS.map((c) => `${c} = order_daily_totals.${c} + excluded.${c}`).join(', ');
  return `INSERT INTO order_daily_totals (day, currency, ${TOTAL_COLUMNS.join(', ')})
    SELECT day, currency, ${sums} FROM (${contributions}) c WHERE true GROUP BY day, currency HAVING ${nonZero} ORDER BY day, currency
    ON CONFLICT (day, currency) DO UPDATE SET ${add}`;
}

function applyDelivery(contributions: string): string {
  const sums = DELIVERY_COLUMNS.map((c) => `sum(${c})`).join(', ');
  const nonZero = DELIVERY_COLUMNS.map((c) => `sum(${c}) <> 0`).join(' OR ');
  const add = DELIVERY_COLUMNS.map((c) => `${c} = service_delivery_daily.${c} + excluded.${c}`).join(', ');
  return `INSERT INTO service_delivery_daily (day, service_slug, ${DELIVERY_COLUMNS.join(', ')})
    SELECT day, service_slug, ${sums} FROM (${contributions}) c WHERE true GROUP BY day, service_slug HAVING ${nonZero} ORDER BY day, service_slug
    ON CONFLICT (day, service_slug) DO UPDATE SET ${add}`;
}

/** The columns a contribution reads: an UPDATE that changes none of them changes no total. */
const READ_COLUMNS = [
  'created_at',
  'currency',
  'paid_at',
  'amount_e4',
  'refunded_at',
  'refunded_e4',
  'completed_at',
  'service_slug',
] as const;

export async function up(db: MigrationDb): Promise<void> {
  const pg = isPostgres(db);
  await db.schema.alterTable('orders').addColumn('completed_at', 'text').execute();
  await db.schema.alterTable('orders').addColumn('refunded_at', 'text').execute();
  await sql`update orders set completed_at = updated_at where order_status = 'Completed'`.execute(db);
  await sql`update orders set refunded_at = coalesce(
      (select min(r.created_at) from refunds r where r.order_id = orders.id), updated_at)
    where refunded_e4 > 0`.execute(db);

  await db.schema
    .createTable('order_daily_totals')
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('checkouts', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('converted', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('paid', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('revenue_e4', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('refunds', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('refunded_e4', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('order_daily_totals_pk', ['day', 'currency'])
    .execute();
  await db.schema
    .createTable('service_delivery_daily')
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('service_slug', 'text', (c) => c.notNull())
    .addColumn('completed', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('delivery_seconds', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('service_delivery_daily_pk', ['day', 'service_slug'])
    .execute();
  await sql.raw(applyTotals(orderContributions('orders', 'orders', '1'))).execute(db);
  await sql.raw(applyDelivery(deliveryContributions(pg, 'orders', 'orders', '1'))).execute(db);

  // The dashboard's "flagged for review" count (and the admin navigation's): only flagged rows.
  await sql
    .raw(
      "CREATE INDEX orders_flagged_for_review ON orders (id) WHERE needs_review = 1 OR fulfilment_state = 'needs_review'",
    )
    .execute(db);

  if (pg) await upPostgres(db);
  else await upSqlite(db);
}

async function upSqlite(db: MigrationDb) {
  // Milestones: a nested UPDATE (recursive_triggers is off, so this trigger does not fire itself;
  // the totals triggers below do fire for it, and count the change like any other).
  const milestonesWhen = `(new.order_status = 'Completed' AND new.completed_at IS NULL)
      OR (new.refunded_e4 > 0 AND new.refunded_at IS NULL)`;
  const setMilestones = `UPDATE orders SET
        completed_at = CASE WHEN order_status = 'Completed' THEN coalesce(completed_at, updated_at) ELSE completed_at END,
        refunded_at = CASE WHEN refunded_e4 > 0 THEN coalesce(refunded_at, updated_at) ELSE refunded_at END
      WHERE id = new.id;`;
  await sql
    .raw(`CREATE TRIGGER orders_milestones_ai AFTER INSERT ON orders WHEN ${milestonesWhen} BEGIN ${setMilestones} END`)
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER orders_milestones_au AFTER UPDATE OF order_status, refunded_e4 ON orders WHEN ${milestonesWhen} BEGIN ${setMilestones} END`,
    )
    .execute(db);

  // SQLite triggers are per row and have no transition tables: the row, as a one-row subquery.
  const one = (row: 'new' | 'old', alias: string) =>
    `(SELECT ${READ_COLUMNS.map((c) => `${row}.${c} AS ${c}`).join(', ')}) ${alias}`;
  const both = (newSign: string | null, oldSign: string | null) => {
    const rows = [
      ...(newSign ? [{ from: one('new', 'n'), row: 'n', sign: newSign }] : []),
      ...(oldSign ? [{ from: one('old', 'o'), row: 'o', sign: oldSign }] : []),
    ];
    const orderParts = rows.map((r) => orderContributions(r.from, r.row, r.sign)).join(' UNION ALL ');
    const deliveryParts = rows.map((r) => deliveryContributions(false, r.from, r.row, r.sign)).join(' UNION ALL ');
    return `${applyTotals(orderParts)}; ${applyDelivery(deliveryParts)};`;
  };
  await sql.raw(`CREATE TRIGGER orders_totals_ai AFTER INSERT ON orders BEGIN ${both('1', null)} END`).execute(db);
  await sql.raw(`CREATE TRIGGER orders_totals_ad AFTER DELETE ON orders BEGIN ${both(null, '-1')} END`).execute(db);
  const changed = READ_COLUMNS.map((c) => `old.${c} IS NOT new.${c}`).join(' OR ');
  await sql
    .raw(
      `CREATE TRIGGER orders_totals_au AFTER UPDATE OF ${READ_COLUMNS.join(', ')} ON orders WHEN ${changed} BEGIN ${both('1', '-1')} END`,
    )
    .execute(db);
}

async function upPostgres(db: MigrationDb) {
  await sql
    .raw(
      `CREATE FUNCTION orders_milestones() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.order_status = 'Completed' AND NEW.completed_at IS NULL THEN NEW.completed_at := NEW.updated_at; END IF;
      IF NEW.refunded_e4 > 0 AND NEW.refunded_at IS NULL THEN NEW.refunded_at := NEW.updated_at; END IF;
      RETURN NEW;
    END $$`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER orders_milestones BEFORE INSERT OR UPDATE OF order_status, refunded_e4 ON orders
    FOR EACH ROW EXECUTE FUNCTION orders_milestones()`,
    )
    .execute(db);

  // Statement triggers over the transition tables, like order_counts (migration 007): deltas
  // summed per key and applied in key order, so concurrent writers take row locks in one order.
  const totals = (parts: string) => `${applyTotals(parts)};`;
  const delivery = (parts: string) => `${applyDelivery(parts)};`;
  await sql
    .raw(
      `CREATE FUNCTION orders_totals_changes() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        ${totals(orderContributions('new_rows', 'new_rows', '1'))}
        ${delivery(deliveryContributions(true, 'new_rows', 'new_rows', '1'))}
      ELSIF TG_OP = 'DELETE' THEN
        ${totals(orderContributions('old_rows', 'old_rows', '-1'))}
        ${delivery(deliveryContributions(true, 'old_rows', 'old_rows', '-1'))}
      ELSE
        ${totals(`${orderContributions('new_rows', 'new_rows', '1')} UNION ALL ${orderContributions('old_rows', 'old_rows', '-1')}`)}
        ${delivery(`${deliveryContributions(true, 'new_rows', 'new_rows', '1')} UNION ALL ${deliveryContributions(true, 'old_rows', 'old_rows', '-1')}`)}
      END IF;
      RETURN NULL;
    END $$`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE FUNCTION orders_totals_truncate() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
    BEGIN
      DELETE FROM order_daily_totals;
      DELETE FROM service_delivery_daily;
      RETURN NULL;
    END $$`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER orders_totals_insert AFTER INSERT ON orders REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION orders_totals_changes()`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER orders_totals_update AFTER UPDATE ON orders REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION orders_totals_changes()`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER orders_totals_delete AFTER DELETE ON orders REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION orders_totals_changes()`,
    )
    .execute(db);
  await sql
    .raw(
      'CREATE TRIGGER orders_totals_truncate AFTER TRUNCATE ON orders FOR EACH STATEMENT EXECUTE FUNCTION orders_totals_truncate()',
    )
    .execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  if (isPostgres(db)) {
    for (const trigger of [
      'orders_totals_truncate',
      'orders_totals_delete',
      'orders_totals_update',
      'orders_totals_insert',
      'orders_milestones',
    ]) {
      await sql.raw(`DROP TRIGGER IF EXISTS ${trigger} ON orders`).execute(db);
    }
    await sql.raw('DROP FUNCTION IF EXISTS orders_totals_truncate()').execute(db);
    await sql.raw('DROP FUNCTION IF EXISTS orders_totals_changes()').execute(db);
    await sql.raw('DROP FUNCTION IF EXISTS orders_milestones()').execute(db);
  } else {
    for (const trigger of [
      'orders_totals_au',
      'orders_totals_ad',
      'orders_totals_ai',
      'orders_milestones_au',
      'orders_milestones_ai',
    ]) {
      await sql.raw(`DROP TRIGGER IF EXISTS ${trigger}`).execute(db);
    }
  }
  await sql.raw('DROP INDEX IF EXISTS orders_flagged_for_review').execute(db);
  await db.schema.dropTable('service_delivery_daily').ifExists().execute();
  await db.schema.dropTable('order_daily_totals').ifExists().execute();
  await db.schema.alterTable('orders').dropColumn('refunded_at').execute();
  await db.schema.alterTable('orders').dropColumn('completed_at').execute();
}
