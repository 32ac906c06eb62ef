import type { MigrationDb } from './helpers.ts';

/**
 * The built-in simulated panel takes the two other kinds of `add` (decision 057): drip-feed orders
 * (`runs` runs of `quantity`, `interval` minutes apart) and subscriptions on a Subscriptions
 * service (`min` to `max` per new post of `username`, up to `posts` posts, `delay` minutes after
 * each, until `expiry`). `kind` says which an order is ('one-off' for every order so far); the
 * other columns are null for the kinds they do not belong to. `runs_done` and `posts_served` are
 * what `status` reports, brought up to date with the clock on every read like `remains`.
 * A subscription keeps its username in `link` and its max per post in `quantity`, so the columns
 * every order has stay filled.
 */
const COLUMNS: [name: string, type: 'integer' | 'text'][] = [
  ['runs', 'integer'],
  ['run_interval_minutes', 'integer'],
  ['runs_done', 'integer'],
  ['username', 'text'],
  ['min_per_post', 'integer'],
  ['max_per_post', 'integer'],
  ['posts', 'integer'],
  ['old_posts', 'integer'],
  ['delay_minutes', 'integer'],
  ['expires_at', 'text'],
  ['posts_served', 'integer'],
];

export async function up(db: MigrationDb): Promise<void> {
  // SQLite adds one column per ALTER TABLE.
  await db.schema
    .alterTable('simulated_panel_orders')
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('one-off'))
    .execute();
  for (const [name, type] of COLUMNS) {
    await db.schema.alterTable('simulated_panel_orders').addColumn(name, type).execute();
  }
}

export async function down(db: MigrationDb): Promise<void> {
  for (const [name] of [...COLUMNS].reverse()) {
    await db.schema.alterTable('simulated_panel_orders').dropColumn(name).execute();
  }
  await db.schema.alterTable('simulated_panel_orders').dropColumn('kind').execute();
}
