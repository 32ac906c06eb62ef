import { type MigrationDb, idColumn } from './helpers.ts';

/**
 * Admin accounts and their access tokens (core/auth/admins.ts). Passwords are kept as scrypt
 * hashes (core/auth/passwords.ts) and tokens only as their SHA-256, so a copy of the database
 * opens no session. Timestamps are ISO-8601 UTC text in both dialects.
 */
export async function up(db: MigrationDb): Promise<void> {
  await idColumn(db, db.schema.createTable('admins'))
    // Trimmed and lowercased before it is stored or looked up.
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    // 0 or 1: set by the first one-time code the admin enters after logging in.
    .addColumn('is_verified', 'integer', (c) => c.notNull().defaultTo(0))
    // The current run of failed logins (forgotten 15 minutes after the last one) and the
    // lockout it led to.
    .addColumn('failed_logins', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_failed_at', 'text')
    .addColumn('locked_until', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await idColumn(db, db.schema.createTable('admin_tokens'))
    .addColumn('admin_id', 'integer', (c) => c.notNull().references('admins.id').onDelete('cascade'))
    // SHA-256 (hex) of the bearer token; the token itself is never stored.
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .addColumn('last_used_at', 'text')
    .execute();
  await db.schema.createIndex('admin_tokens_admin_id').on('admin_tokens').column('admin_id').execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('admin_tokens').execute();
  await db.schema.dropTable('admins').execute();
}
