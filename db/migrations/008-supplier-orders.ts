import { type MigrationDb, idColumn, sql } from './helpers.ts';

/**
 * Every supplier order of an order (decision 012): an admin reorder cancels the live one at the
 * panel and sends a new one for what is still undelivered, so an order can have several. Each is
 * synced until it is final; the order's own status and remains are derived from them.
 * On `orders`, the admin action queued for the order and not finished yet (`pending_action`:
 * 'reorder' | 'apply-service') and the attempt counter behind its job's dedupe key.
 * Existing orders at the supplier get their one supplier order copied over.
 */
export async function up(db: MigrationDb): Promise<void> {
  await idColumn(db, db.schema.createTable('supplier_orders'))
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('supplier_order_id', 'text', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    // As last reported by the supplier (normalised); Processing until the first report.
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('remains', 'integer')
    .addColumn('start_count', 'integer')
    .addColumn('charge_e4', 'bigint')
    // 1 once the supplier reported Completed, Partial or Canceled: never synced again.
    .addColumn('final', 'integer', (c) => c.notNull().defaultTo(0))
    // When we asked the panel to cancel it (an admin reorder).
    .addColumn('cancel_requested_at', 'text')
    .addColumn('error_message', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('synced_at', 'text')
    .execute();
  await db.schema.createIndex('supplier_orders_order').on('supplier_orders').columns(['order_id', 'id']).execute();
  // The sync's walk: live supplier orders, least recently synced first.
  await db.schema
    .createIndex('supplier_orders_live_synced')
    .on('supplier_orders')
    .columns(['final', 'synced_at', 'id'])
    .execute();

  await db.schema.alterTable('orders').addColumn('pending_action', 'text').execute();
  await db.schema
    .alterTable('orders')
    .addColumn('action_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await sql`
    insert into supplier_orders
      (order_id, supplier_order_id, quantity, status, remains, start_count, charge_e4, final, created_at, synced_at)
    select id, supplier_order_id, quantity,
      case when order_status = 'Pending' then 'Processing' else order_status end,
      remains, start_count, supplier_charge_e4,
      case when order_status in ('Completed', 'Partial', 'Canceled') then 1 else 0 end,
      coalesce(paid_at, created_at), status_synced_at
    from orders
    where supplier_order_id is not null`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('orders').dropColumn('action_attempts').execute();
  await db.schema.alterTable('orders').dropColumn('pending_action').execute();
  await db.schema.dropTable('supplier_orders').execute();
}
