/**
 * core/blog on both dialects, below the API: the text rules (slugs, folding, shortDesc, reading
 * time, search tokens), related posts, categories, the feed, concurrent writers and the seed
 * running exactly once when several instances boot together.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Blog, createBlog } from '../../core/blog/blog.ts';
import { BLOG_SHARE_IMAGE, SHARE_IMAGE_HEIGHT, SHARE_IMAGE_WIDTH, shareImageOf } from '../../core/blog/share-image.ts';
import {
  deriveShortDesc,
  fold,
  plainTextOf,
  readingMinutes,
  searchTokens,
  slugify,
  uniqueSlug,
} from '../../core/blog/text.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { blogSeed } from '../../core/blog/blog-seed.ts';
import { type TestDatabase, dialects, openTestDatabase } from '../support/databases.ts';

describe('share images (link previews ignore SVG)', () => {
  const publicDir = path.resolve(import.meta.dirname, '../../public');

  it('maps every image a post can have to a raster', () => {
    expect(shareImageOf('/images/blog/youtube-views.svg')).toBe('/images/blog/youtube-views.png');
    expect(shareImageOf('/uploads/0123456789abcdef0123456789abcdef.png')).toBe(
      '/uploads/0123456789abcdef0123456789abcdef.png',
    );
    expect(shareImageOf('/uploads/0123456789abcdef0123456789abcdef.jpg')).toBe(
      '/uploads/0123456789abcdef0123456789abcdef.jpg',
    );
    expect(shareImageOf('')).toBe(BLOG_SHARE_IMAGE);
    expect(shareImageOf('/images/logo.svg')).toBe(BLOG_SHARE_IMAGE);
    expect(shareImageOf('/images/blog/../logo.svg')).toBe(BLOG_SHARE_IMAGE);
    expect(shareImageOf('https://elsewhere.example/x.svg')).toBe(BLOG_SHARE_IMAGE);
  });

  /** Mean absolute difference per channel (0–255) between two same-sized RGB renderings. */
  async function meanDifference(a: Buffer, b: Buffer): Promise<number> {
    const raw = (image: Buffer) =>
      sharp(image).resize(SHARE_IMAGE_WIDTH, SHARE_IMAGE_HEIGHT, { fit: 'cover' }).removeAlpha().raw().toBuffer();
    const [left, right] = await Promise.all([raw(a), raw(b)]);
    let sum = 0;
    for (let index = 0; index < left.length; index += 1) sum += Math.abs((left[index] ?? 0) - (right[index] ?? 0));
    return sum / left.length;
  }

  it('has a PNG rendition of every seeded illustration, and of the blog default, that matches its SVG', async () => {
    const illustrations = [
      ...blogSeed.posts.map((post) => post.image?.url ?? ''),
      BLOG_SHARE_IMAGE.replace(/\.png$/, '.svg'),
    ];
    for (const illustration of illustrations) {
      expect(illustration).toMatch(/^\/images\/blog\/[a-z0-9-]+\.svg$/);
      const rendition = shareImageOf(illustration);
      expect(rendition).toBe(illustration.replace(/\.svg$/, '.png'));
      const png = await readFile(path.join(publicDir, rendition));
      const info = await sharp(png).metadata();
      expect({ format: info.format, width: info.width, height: info.height }, rendition).toEqual({
        format: 'png',
        width: SHARE_IMAGE_WIDTH,
        height: SHARE_IMAGE_HEIGHT,
      });
      // Rendered again from the SVG (scripts/render-blog-share-images.ts): an edited
      // illustration whose PNG was not rendered again fails here.
      const fresh = await sharp(await readFile(path.join(publicDir, illustration)), { density: 216 })
        .resize(SHARE_IMAGE_WIDTH, SHARE_IMAGE_HEIGHT, { fit: 'cover' })
        .png()
        .toBuffer();
      expect(await meanDifference(png, fresh), rendition).toBeLessThan(3);
    }
  });
});

describe('blog text rules', () => {
  it('folds case and accents, including letters Unicode does not decompose', () => {
    expect(fold('Café CRÈME Über naïve')).toBe('cafe creme uber naive');
    expect(fold('Straße Ærø Łódź')).toBe('strasse aero lodz');
  });

  it('makes ASCII slugs with a length limit, never all digits', () => {
    expect(slugify('  Hello, World!  ')).toBe('hello-world');
    expect(slugify('Çà va? Très bien — merci')).toBe('ca-va-tres-bien-merci');
    expect(slugify('2026')).toBe('post-2026');
    expect(slugify('!!!')).toBe('');
    const long = slugify('abcdefghij '.repeat(20));
    expect(long.length).toBeLessThanOrEqual(80);
    expect(long.endsWith('-')).toBe(false);
    expect(uniqueSlug('post', new Set(['post', 'post-2']))).toBe('post-3');
    expect(uniqueSlug('a'.repeat(80), new Set(['a'.repeat(80)]))).toBe(`${'a'.repeat(78)}-2`);
  });

  it('reads plain text out of HTML with words kept apart and entities decoded', () => {
    expect(plainTextOf('<h2>One</h2><p>two&nbsp;&amp; <b>three</b></p><ul><li>four</li><li>five</li></ul>')).toBe(
      'One two\u00a0& three four five'.replace('\u00a0', ' '),
    );
    expect(plainTextOf('<p>a &lt;tag&gt; &quot;quoted&quot;</p>')).toBe('a <tag> "quoted"');
  });

  it('derives a shortDesc of at most 160 characters cut at a word', () => {
    const text = 'word '.repeat(100);
    const short = deriveShortDesc(`<p>${text}</p>`);
    expect(short.length).toBeLessThanOrEqual(160);
    expect(short).toMatch(/^(word )+word…$/);
    expect(deriveShortDesc('<p>Short.</p>')).toBe('Short.');
  });

  it('counts reading time at 200 words a minute, at least 1', () => {
    expect(readingMinutes('')).toBe(1);
    expect(readingMinutes(`<p>${'w '.repeat(200)}</p>`)).toBe(1);
    expect(readingMinutes(`<p>${'w '.repeat(201)}</p>`)).toBe(2);
    expect(readingMinutes(`<p>${'w '.repeat(1000)}</p>`)).toBe(5);
  });

  it('turns any keyword into plain words, so no FTS or tsquery syntax survives', () => {
    expect(searchTokens('"Café" NEAR(a b) -x * y:z')).toEqual(['cafe', 'near', 'a', 'b', 'x', 'y', 'z']);
    expect(searchTokens('\'"*-^:()&|!<->')).toEqual([]);
    expect(searchTokens('a b c d e f g h i j')).toHaveLength(8);
  });
});

describe.each(dialects)('core/blog on %s', (dialect) => {
  let database: TestDatabase;
  let blog: Blog;
  let clockMs = Date.parse('2026-01-01T00:00:00Z');
  const clock = () => new Date(clockMs);

  beforeAll(async () => {
    database = await openTestDatabase(dialect);
    await migrateToLatest(database.db);
    blog = createBlog({ db: database.db, clock });
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it('seeds exactly once when several instances boot together', async () => {
    const instances = [0, 1, 2].map(() => createBlog({ db: database.db, clock }));
    const results = await Promise.all(instances.map((instance) => instance.seedOnce(blogSeed)));
    expect(results.filter(Boolean)).toHaveLength(1);
    const page = await blog.listPosts({ page: 1, size: 50 });
    expect(page.count).toBe(blogSeed.posts.length);
    // Newest first, dated back from the seeding.
    expect(page.posts.map((post) => post.slug)).toEqual(
      [...blogSeed.posts].sort((a, b) => a.daysAgo - b.daysAgo).map((post) => post.slug),
    );
    expect(await blog.seedOnce(blogSeed)).toBe(false);
  });

  it('lists categories with counts and finds one by slug', async () => {
    const categories = await blog.listCategories();
    expect(categories.map((category) => category.name)).toEqual(['Instagram Updates', 'Social Media Updates']);
    const total = categories.reduce((sum, category) => sum + (category.postCount ?? 0), 0);
    expect(total).toBe(blogSeed.posts.length);
    expect(await blog.findCategory('instagram-updates')).toMatchObject({ name: 'Instagram Updates' });
    expect(await blog.findCategory('nope')).toBeNull();
    const inCategory = await blog.listPosts({ categorySlug: 'social-media-updates', page: 1, size: 50 });
    expect(inCategory.posts.every((post) => post.categorySlug === 'social-media-updates')).toBe(true);
    expect(inCategory.count).toBe(categories[1]?.postCount);
  });

  it('relates posts of the same category first, then the newest others, never the post itself', async () => {
    const post = await blog.findPost('grow-instagram-account-safely');
    expect(post).not.toBeNull();
    if (!post) return;
    const related = await blog.relatedPosts(post, 4);
    expect(related).toHaveLength(4);
    expect(related.map((other) => other.id)).not.toContain(post.id);
    const sameCategory = blogSeed.posts.filter((seed) => seed.category === 'Instagram Updates').length - 1;
    expect(related.slice(0, sameCategory).every((other) => other.categorySlug === 'instagram-updates')).toBe(true);
    expect(related.slice(sameCategory).every((other) => other.categorySlug !== 'instagram-updates')).toBe(true);
  });

  it('finds posts by id or slug, and gives the feed the newest in full', async () => {
    const bySlug = await blog.findPost('what-counts-as-a-youtube-view');
    expect(bySlug && (await blog.findPost(bySlug.id))?.slug).toBe('what-counts-as-a-youtube-view');
    expect(bySlug && (await blog.findPost(String(bySlug.id)))?.id).toBe(bySlug?.id);
    expect(await blog.findPost('')).toBeNull();
    const feed = await blog.allPostsForFeed(3);
    expect(feed).toHaveLength(3);
    expect(feed[0]?.description).toContain('<h2>');
    expect(feed[0]?.createdAt.localeCompare(feed[1]?.createdAt ?? '')).toBeGreaterThan(0);
  });

  it('keeps paging sane whatever a loader passes', async () => {
    const odd = await blog.listPosts({ page: 0, size: 0 });
    expect(odd).toMatchObject({ currentPage: 1, totalPages: odd.count });
    expect(odd.posts).toHaveLength(1);
    const nan = await blog.listPosts({ page: Number.NaN, size: 1e9 });
    expect(nan.currentPage).toBe(1);
    expect(nan.posts.length).toBe(Math.min(nan.count, 100));
  });

  it('gives concurrent posts with one title distinct slugs', async () => {
    clockMs += 60_000;
    const results = await Promise.all(
      [0, 1, 2, 3].map(() => blog.createPost({ title: 'Same title at once', description: '<p>x</p>' })),
    );
    const slugs = results.map((result) => (result.ok ? result.post.slug : result.message));
    expect(new Set(slugs).size).toBe(4);
    for (const slug of slugs) expect(slug).toMatch(/^same-title-at-once(-\d)?$/);
  });

  it('stamps createdAt once and updatedAt on every change, from the store clock', async () => {
    clockMs = Date.parse('2026-02-01T10:00:00Z');
    const created = await blog.createPost({ title: 'Timestamps', description: '<p>x</p>' });
    if (!created.ok) throw new Error(created.message);
    expect(created.post.createdAt).toBe('2026-02-01T10:00:00.000Z');
    clockMs += 3_600_000;
    const updated = await blog.updatePost(created.post.id, { title: 'Timestamps 2' });
    if (!updated.ok) throw new Error(updated.message);
    expect(updated.post).toMatchObject({
      createdAt: '2026-02-01T10:00:00.000Z',
      updatedAt: '2026-02-01T11:00:00.000Z',
    });
  });
});
