import type { MigrationDb } from './helpers.ts';

/**
 * The catalogue edited in the admin (decision 044).
 *
 * - `services.status`: 'draft' | 'published'. Drafts are absent from every public read (lists,
 *   pages, /api/services, the sitemap, JSON-LD, order creation). Existing services are published.
 * - `services.revision`: bumped by every save; a save names the revision its editor opened, and a
 *   compare-and-set on it refuses a stale editor (409) instead of overwriting someone's change.
 * - `services.published_at`: when the service was first published; from then on its slug is fixed
 *   (orders, reviews, links and the sitemap name it). Existing services count as published now.
 * - `catalogue_content`: one row, the catalogue's content version, bumped in the same transaction
 *   as every catalogue write, so every instance's page cache keys follow it (as `blog_content`).
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .alterTable('services')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('published'))
    .execute();
  await db.schema
    .alterTable('services')
    .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable('services').addColumn('published_at', 'text').execute();
  await db.updateTable('services').set({ published_at: new Date().toISOString() }).execute();

  await db.schema
    .createTable('catalogue_content')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('version', 'integer', (c) => c.notNull())
    .execute();
  await db.insertInto('catalogue_content').values({ id: 1, version: 1 }).execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('catalogue_content').execute();
  await db.schema.alterTable('services').dropColumn('published_at').execute();
  await db.schema.alterTable('services').dropColumn('revision').execute();
  await db.schema.alterTable('services').dropColumn('status').execute();
}
