import type { MigrationDb } from './helpers.ts';

/**
 * The payment reconciler's rotation (decision 014): `orders.last_checked_at` is when the
 * reconciler last asked the payment provider about the order (null: never). Each run takes the
 * unpaid orders checked longest ago (never-checked first), so a pile of abandoned checkouts can no
 * longer keep a paid-but-unverified order from being looked at.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('orders').addColumn('last_checked_at', 'text').execute();
  // The reconciler's walk: unpaid orders (payment_status), least recently checked first.
  await db.schema
    .createIndex('orders_reconcile_rotation')
    .on('orders')
    .columns(['payment_status', 'last_checked_at', 'created_at'])
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropIndex('orders_reconcile_rotation').execute();
  await db.schema.alterTable('orders').dropColumn('last_checked_at').execute();
}
