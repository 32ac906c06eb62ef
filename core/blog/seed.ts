/** The blog's first posts and categories, written once per database (db/seed/blog-posts.ts holds them). */
import { bumpContentVersion, readContentVersion } from '../content-version.ts';
import type { BlogImage } from './contracts.ts';
import type { BlogDeps } from './deps.ts';
import { categoryIdFor, insertPostRow } from './write-rows.ts';

export interface BlogSeed {
  categories: string[];
  posts: {
    title: string;
    slug: string;
    category: string;
    description: string;
    image: BlogImage;
    /** How long before the seeding the post is dated, so the list has a believable history. */
    daysAgo: number;
  }[];
}

/** Writes the seed if this database has never been seeded; true when it did. Safe across instances. */
export async function seedBlogOnce(deps: BlogDeps, seed: BlogSeed): Promise<boolean> {
  const seededAt = deps.clock();
  const result = await deps.db.transaction().execute(async (trx) => {
    // The row lock makes a second instance wait, then find it seeded (PostgreSQL); SQLite
    // runs one write transaction at a time.
    const claimed = await trx
      .updateTable('blog_content')
      .set({ seeded_at: seededAt.toISOString() })
      .where('id', '=', 1)
      .where('seeded_at', 'is', null)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) return null;
    for (const name of seed.categories) await categoryIdFor(deps, trx, name);
    for (const post of seed.posts) {
      const createdAt = new Date(seededAt.getTime() - post.daysAgo * 86_400_000).toISOString();
      const inserted = await insertPostRow(deps, trx, post, post.image, createdAt);
      if (!inserted.ok) throw new Error(`blog seed: the slug ${post.slug} is taken`);
    }
    return bumpContentVersion(trx, 'blog_content');
  });
  deps.contentVersion.saw(result ?? (await readContentVersion(deps.db, 'blog_content')));
  deps.contentVersion.markRead();
  return result !== null;
}
