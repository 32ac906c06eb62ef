/**
 * The blog's use-case functions called on their own, without the `createBlog` facade: each takes
 * the deps it needs as its first argument, so a reader needs only a database and the clock, and a write bumps
 * the content version that its deps carry.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlogDeps } from '../../core/blog/blog.ts';
import { findCategory, findPost, listPosts } from '../../core/blog/reads.ts';
import { seedBlogOnce } from '../../core/blog/seed.ts';
import { createPost, deletePost } from '../../core/blog/writes.ts';
import { readContentVersion } from '../../core/content-version.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { type TestDatabase, dialects, openTestDatabase } from '../support/databases.ts';

describe.each(dialects)('blog use cases on %s', (dialect) => {
  let database: TestDatabase;
  const clock = () => new Date('2026-03-01T10:00:00.000Z');

  beforeAll(async () => {
    database = await openTestDatabase(dialect);
    await migrateToLatest(database.db);
  });
  afterAll(async () => {
    await database.dispose();
  });

  it('writes with the deps and reads with the database and the clock', async () => {
    const deps = createBlogDeps({ db: database.db, clock });
    const before = await readContentVersion(database.db, 'blog_content');
    const created = await createPost(deps, {
      title: 'Use cases on their own',
      category: 'Guides',
      description: '<p>Plain functions over one deps object.</p>',
    });
    expect(created).toMatchObject({ ok: true, post: { slug: 'use-cases-on-their-own', category: 'Guides' } });
    expect(await readContentVersion(database.db, 'blog_content')).toBe(before + 1);
    expect(deps.contentVersion.known()).toBe(before + 1);

    const reader = { db: database.db, clock };
    expect((await findPost(reader, 'use-cases-on-their-own'))?.createdAt).toBe('2026-03-01T10:00:00.000Z');
    expect((await listPosts(reader, { keyword: 'deps object', page: 1, size: 10 })).posts.map((p) => p.slug)).toEqual([
      'use-cases-on-their-own',
    ]);
    expect(await findCategory(reader, 'guides')).toMatchObject({ name: 'Guides', postCount: 1 });

    expect(await deletePost(deps, 'use-cases-on-their-own')).toBe(true);
    expect(await deletePost(deps, 'use-cases-on-their-own')).toBe(false);
    expect(await readContentVersion(database.db, 'blog_content')).toBe(before + 2);
  });

  it('seeds once, whichever deps object asks first', async () => {
    const seed = {
      categories: ['News'],
      posts: [
        {
          title: 'Seeded',
          slug: 'seeded',
          category: 'News',
          description: '<p>From the seed.</p>',
          image: { url: '', width: null, height: null },
          daysAgo: 2,
        },
      ],
    };
    expect(await seedBlogOnce(createBlogDeps({ db: database.db, clock }), seed)).toBe(true);
    expect(await seedBlogOnce(createBlogDeps({ db: database.db, clock }), seed)).toBe(false);
    expect((await findPost({ db: database.db, clock }, 'seeded'))?.createdAt).toBe('2026-02-27T10:00:00.000Z');
  });
});
