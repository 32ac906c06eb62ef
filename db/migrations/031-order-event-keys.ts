import { type MigrationDb, sql } from './helpers.ts';

/**
 * A timeline entry that must be written once however often its cause is seen again (a payment
 * flagged for the owner, seen by every reconciler pass and every repeated verify) carries a key;
 * the unique index makes a second write of the same key a no-op on both dialects, even when two
 * writers race. Entries without a key (most of them) are NULL there, which a unique index allows
 * any number of times.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('order_events').addColumn('event_key', 'text').execute();
  await sql`create unique index order_events_event_key on order_events (event_key)`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await sql`drop index if exists order_events_event_key`.execute(db);
  await db.schema.alterTable('order_events').dropColumn('event_key').execute();
}
