import { type MigrationDb, idColumn } from './helpers.ts';

/**
 * Fulfilment: the built-in simulated supplier panel's orders, and on `orders` what the store
 * knows about the supplier's side (its order id, submission state, progress, charge, refunds).
 * SQLite adds one column per ALTER TABLE, so each column is its own statement in both dialects.
 */
export async function up(db: MigrationDb): Promise<void> {
  await idColumn(db, db.schema.createTable('simulated_panel_orders'))
    .addColumn('service', 'text', (c) => c.notNull())
    .addColumn('link', 'text', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('comments', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('start_count', 'integer', (c) => c.notNull())
    .addColumn('remains', 'integer', (c) => c.notNull())
    // What will remain when delivery ends, decided at creation with the outcome: 0 for complete.
    .addColumn('final_remains', 'integer', (c) => c.notNull())
    .addColumn('charge_e4', 'bigint', (c) => c.notNull())
    // 'complete' | 'partial' | 'cancel', decided at creation.
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('delivered_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('simulated_panel_orders_status').on('simulated_panel_orders').column('status').execute();

  const orderColumns = [
    db.schema.alterTable('orders').addColumn('supplier_order_id', 'text'),
    // none | submitting | submitted | needs_review | failed
    db.schema.alterTable('orders').addColumn('fulfilment_state', 'text', (c) => c.notNull().defaultTo('none')),
    db.schema.alterTable('orders').addColumn('fulfilment_attempts', 'integer', (c) => c.notNull().defaultTo(0)),
    db.schema.alterTable('orders').addColumn('start_count', 'integer'),
    db.schema.alterTable('orders').addColumn('remains', 'integer'),
    db.schema.alterTable('orders').addColumn('supplier_charge_e4', 'bigint'),
    db.schema.alterTable('orders').addColumn('status_synced_at', 'text'),
    db.schema.alterTable('orders').addColumn('refunded_e4', 'bigint', (c) => c.notNull().defaultTo(0)),
  ];
  for (const statement of orderColumns) await statement.execute();
  await db.schema
    .createIndex('orders_order_status_synced')
    .on('orders')
    .columns(['order_status', 'status_synced_at'])
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropIndex('orders_order_status_synced').execute();
  for (const column of [
    'refunded_e4',
    'status_synced_at',
    'supplier_charge_e4',
    'remains',
    'start_count',
    'fulfilment_attempts',
    'fulfilment_state',
    'supplier_order_id',
  ]) {
    await db.schema.alterTable('orders').dropColumn(column).execute();
  }
  await db.schema.dropTable('simulated_panel_orders').execute();
}
