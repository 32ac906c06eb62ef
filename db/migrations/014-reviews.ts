import { type MigrationDb, idColumn, sql } from './helpers.ts';

/**
 * Real reviews (decision 039).
 *
 * - `review_invitations`: one per order (unique `order_id`), made when the order reaches
 *   Completed. Only the SHA-256 of the link's token is kept (`token_hash`, unique: the lookup);
 *   `used_at` is set once by a compare-and-set (`WHERE used_at IS NULL`), which makes the link
 *   single-use under double clicks and races.
 * - `reviews`: what the customer wrote, one per order, as plain text (escaped on output). The
 *   order's service slug is copied in so the service pages' aggregate needs no join. `state` moves
 *   pending → approved | rejected by compare-and-set; `decided_by` keeps NULL when the admin goes.
 * - Partial indexes: the navigation's pending count and the moderation list (pending rows only),
 *   the carousel (approved, newest first) and each service's aggregate (approved, by service).
 * - `reviews_content`: one row, the version every approve or reject bumps: the page caches of every
 *   instance key on it, as they do on the blog's (decision 005).
 *
 * Both tables go with their order when retention purges it (ON DELETE CASCADE, decision 024's
 * two years).
 */
export async function up(db: MigrationDb): Promise<void> {
  await idColumn(db, db.schema.createTable('review_invitations'))
    .addColumn('order_id', 'integer', (c) => c.notNull().unique().references('orders.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();

  await idColumn(db, db.schema.createTable('reviews'))
    .addColumn('order_id', 'integer', (c) => c.notNull().unique().references('orders.id').onDelete('cascade'))
    .addColumn('service_slug', 'text', (c) => c.notNull())
    .addColumn('rating', 'integer', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('decided_at', 'text')
    .addColumn('decided_by', 'integer', (c) => c.references('admins.id').onDelete('set null'))
    .execute();

  await sql.raw("CREATE INDEX reviews_pending ON reviews (created_at) WHERE state = 'pending'").execute(db);
  await sql.raw("CREATE INDEX reviews_approved ON reviews (created_at) WHERE state = 'approved'").execute(db);
  await sql.raw("CREATE INDEX reviews_approved_service ON reviews (service_slug) WHERE state = 'approved'").execute(db);
  // The moderation list: every review, newest first, after the pending ones.
  await db.schema.createIndex('reviews_created_at').on('reviews').column('created_at').execute();

  await db.schema
    .createTable('reviews_content')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('version', 'integer', (c) => c.notNull())
    .execute();
  await db.insertInto('reviews_content').values({ id: 1, version: 1 }).execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('reviews_content').execute();
  await db.schema.dropTable('reviews').execute();
  await db.schema.dropTable('review_invitations').execute();
}
