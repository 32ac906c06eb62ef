import { type MigrationDb, idColumn } from './helpers.ts';

/**
 * Admin login hardening (decision 016): failed logins counted per account and source address,
 * so guesses from elsewhere never lock the admin out of their own address; and the second
 * factor every login needs (the e-mailed code, or TOTP with recovery codes). Timestamps are
 * ISO-8601 UTC text in both dialects.
 */
export async function up(db: MigrationDb): Promise<void> {
  await idColumn(db, db.schema.createTable('admin_login_failures'))
    // The normalised e-mail tried (admins' and strangers' alike, so a lockout reveals nothing).
    .addColumn('account', 'text', (c) => c.notNull())
    // The client address the attempts came from.
    .addColumn('source', 'text', (c) => c.notNull())
    // The current run of failures from this source, forgotten 15 minutes after its last one.
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('last_failed_at', 'text', (c) => c.notNull())
    .addColumn('locked_until', 'text')
    .addUniqueConstraint('admin_login_failures_account_source', ['account', 'source'])
    .execute();
  // The purge of stale runs.
  await db.schema
    .createIndex('admin_login_failures_last_failed_at')
    .on('admin_login_failures')
    .column('last_failed_at')
    .execute();

  await db.schema
    .createTable('admin_second_factors')
    .addColumn('admin_id', 'integer', (c) => c.primaryKey().references('admins.id').onDelete('cascade'))
    // AES-256-GCM ciphertexts of the TOTP secret: the confirmed one, and one being enrolled.
    .addColumn('totp_secret', 'text')
    .addColumn('totp_pending_secret', 'text')
    .addColumn('totp_enabled_at', 'text')
    // The last time step a TOTP code was accepted for: a code is never accepted twice.
    .addColumn('totp_last_step', 'integer')
    // Until when a right password lets a TOTP code (or recovery code) be entered.
    .addColumn('challenge_until', 'text')
    // A passed second factor: the next right password from this source, before then, logs in.
    .addColumn('passed_source', 'text')
    .addColumn('passed_until', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await idColumn(db, db.schema.createTable('admin_recovery_codes'))
    .addColumn('admin_id', 'integer', (c) => c.notNull().references('admins.id').onDelete('cascade'))
    // HMAC-SHA256 of the code; the code itself is shown once and never stored.
    .addColumn('code_hash', 'text', (c) => c.notNull().unique())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('admin_recovery_codes_admin_id').on('admin_recovery_codes').column('admin_id').execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('admin_recovery_codes').execute();
  await db.schema.dropTable('admin_second_factors').execute();
  await db.schema.dropTable('admin_login_failures').execute();
}
