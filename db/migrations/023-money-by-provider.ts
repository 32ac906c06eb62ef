import { type MigrationDb, sql } from './helpers.ts';

/**
 * The owner's money by payment provider (the dashboard, core/admin/dashboard-money.ts).
 *
 * - `refunds_settled`: refunds made, by the day they were made (`settled_at`), which is when the
 *   money left; the index of migration 022 is by the day they were asked for. Partial: only
 *   `done` refunds are money given back, and the others never reach the dashboard.
 * - `order_payments_extra`: second payments and underpayments, which wait for the owner to refund
 *   them. They are rare, so the dashboard reads them all at every load; without this index that
 *   read is a scan of every payment.
 *
 * Both predicates are written out, not bound, in the queries too: SQLite uses a partial index
 * only for a WHERE it can match to the index's own.
 */
export async function up(db: MigrationDb): Promise<void> {
  await sql`create index refunds_settled on refunds (settled_at, provider) where status = 'done'`.execute(db);
  await sql`create index order_payments_extra on order_payments (provider) where role = 'extra'`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await sql`drop index if exists order_payments_extra`.execute(db);
  await sql`drop index if exists refunds_settled`.execute(db);
}
