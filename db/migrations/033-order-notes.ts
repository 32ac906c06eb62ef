import type { MigrationDb } from './helpers.ts';

/**
 * An owner's or support admin's internal note on an order: one plain-text note per order, kept
 * apart from the orders row (whose only writer is core/orders/transitions) and never read by
 * anything a customer sees. It goes with its order.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('order_notes')
    .addColumn('order_id', 'integer', (c) => c.primaryKey().references('orders.id').onDelete('cascade'))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'integer')
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('order_notes').execute();
}
