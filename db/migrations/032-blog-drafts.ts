import { type MigrationDb, sql } from './helpers.ts';

/**
 * A post's publish time: null for a draft, a future time for a scheduled post. The public reads
 * compare it with the clock (so a scheduled post appears at its time with no job), hence the index.
 * Every post written before drafts existed was live: it is published at its creation time.
 */
export async function up(db: MigrationDb): Promise<void> {
  await sql`alter table blog_posts add column published_at text`.execute(db);
  await sql`update blog_posts set published_at = created_at`.execute(db);
  await sql`create index blog_posts_published_at on blog_posts (published_at)`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await sql`drop index blog_posts_published_at`.execute(db);
  await sql`alter table blog_posts drop column published_at`.execute(db);
}
