import { type MigrationDb, idColumn } from './helpers.ts';

/**
 * One-time codes (order-history lookup, admin login verification): one live code per
 * (purpose, subject), replaced on resend. Only an HMAC of the code is kept (see
 * core/auth/one-time-codes.ts). The row also carries the resend throttle state, so it
 * outlives the code it holds. Timestamps are ISO-8601 UTC text in both dialects.
 */
export async function up(db: MigrationDb): Promise<void> {
  await idColumn(db, db.schema.createTable('one_time_codes'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('consumed_at', 'text')
    .addColumn('last_sent_at', 'text', (c) => c.notNull())
    .addColumn('sends_in_window', 'integer', (c) => c.notNull())
    .addColumn('window_started_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    // One live code per subject and purpose: a resend replaces it in place.
    .addUniqueConstraint('one_time_codes_purpose_subject', ['purpose', 'subject'])
    .execute();
  // For the retention purge.
  await db.schema.createIndex('one_time_codes_expires_at').on('one_time_codes').column('expires_at').execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('one_time_codes').execute();
}
