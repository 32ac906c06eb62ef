import { sql } from 'kysely';
import { type MigrationDb, idColumn, isPostgres } from './helpers.ts';

/**
 * The blog (decision 018): categories, posts, full-text search and a content version.
 *
 * Search text. `search_title` and `search_body` hold the post's title, and its shortDesc plus the
 * body's plain text, lowercased with accents folded ("Café" → "cafe") by core/blog when it
 * writes the post: PostgreSQL's `unaccent` is an extension the store's role may not be allowed
 * to install, and folding once in one place gives both dialects the same matching.
 *   - SQLite: an FTS5 external-content table over those two columns (rowid = blog_posts.id),
 *     kept in sync by triggers in the writing transaction; ranked with bm25, title weighted.
 *   - PostgreSQL: a stored generated `tsvector` (title weight A, body weight B, `simple` config:
 *     the text is already folded, and prefix matching stands in for stemming on both dialects),
 *     with a GIN index; ranked with ts_rank.
 *
 * `blog_content` is one row: the content version, bumped in the same transaction as every blog
 * write (page caches on every instance key on it), and when the seed posts were written (the
 * seed runs once per database, so posts an admin deletes never come back).
 */
export async function up(db: MigrationDb): Promise<void> {
  await idColumn(db, db.schema.createTable('blog_categories'))
    .addColumn('name', 'text', (c) => c.notNull().unique())
    // Lowercased, accents folded: "instagram updates" and "Instagram Updates" are one category.
    .addColumn('name_key', 'text', (c) => c.notNull().unique())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await idColumn(db, db.schema.createTable('blog_posts'))
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('short_desc', 'text', (c) => c.notNull())
    // 0: derived from the body (and derived again when the body changes); 1: written by the admin.
    .addColumn('short_desc_is_custom', 'integer', (c) => c.notNull().defaultTo(0))
    // Sanitised HTML (core/html/sanitize.ts), sanitised again on render.
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('category_id', 'integer', (c) => c.references('blog_categories.id').onDelete('set null'))
    // '' when the post has no image.
    .addColumn('image_url', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('image_width', 'integer')
    .addColumn('image_height', 'integer')
    .addColumn('search_title', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('search_body', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // Newest first, overall and per category (id breaks ties between posts of the same instant).
  await db.schema.createIndex('blog_posts_created_at_id').on('blog_posts').columns(['created_at', 'id']).execute();
  await db.schema
    .createIndex('blog_posts_category_created_at_id')
    .on('blog_posts')
    .columns(['category_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('blog_content')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('seeded_at', 'text')
    .execute();
  await db.insertInto('blog_content').values({ id: 1, version: 1, seeded_at: null }).execute();

  if (isPostgres(db)) {
    await sql
      .raw(
        `ALTER TABLE blog_posts ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
          setweight(to_tsvector('simple'::regconfig, search_title), 'A') ||
          setweight(to_tsvector('simple'::regconfig, search_body), 'B')
        ) STORED`,
      )
      .execute(db);
    await sql.raw('CREATE INDEX blog_posts_search ON blog_posts USING gin (search_vector)').execute(db);
  } else {
    await sql
      .raw(
        `CREATE VIRTUAL TABLE blog_posts_fts USING fts5(
          search_title, search_body, content = 'blog_posts', content_rowid = 'id',
          tokenize = 'unicode61 remove_diacritics 2'
        )`,
      )
      .execute(db);
    await sql
      .raw(
        `CREATE TRIGGER blog_posts_fts_ai AFTER INSERT ON blog_posts BEGIN
          INSERT INTO blog_posts_fts (rowid, search_title, search_body) VALUES (new.id, new.search_title, new.search_body);
        END`,
      )
      .execute(db);
    await sql
      .raw(
        `CREATE TRIGGER blog_posts_fts_ad AFTER DELETE ON blog_posts BEGIN
          INSERT INTO blog_posts_fts (blog_posts_fts, rowid, search_title, search_body)
            VALUES ('delete', old.id, old.search_title, old.search_body);
        END`,
      )
      .execute(db);
    await sql
      .raw(
        `CREATE TRIGGER blog_posts_fts_au AFTER UPDATE OF id, search_title, search_body ON blog_posts BEGIN
          INSERT INTO blog_posts_fts (blog_posts_fts, rowid, search_title, search_body)
            VALUES ('delete', old.id, old.search_title, old.search_body);
          INSERT INTO blog_posts_fts (rowid, search_title, search_body) VALUES (new.id, new.search_title, new.search_body);
        END`,
      )
      .execute(db);
  }
}

export async function down(db: MigrationDb): Promise<void> {
  if (!isPostgres(db)) {
    for (const trigger of ['blog_posts_fts_ai', 'blog_posts_fts_ad', 'blog_posts_fts_au']) {
      await sql.raw(`DROP TRIGGER IF EXISTS ${trigger}`).execute(db);
    }
    await sql.raw('DROP TABLE IF EXISTS blog_posts_fts').execute(db);
  }
  await db.schema.dropTable('blog_content').execute();
  await db.schema.dropTable('blog_posts').execute();
  await db.schema.dropTable('blog_categories').execute();
}
