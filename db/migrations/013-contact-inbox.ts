import { type MigrationDb, idColumn, sql } from './helpers.ts';

/**
 * The admin inbox over the contact messages (decision 026).
 *
 * - `read_at`: when an admin first opened the message; NULL is "unread" (the navigation's count,
 *   served by a partial index over the unread rows only).
 * - `handled_by`: the admin who marked it handled (kept NULL when that admin is deleted).
 * - `search_text`: the sender's e-mail, the linked order's provider id and the text, lowercased
 *   by core/contact (JavaScript's Unicode lowercasing, the same on both dialects: SQLite's
 *   lower() folds ASCII only), so the inbox search is one case-blind LIKE on one column.
 *   Existing rows are filled here the same way.
 * - `contact_replies`: what admins answered, oldest first per message; deleted with the message
 *   (2-year retention purges messages, decision 024).
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('contact_messages').addColumn('read_at', 'text').execute();
  await db.schema
    .alterTable('contact_messages')
    .addColumn('handled_by', 'integer', (c) => c.references('admins.id').onDelete('set null'))
    .execute();
  await db.schema
    .alterTable('contact_messages')
    .addColumn('search_text', 'text', (c) => c.notNull().defaultTo(''))
    .execute();

  // Messages stored before this migration: the same folding core/contact applies to new ones.
  const rows: { id: number; email: string; message: string; provider_order_id: string | null }[] = await db
    .selectFrom('contact_messages as m')
    .leftJoin('orders as o', 'o.id', 'm.order_id')
    .select(['m.id', 'm.email', 'm.message', 'o.provider_order_id'])
    .execute();
  for (const row of rows) {
    const text = [row.email, row.provider_order_id ?? '', row.message].join('\n').toLowerCase();
    await db.updateTable('contact_messages').set({ search_text: text }).where('id', '=', row.id).execute();
  }

  // The unread count (and the unread rows, newest first): only unread messages are in it.
  await sql
    .raw('CREATE INDEX contact_messages_unread ON contact_messages (created_at) WHERE read_at IS NULL')
    .execute(db);

  await idColumn(db, db.schema.createTable('contact_replies'))
    .addColumn('message_id', 'integer', (c) => c.notNull().references('contact_messages.id').onDelete('cascade'))
    // Plain text as the admin typed it: escaped wherever it is shown or mailed.
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('admin_id', 'integer', (c) => c.references('admins.id').onDelete('set null'))
    // Kept as text: the thread still says who answered after that admin account is gone.
    .addColumn('admin_email', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // A message's thread, oldest first.
  await db.schema
    .createIndex('contact_replies_message_id_created_at')
    .on('contact_replies')
    .columns(['message_id', 'created_at'])
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('contact_replies').execute();
  await sql.raw('DROP INDEX IF EXISTS contact_messages_unread').execute(db);
  await db.schema.alterTable('contact_messages').dropColumn('search_text').execute();
  await db.schema.alterTable('contact_messages').dropColumn('handled_by').execute();
  await db.schema.alterTable('contact_messages').dropColumn('read_at').execute();
}
