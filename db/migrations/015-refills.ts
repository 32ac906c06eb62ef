import { type MigrationDb, idColumn, sql } from './helpers.ts';

/**
 * Refills and supplier cancels (decision 040).
 *
 * - `refills`: one row per refill asked of the supplier for an order (by the customer from
 *   /client or by an admin). `state` is 'requesting' while the panel's `refill` call is in flight,
 *   then the panel's refill status (Pending, In progress, Completed, Rejected). `final` is 1 once
 *   Completed or Rejected: the unique partial index over the open rows is what makes "one open
 *   refill per order" hold under double clicks, two tabs and several instances.
 * - The refill window starts at `orders.completed_at`, kept by migration 018's triggers.
 * - `simulated_panel_refills`: the built-in panel's refills, so `refill_status` moves from
 *   Pending to Completed over time like a real panel's.
 */
export async function up(db: MigrationDb): Promise<void> {
  await idColumn(db, db.schema.createTable('refills'))
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('supplier_order_id', 'text', (c) => c.notNull())
    // Null while the `refill` call is in flight, and when the panel refused it.
    .addColumn('supplier_refill_id', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('raw_status', 'text')
    .addColumn('final', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('requested_by', 'text', (c) => c.notNull())
    .addColumn('admin_id', 'integer', (c) => c.references('admins.id').onDelete('set null'))
    .addColumn('error_message', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('polled_at', 'text')
    .execute();
  // At most one open refill per order: the second insert fails, whoever sends it.
  await sql.raw('CREATE UNIQUE INDEX refills_one_open_per_order ON refills (order_id) WHERE final = 0').execute(db);
  // An order's refills, newest first (the timeline, /client).
  await db.schema.createIndex('refills_order_id').on('refills').columns(['order_id', 'created_at']).execute();
  // The status poll: open refills, least recently asked first.
  await sql.raw('CREATE INDEX refills_open_polled ON refills (polled_at) WHERE final = 0').execute(db);

  await idColumn(db, db.schema.createTable('simulated_panel_refills'))
    .addColumn('order_id', 'integer', (c) => c.notNull().references('simulated_panel_orders.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('simulated_panel_refills_order_id')
    .on('simulated_panel_refills')
    .column('order_id')
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('simulated_panel_refills').execute();
  await db.schema.dropTable('refills').execute();
}
