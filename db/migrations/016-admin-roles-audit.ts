import { type MigrationDb, idColumn } from './helpers.ts';

/**
 * Admin roles, invitations and the audit log (decision 041).
 *
 * - `admins.role`: 'owner' (everything) or 'support' (orders, messages, reviews, their own
 *   security page). Every admin that exists before this migration was made by the operator with
 *   full access, so the default makes them owners. `last_login_at` is set by each issued token.
 * - `admin_invitations`: one open invitation per e-mail (re-inviting replaces it); only the
 *   SHA-256 of the single-use token is kept, so a copy of the database accepts no invitation.
 * - `admin_audit`: one row per admin action that changes something. The admin's e-mail is
 *   copied into the row, so the log still says who after the admin is removed (no foreign key).
 *   Indexed for its list queries: newest first, by admin, by action, by target.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .alterTable('admins')
    .addColumn('role', 'text', (c) => c.notNull().defaultTo('owner'))
    .execute();
  await db.schema.alterTable('admins').addColumn('last_login_at', 'text').execute();

  await idColumn(db, db.schema.createTable('admin_invitations'))
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('role', 'text', (c) => c.notNull())
    // SHA-256 (hex) of the token in the e-mailed link; the token itself is never stored.
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('invited_by', 'integer', (c) => c.references('admins.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('accepted_at', 'text')
    .execute();

  await idColumn(db, db.schema.createTable('admin_audit'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('admin_id', 'integer')
    .addColumn('admin_email', 'text', (c) => c.notNull())
    // A name such as 'admin.invite', or the route ('POST /admin/orders/:id/reorder').
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text')
    .addColumn('target_id', 'text')
    // The HTTP status the action answered (2xx done, 4xx refused).
    .addColumn('outcome', 'integer', (c) => c.notNull())
    // JSON { before?, after? } with secrets removed (core/admin/audit.ts), or null.
    .addColumn('summary', 'text')
    .execute();
  await db.schema.createIndex('admin_audit_newest').on('admin_audit').columns(['created_at', 'id']).execute();
  await db.schema
    .createIndex('admin_audit_by_admin')
    .on('admin_audit')
    .columns(['admin_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('admin_audit_by_action')
    .on('admin_audit')
    .columns(['action', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('admin_audit_by_target')
    .on('admin_audit')
    .columns(['target_type', 'target_id', 'created_at', 'id'])
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('admin_audit').execute();
  await db.schema.dropTable('admin_invitations').execute();
  await db.schema.alterTable('admins').dropColumn('last_login_at').execute();
  await db.schema.alterTable('admins').dropColumn('role').execute();
}
