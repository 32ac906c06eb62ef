import { type MigrationDb, idColumn, sql } from './helpers.ts';

/**
 * Messages sent through the contact form (decision 024). `order_id` is set only when the order
 * named exists and belongs to the sender's e-mail; it is cleared, not the message deleted, when
 * the order is purged (2-year retention). `status` is 'new' until an admin handles it. Timestamps
 * are ISO-8601 UTC text in both dialects.
 */
export async function up(db: MigrationDb): Promise<void> {
  await idColumn(db, db.schema.createTable('contact_messages'))
    // Normalised like every e-mail of the store (core/email.ts).
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('order_id', 'integer', (c) => c.references('orders.id').onDelete('set null'))
    // Plain text as typed (never HTML): escaped wherever it is shown.
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('new')
        .check(sql`status in ('new', 'handled')`),
    )
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('handled_at', 'text')
    .execute();
  // The future inbox: newest first, and the unread ('new') count.
  await db.schema.createIndex('contact_messages_created_at').on('contact_messages').column('created_at').execute();
  await db.schema
    .createIndex('contact_messages_status_created_at')
    .on('contact_messages')
    .columns(['status', 'created_at'])
    .execute();
  await db.schema.createIndex('contact_messages_order_id').on('contact_messages').column('order_id').execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('contact_messages').execute();
}
