import { type MigrationDb, sql } from './helpers.ts';

/**
 * Automatic likes and daily followers, and one live supplier order per link (decision 057).
 *
 * - `services.kind`: `package` (a one-off quantity, every service so far), `automatic_likes` (a
 *   panel subscription: likes on each new post for a period) or `daily_followers` (a drip-feed:
 *   followers every day for a period). `period_days`, `posts_per_period` and `post_delay_minutes`
 *   are the service's terms; null for packages.
 * - `orders.kind`: the service's kind when the order was made. `orders.lane_key`: the link the
 *   supplier delivers to, in its normal form with the kind of delivery (core/subscriptions/lanes.ts);
 *   orders on one lane never run at the supplier at the same time.
 * - `subscriptions`: one row per order of a subscription kind, the terms it was bought with and
 *   what the panel reported while it ran; its renewal reminder and link.
 * - `supplier_lanes`: the order that holds each lane at the supplier, one row per busy lane. The
 *   primary key is what makes the hold exclusive across instances: a second order's insert fails.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .alterTable('services')
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('package'))
    .execute();
  await db.schema.alterTable('services').addColumn('period_days', 'integer').execute();
  await db.schema.alterTable('services').addColumn('posts_per_period', 'integer').execute();
  await db.schema.alterTable('services').addColumn('post_delay_minutes', 'integer').execute();

  await db.schema
    .alterTable('orders')
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('package'))
    .execute();
  await db.schema.alterTable('orders').addColumn('lane_key', 'text').execute();
  // The paid orders waiting on a lane, oldest first; and "is this link busy" before payment.
  await db.schema.createIndex('orders_lane').on('orders').columns(['lane_key', 'fulfilment_state', 'id']).execute();
  // The console's Subscriptions filter.
  await sql`create index orders_subscriptions on orders (id) where kind <> 'package'`.execute(db);

  await db.schema
    .createTable('subscriptions')
    .addColumn('order_id', 'integer', (c) => c.primaryKey().references('orders.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('per_unit', 'integer', (c) => c.notNull())
    .addColumn('posts', 'integer')
    .addColumn('delay_minutes', 'integer')
    .addColumn('runs', 'integer')
    .addColumn('interval_minutes', 'integer')
    .addColumn('period_days', 'integer', (c) => c.notNull())
    .addColumn('starts_at', 'text')
    .addColumn('ends_at', 'text')
    .addColumn('posts_served', 'integer')
    .addColumn('runs_done', 'integer')
    .addColumn('panel_status', 'text')
    .addColumn('ended_at', 'text')
    .addColumn('end_reason', 'text')
    .addColumn('reminders', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('reminder_sent_at', 'text')
    .addColumn('renewal_token_hash', 'text', (c) => c.unique())
    .addColumn('renewal_of_order_id', 'integer', (c) => c.references('orders.id').onDelete('set null'))
    .addColumn('renewed_by_order_id', 'integer', (c) => c.references('orders.id').onDelete('set null'))
    .execute();
  // Running subscriptions by their end: the reminder job, "ending this week", the end of a period.
  await sql`create index subscriptions_running_ends on subscriptions (ends_at) where ended_at is null`.execute(db);

  await db.schema
    .createTable('supplier_lanes')
    .addColumn('lane_key', 'text', (c) => c.primaryKey())
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('taken_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('supplier_lanes_order').on('supplier_lanes').column('order_id').execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('supplier_lanes').ifExists().execute();
  await db.schema.dropTable('subscriptions').ifExists().execute();
  await sql`drop index if exists orders_subscriptions`.execute(db);
  await sql`drop index if exists orders_lane`.execute(db);
  await db.schema.alterTable('orders').dropColumn('lane_key').execute();
  await db.schema.alterTable('orders').dropColumn('kind').execute();
  await db.schema.alterTable('services').dropColumn('post_delay_minutes').execute();
  await db.schema.alterTable('services').dropColumn('posts_per_period').execute();
  await db.schema.alterTable('services').dropColumn('period_days').execute();
  await db.schema.alterTable('services').dropColumn('kind').execute();
}
