import { type MigrationDb, sql } from './helpers.ts';

/**
 * The console's "Queued" view (decision 057): the paid orders waiting for the order ahead of them
 * on the same account are few at any time, but `orders_lane` leads with the lane, so without this
 * index finding them all would read every order.
 */
export async function up(db: MigrationDb): Promise<void> {
  await sql`create index orders_queued on orders (id) where fulfilment_state = 'queued'`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await sql`drop index if exists orders_queued`.execute(db);
}
