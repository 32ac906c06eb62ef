import { type MigrationDb, idColumn } from './helpers.ts';

/** Refunds we made, one per order at most (Canceled: the whole amount; Partial: the undelivered share). */
export async function up(db: MigrationDb): Promise<void> {
  await idColumn(db, db.schema.createTable('refunds'))
    .addColumn('order_id', 'integer', (c) => c.notNull().unique().references('orders.id').onDelete('cascade'))
    .addColumn('provider_refund_id', 'text', (c) => c.notNull())
    .addColumn('amount_e4', 'bigint', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('refunds').execute();
}
