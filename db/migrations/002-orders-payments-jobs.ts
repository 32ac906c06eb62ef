import { type MigrationDb, idColumn } from './helpers.ts';

/**
 * Orders and their payments, the order timeline, webhook de-duplication, the jobs table
 * (outbox) and a small key-value table for install-wide settings such as the sandbox secret.
 * Timestamps are ISO-8601 UTC text in both dialects.
 */
export async function up(db: MigrationDb): Promise<void> {
  await idColumn(db, db.schema.createTable('orders'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('provider_order_id', 'text', (c) => c.notNull().unique())
    .addColumn('client_order_id', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('service_slug', 'text', (c) => c.notNull())
    .addColumn('service_name', 'text', (c) => c.notNull())
    .addColumn('plan_type', 'text', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('target_kind', 'text', (c) => c.notNull())
    .addColumn('comment', 'text')
    .addColumn('supplier_service_id', 'text', (c) => c.notNull())
    .addColumn('price_e4', 'bigint', (c) => c.notNull())
    .addColumn('amount_e4', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('payment_status', 'text', (c) => c.notNull())
    .addColumn('order_status', 'text', (c) => c.notNull())
    .addColumn('payment_id', 'text', (c) => c.unique())
    .addColumn('needs_review', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('review_reason', 'text')
    .addColumn('error_message', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('paid_at', 'text')
    // A double click sends the same client order id twice: one order, not two.
    .addUniqueConstraint('orders_email_client_order', ['email', 'client_order_id'])
    .execute();
  await db.schema.createIndex('orders_created_at').on('orders').column('created_at').execute();
  await db.schema.createIndex('orders_email_created_at').on('orders').columns(['email', 'created_at']).execute();
  await db.schema
    .createIndex('orders_payment_status_created_at')
    .on('orders')
    .columns(['payment_status', 'created_at'])
    .execute();

  await idColumn(db, db.schema.createTable('order_events'))
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('detail_json', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
  await db.schema.createIndex('order_events_order_at').on('order_events').columns(['order_id', 'at']).execute();

  await db.schema
    .createTable('webhook_events')
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('received_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('webhook_events_pk', ['provider', 'event_id'])
    .execute();

  await idColumn(db, db.schema.createTable('jobs'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload_json', 'text', (c) => c.notNull())
    // Enqueuing the same key twice is a no-op: e.g. one receipt per order, however often paid is seen.
    .addColumn('dedupe_key', 'text', (c) => c.unique())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('run_at', 'text', (c) => c.notNull())
    .addColumn('locked_by', 'text')
    .addColumn('locked_until', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('jobs_status_run_at').on('jobs').columns(['status', 'run_at']).execute();

  // Payments taken by the built-in sandbox checkout, so the reconciler can ask it like a provider.
  await db.schema
    .createTable('sandbox_payments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('provider_order_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('error_description', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sandbox_payments_order').on('sandbox_payments').column('provider_order_id').execute();

  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  for (const table of ['settings', 'sandbox_payments', 'jobs', 'webhook_events', 'order_events', 'orders']) {
    await db.schema.dropTable(table).execute();
  }
}
