/**
 * The blog's JSON API (decision 018) on both dialects, with a real admin session: the seed, the list
 * and its pagination maths, search (ranking, accent and case folding, FTS syntax in keywords),
 * create / update / delete with their envelopes, slug rules, shortDesc derivation, categories,
 * cover images through the real upload code, sanitising on write, and the content version.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '../../core/blog/blog.ts';
import type { BlogPost as Post, BlogPostSummary as Summary } from '../../core/blog/contracts.ts';
import { plainTextOf, wordCount } from '../../core/blog/text.ts';
import { blogSeed } from '../../core/blog/blog-seed.ts';
import { adminToken } from '../support/admin-session.ts';
import { type TestApp, root, startTestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';
import { waitFor } from '../support/wait-for.ts';

interface Envelope<T = unknown> {
  isSuccessful: boolean;
  message: string;
  data: T;
  errors?: { field: string; message: string }[];
}
interface ListReply extends Envelope<Summary[]> {
  totalPages: number;
  count: number;
  currentPage: number;
}

type FormValue = string | { file: Buffer; filename: string; contentType: string };

/** A multipart/form-data body, as a browser's FormData would send it. */
function multipart(fields: Record<string, FormValue>): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----boostly${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === 'string') {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
    } else {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${value.filename}"\r\n` +
            `Content-Type: ${value.contentType}\r\n\r\n`,
        ),
        value.file,
        Buffer.from('\r\n'),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const paragraph = (words: number, word = 'lorem') => `<p>${Array.from({ length: words }, () => word).join(' ')}</p>`;

describe.each(dialects)('blog API on %s', (dialect) => {
  let t: TestApp;
  let token = '';
  let dataDir = '';
  let address = 0;
  /** Every call from its own address: the keyword rate limit stays out of the tests that are not about it. */
  const nextAddress = () => `10.42.${Math.floor(address / 250) % 250}.${(address++ % 250) + 1}`;
  const auth = () => ({ authorization: `Bearer ${token}` });

  const list = async (query = '') => {
    const response = await t.app.inject({ method: 'GET', url: `/api/blog${query}`, remoteAddress: nextAddress() });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<ListReply>();
  };
  const create = (fields: Record<string, FormValue>, headers: Record<string, string> = auth()) => {
    const form = multipart(fields);
    return t.app.inject({
      method: 'POST',
      url: '/api/blog',
      payload: form.payload,
      headers: { ...form.headers, ...headers },
      remoteAddress: nextAddress(),
    });
  };
  const createOk = async (fields: Record<string, FormValue>) => {
    const response = await create(fields);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Envelope<Post>>().data;
  };
  const update = (
    idOrSlug: string | number,
    fields: Record<string, FormValue>,
    headers: Record<string, string> = auth(),
  ) => {
    const form = multipart(fields);
    return t.app.inject({
      method: 'PATCH',
      url: `/api/blog/${idOrSlug}`,
      payload: form.payload,
      headers: { ...form.headers, ...headers },
      remoteAddress: nextAddress(),
    });
  };
  const detail = (slug: string) =>
    t.app.inject({ method: 'GET', url: `/api/blog/${encodeURIComponent(slug)}`, remoteAddress: nextAddress() });

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'boostly-blog-'));
    t = await startTestApp(dialect, { env: { DATA_DIR: dataDir, UPLOAD_MAX_BYTES: String(64 * 1024) } });
    const credentials = { email: 'blog.admin@example.com', password: 'a long enough blog password' };
    await t.store.adminAuth.createAdmin(credentials.email, credentials.password);
    token = await adminToken(t, credentials, '10.41.0.1');
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  describe('the seed', () => {
    it('gives a fresh database the two categories and six real posts with images', async () => {
      const page = await list('?size=50');
      expect(page.count).toBe(blogSeed.posts.length);
      expect(page.count).toBeGreaterThanOrEqual(6);
      const categories = await t.app.inject({ method: 'GET', url: '/api/blog/categories' });
      const names = categories.json<Envelope<{ name: string; slug: string; postCount: number }[]>>().data;
      expect(names.map(({ name, slug }) => ({ name, slug }))).toEqual([
        { name: 'Instagram Updates', slug: 'instagram-updates' },
        { name: 'Social Media Updates', slug: 'social-media-updates' },
      ]);
      // Spread over both categories.
      for (const category of names) expect(category.postCount).toBeGreaterThanOrEqual(2);

      for (const summary of page.data) {
        expect(summary.image).toMatch(/^\/images\/blog\/[a-z-]+\.svg$/);
        expect(existsSync(path.join(root, 'public', summary.image))).toBe(true);
        expect([summary.imageWidth, summary.imageHeight]).toEqual([800, 450]);
        expect(summary.shortDesc.length).toBeGreaterThan(50);
        const post = (await detail(summary.slug)).json<Envelope<Post[]>>().data[0];
        expect(post?.description).toMatch(/<h2>/);
        expect(post?.description).toMatch(/<ul>/);
        expect(wordCount(plainTextOf(post?.description ?? ''))).toBeGreaterThanOrEqual(400);
        expect(post?.readingMinutes).toBeGreaterThanOrEqual(2);
      }
    });

    it('runs once per database: posts the admin deleted do not come back', async () => {
      expect(await t.store.blog.seedOnce(blogSeed)).toBe(false);
      expect((await list()).count).toBe(blogSeed.posts.length);
    });
  });

  describe('listing', () => {
    it('pages newest first with the spec fields, 10 by default and up to 50', async () => {
      const page = await list();
      expect(page.isSuccessful).toBe(true);
      expect(page.currentPage).toBe(1);
      expect(page.data.length).toBe(Math.min(10, page.count));
      const dates = page.data.map((post) => post.createdAt);
      expect([...dates].sort().reverse()).toEqual(dates);
      expect(page.data[0]).not.toHaveProperty('description');

      for (const size of ['0', '51', 'x', '-1']) {
        const refused = await t.app.inject({ method: 'GET', url: `/api/blog?size=${size}` });
        expect(refused.statusCode, size).toBe(400);
        expect(refused.json<Envelope>().isSuccessful).toBe(false);
      }
    });

    it('counts pages exactly, also for a page past the end', async () => {
      const { count } = await list();
      const size = 4;
      const pages = Math.ceil(count / size);
      const last = await list(`?size=${size}&page=${pages}`);
      expect(last).toMatchObject({ count, totalPages: pages, currentPage: pages });
      expect(last.data.length).toBe(count - (pages - 1) * size);
      const beyond = await list(`?size=${size}&page=${pages + 3}`);
      expect(beyond).toMatchObject({ count, totalPages: pages, currentPage: pages + 3, data: [] });
      const nothing = await list(`?keyword=zzzznotaword&size=${size}&page=2`);
      expect(nothing).toMatchObject({ count: 0, totalPages: 0, currentPage: 2, data: [] });
    });

    it('counts the matches of a search exactly on every page, and past the end', async () => {
      const all = await list('?keyword=instagram&size=50');
      const { count } = all;
      expect(count).toBeGreaterThan(2);
      expect(all.data).toHaveLength(count);
      // A full first page, a last page of one post, and a page past the end.
      const size = count - 1;
      const first = await list(`?keyword=instagram&size=${size}`);
      expect(first).toMatchObject({ count, totalPages: 2, currentPage: 1 });
      expect(first.data).toHaveLength(size);
      const last = await list(`?keyword=instagram&size=${size}&page=2`);
      expect(last).toMatchObject({ count, totalPages: 2, currentPage: 2 });
      expect(last.data).toHaveLength(1);
      const beyond = await list(`?keyword=instagram&size=${size}&page=3`);
      expect(beyond).toMatchObject({ count, totalPages: 2, currentPage: 3, data: [] });
      expect(await list('?keyword=zzzznotaword')).toMatchObject({ count: 0, totalPages: 0, data: [] });
    });

    it('answers an unknown post with 404 in the envelope', async () => {
      const response = await detail('no-such-post');
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ isSuccessful: false, message: 'Blog not found' });
      expect((await detail('999999')).statusCode).toBe(404);
    });
  });

  describe('writing as the admin', () => {
    it('refuses writes without a valid token (401 in the envelope)', async () => {
      const none = await create({ title: 'No token' }, {});
      expect(none.statusCode).toBe(401);
      expect(none.json()).toEqual({ isSuccessful: false, message: 'No access token found.' });
      const forged = await create({ title: 'Forged' }, { authorization: 'Bearer forged' });
      expect(forged.statusCode).toBe(401);
      const slug = blogSeed.posts[0]?.slug ?? '';
      expect((await update(slug, { title: 'x' }, {})).statusCode).toBe(401);
      const del = await t.app.inject({ method: 'DELETE', url: `/api/blog/${slug}` });
      expect(del.statusCode).toBe(401);
      expect(del.json<Envelope>().message).toBe('No access token found.');
      expect((await detail(slug)).statusCode).toBe(200);
    });

    it('adds a post from the multipart form with the spec message; title is required', async () => {
      const response = await create({ title: 'A first post', category: 'Growth Tips', description: paragraph(30) });
      expect(response.statusCode, response.body).toBe(201);
      const body = response.json<Envelope<Post>>();
      expect(body.message).toBe('Blog added successfully');
      expect(body.data).toMatchObject({
        slug: 'a-first-post',
        title: 'A first post',
        category: 'Growth Tips',
        categorySlug: 'growth-tips',
        image: '',
        imageWidth: null,
        readingMinutes: 1,
      });
      expect((await detail('a-first-post')).json<Envelope<Post[]>>().data[0]?.id).toBe(body.data.id);

      for (const title of [undefined, '', '   ']) {
        const refused = await create(title === undefined ? { description: '<p>x</p>' } : { title });
        expect(refused.statusCode).toBe(400);
        expect(refused.json<Envelope>()).toMatchObject({ isSuccessful: false, message: 'Title is required' });
      }
      // A JSON body says the same, and so does no body at all.
      const json = await t.app.inject({ method: 'POST', url: '/api/blog', headers: auth(), payload: { title: ' ' } });
      expect(json.json<Envelope>().message).toBe('Title is required');
      const empty = await t.app.inject({ method: 'POST', url: '/api/blog', headers: auth() });
      expect(empty.statusCode).toBe(400);
      expect(empty.json<Envelope>().message).toBe('Title is required');
    });

    it('makes slugs from titles: ASCII, accents folded, unique with -2, -3', async () => {
      const first = await createOk({ title: 'Café Crème: 10 Tips!' });
      const second = await createOk({ title: 'Café crème — 10 tips' });
      const third = await createOk({ title: 'CAFÉ CRÈME 10 TIPS' });
      expect([first.slug, second.slug, third.slug]).toEqual([
        'cafe-creme-10-tips',
        'cafe-creme-10-tips-2',
        'cafe-creme-10-tips-3',
      ]);
      const long = await createOk({ title: 'word '.repeat(35) });
      expect(long.slug.length).toBeLessThanOrEqual(80);
      expect(long.slug).toMatch(/^word(-word)*$/);
      // All digits would read as an id.
      expect((await createOk({ title: '2026' })).slug).toBe('post-2026');
      // Nothing to make a slug of.
      expect((await createOk({ title: '!!!' })).slug).toBe('post');
      // An explicit slug is normalised, and must be free.
      expect((await createOk({ title: 'Explicit', slug: 'My Own Slug' })).slug).toBe('my-own-slug');
      const taken = await create({ title: 'Another', slug: 'my-own-slug' });
      expect(taken.statusCode).toBe(409);
      expect(taken.json()).toEqual({ isSuccessful: false, message: 'A post with this slug already exists' });
      // The categories route keeps its path.
      expect((await createOk({ title: 'Categories' })).slug).toBe('categories-2');
      expect((await createOk({ title: 'Add' })).slug).toBe('add-2');
    });

    it('keeps the slug when the title changes; an explicit new slug only if free', async () => {
      const post = await createOk({ title: 'Stable slug post', description: paragraph(10) });
      const renamed = await update(post.slug, { title: 'A completely new title' });
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect(renamed.json<Envelope<Post>>()).toMatchObject({
        message: 'Blog updated successfully',
        data: { slug: 'stable-slug-post', title: 'A completely new title' },
      });

      const clash = await update(post.id, { slug: 'a-first-post' });
      expect(clash.statusCode).toBe(409);
      expect(clash.json<Envelope>().message).toBe('A post with this slug already exists');
      const moved = await update(post.id, { slug: 'Moved Slug' });
      expect(moved.json<Envelope<Post>>().data.slug).toBe('moved-slug');
      expect((await detail('stable-slug-post')).statusCode).toBe(404);
      // Its own slug again is no clash.
      expect((await update('moved-slug', { slug: 'moved-slug', title: 'Same' })).statusCode).toBe(200);

      const missing = await update('no-such-post', { title: 'x' });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ isSuccessful: false, message: 'Blog not found' });
      expect((await update(post.id, { title: '  ' })).json<Envelope>().message).toBe('Title is required');
    });

    it('derives shortDesc from the body at a word boundary, and keeps one the admin wrote', async () => {
      const body = `<h2>Heading</h2><p>${'Growing an audience takes patience and steady work. '.repeat(8)}</p>`;
      const post = await createOk({ title: 'Derived summary', description: body });
      expect(post.shortDesc.length).toBeLessThanOrEqual(160);
      expect(post.shortDesc.endsWith('…')).toBe(true);
      expect(post.shortDesc.startsWith('Heading Growing an audience')).toBe(true);
      const withoutEllipsis = post.shortDesc.slice(0, -1);
      expect(plainTextOf(body).startsWith(withoutEllipsis)).toBe(true);
      expect(plainTextOf(body)[withoutEllipsis.length]).toMatch(/[\s.]/);

      const followed = await update(post.id, { description: '<p>A short new body &amp; more.</p>' });
      expect(followed.json<Envelope<Post>>().data.shortDesc).toBe('A short new body & more.');

      const custom = await update(post.id, { shortDesc: 'Written by the admin.' });
      expect(custom.json<Envelope<Post>>().data.shortDesc).toBe('Written by the admin.');
      const kept = await update(post.id, { description: '<p>Yet another body.</p>' });
      expect(kept.json<Envelope<Post>>().data.shortDesc).toBe('Written by the admin.');
      const derivedAgain = await update(post.id, { shortDesc: '' });
      expect(derivedAgain.json<Envelope<Post>>().data.shortDesc).toBe('Yet another body.');
    });

    it('picks a category case- and accent-insensitively, creates new ones, and clears it', async () => {
      const picked = await createOk({ title: 'Picked category', category: '  instagram   UPDATES ' });
      expect(picked).toMatchObject({ category: 'Instagram Updates', categorySlug: 'instagram-updates' });
      const created = await createOk({ title: 'New category', category: 'Café Talk' });
      expect(created).toMatchObject({ category: 'Café Talk', categorySlug: 'cafe-talk' });
      const same = await createOk({ title: 'Same new category', category: 'CAFE TALK' });
      expect(same.categorySlug).toBe('cafe-talk');
      const cleared = await update(same.id, { category: '' });
      expect(cleared.json<Envelope<Post>>().data).toMatchObject({ category: '', categorySlug: null });
      const kept = await update(created.id, { title: 'Renamed, category kept' });
      expect(kept.json<Envelope<Post>>().data.category).toBe('Café Talk');

      const categories = await t.app.inject({ method: 'GET', url: '/api/blog/categories' });
      const cafe = categories
        .json<Envelope<{ slug: string; postCount: number }[]>>()
        .data.find((category) => category.slug === 'cafe-talk');
      expect(cafe?.postCount).toBe(1);
      expect((await list('?category=cafe-talk')).data.map((post) => post.id)).toEqual([created.id]);
    });

    it('sanitises the description on write: no script, no handler reaches storage or the reply', async () => {
      const description =
        '<p>Safe <strong>bold</strong></p><script>alert(1)</script><img src=x onerror="alert(2)">' +
        '<a href="javascript:alert(3)">link</a><p onclick="alert(4)">click</p>';
      const post = await createOk({ title: 'Sanitised on write', description });
      for (const text of [post.description, (await detail(post.slug)).json<Envelope<Post[]>>().data[0]?.description]) {
        expect(text).toContain('<strong>bold</strong>');
        expect(text).not.toMatch(/<script|onerror|onclick|javascript:/i);
      }
      const stored = await t.database.db
        .selectFrom('blog_posts')
        .select('description')
        .where('id', '=', post.id)
        .executeTakeFirstOrThrow();
      expect(stored.description).not.toMatch(/<script|onerror|onclick|javascript:|alert/i);
      const updated = await update(post.id, { description: '<p>ok</p><script>alert(5)</script>' });
      expect(updated.json<Envelope<Post>>().data.description).toBe('<p>ok</p>');
    });

    it('stores a cover image by its content; absent keeps it, removeImage clears it; bad files are refused', async () => {
      const png = await sharp({ create: { width: 320, height: 200, channels: 3, background: '#7c3aed' } })
        .png()
        .toBuffer();
      const post = await createOk({
        title: 'With a cover',
        // The name and the client's type are ignored: the bytes say PNG.
        image: { file: png, filename: 'cover.svg', contentType: 'image/svg+xml' },
      });
      expect(post.image).toMatch(/^\/uploads\//);
      expect([post.imageWidth, post.imageHeight]).toEqual([320, 200]);

      const kept = await update(post.id, { title: 'Still with a cover' });
      expect(kept.json<Envelope<Post>>().data.image).toBe(post.image);
      // An empty file input (a form submitted without choosing a file) keeps it too.
      const emptyFile = await update(post.id, {
        image: { file: Buffer.alloc(0), filename: '', contentType: 'application/octet-stream' },
      });
      expect(emptyFile.json<Envelope<Post>>().data.image).toBe(post.image);

      const html = Buffer.from('<html><script>alert(1)</script></html>');
      const refused = await update(post.id, { image: { file: html, filename: 'x.png', contentType: 'image/png' } });
      expect(refused.statusCode).toBe(400);
      expect(refused.json<Envelope>().message).toBe('Only jpg, png, svg, and webp files are allowed');
      const refusedAdd = await create({
        title: 'Bad image',
        image: { file: html, filename: 'x.png', contentType: 'image/png' },
      });
      expect(refusedAdd.statusCode).toBe(400);
      expect((await list('?keyword=bad+image')).count).toBe(0);

      const huge = Buffer.alloc(65 * 1024, 1);
      const tooLarge = await update(post.id, { image: { file: huge, filename: 'big.png', contentType: 'image/png' } });
      expect(tooLarge.statusCode).toBe(413);
      expect(tooLarge.json<Envelope>().message).toMatch(/too large/i);

      const removed = await update(post.id, { removeImage: 'true' });
      expect(removed.json<Envelope<Post>>().data).toMatchObject({ image: '', imageWidth: null, imageHeight: null });
    });

    it('refuses broken forms: a cut-off body, a field past the size limit, control characters', async () => {
      const cut = await t.app.inject({
        method: 'POST',
        url: '/api/blog',
        headers: { ...auth(), 'content-type': 'multipart/form-data; boundary=xyz' },
        payload: '--xyz\r\nContent-Disposition: form-data; name="title"\r\n',
      });
      expect(cut.statusCode).toBe(400);
      expect(cut.json<Envelope>().isSuccessful).toBe(false);

      const huge = await create({ title: 'Huge body', description: 'x'.repeat(1024 * 1024 + 10) });
      expect(huge.statusCode).toBe(413);
      expect(huge.json<Envelope>().isSuccessful).toBe(false);

      const control = await create({ title: 'Bell\u0007 title' });
      expect(control.statusCode).toBe(400);
      expect(control.json<Envelope>().errors?.[0]?.field).toBe('title');
      expect((await list('?keyword=huge+body')).count + (await list('?keyword=bell')).count).toBe(0);
    });

    it('takes the same fields as JSON (no file), and refuses a PATCH with no body', async () => {
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/blog',
        headers: auth(),
        payload: { title: 'Written as JSON', category: 'Growth Tips', description: '<p>Body.</p>' },
      });
      expect(created.statusCode, created.body).toBe(201);
      const post = created.json<Envelope<Post>>().data;
      const patched = await t.app.inject({
        method: 'PATCH',
        url: `/api/blog/${post.id}`,
        headers: auth(),
        payload: { title: 'Patched as JSON', removeImage: true },
      });
      expect(patched.json<Envelope<Post>>().data).toMatchObject({ slug: 'written-as-json', title: 'Patched as JSON' });
      const file = await t.app.inject({
        method: 'PATCH',
        url: `/api/blog/${post.id}`,
        headers: auth(),
        payload: { image: 'not a file' },
      });
      expect(file.statusCode).toBe(400);
      expect(file.json<Envelope>().errors?.[0]?.field).toBe('image');
      const empty = await t.app.inject({ method: 'PATCH', url: `/api/blog/${post.id}`, headers: auth() });
      expect(empty.statusCode).toBe(400);
      expect(empty.json<Envelope>().isSuccessful).toBe(false);
    });

    it('deletes a post; deleting it again is a 404', async () => {
      const post = await createOk({ title: 'Short-lived' });
      const response = await t.app.inject({ method: 'DELETE', url: `/api/blog/${post.slug}`, headers: auth() });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ isSuccessful: true, message: 'Blog deleted successfully' });
      expect((await detail(post.slug)).statusCode).toBe(404);
      const again = await t.app.inject({ method: 'DELETE', url: `/api/blog/${post.id}`, headers: auth() });
      expect(again.statusCode).toBe(404);
      expect(again.json()).toEqual({ isSuccessful: false, message: 'Blog not found' });
    });
  });

  describe('search', () => {
    it('ranks a title hit above a body hit', async () => {
      const body = await createOk({ title: 'Unrelated heading', description: '<p>A note about zebrafish care.</p>' });
      const title = await createOk({ title: 'Zebrafish for beginners', description: '<p>Nothing else here.</p>' });
      const found = await list('?keyword=zebrafish');
      expect(found.count).toBe(2);
      expect(found.data.map((post) => post.id)).toEqual([title.id, body.id]);
    });

    it('matches case- and accent-insensitively, in both directions, and by word prefix', async () => {
      const post = await createOk({ title: 'Crème brûlée at the Café', description: '<p>Über naïve façade.</p>' });
      for (const keyword of ['cafe', 'CAFÉ', 'Café', 'creme brulee', 'uber', 'NAIVE', 'facade', 'brû', 'caf']) {
        const found = await list(`?keyword=${encodeURIComponent(keyword)}`);
        expect(
          found.data.map((summary) => summary.id),
          keyword,
        ).toContain(post.id);
      }
      // Every word must match.
      expect((await list('?keyword=cafe+zebrafish')).count).toBe(0);
    });

    it('finds the seed posts by their words, and by category', async () => {
      const found = await list('?keyword=youtube+view');
      expect(found.data[0]?.slug).toBe('what-counts-as-a-youtube-view');
      const inCategory = await list('?keyword=instagram&category=instagram-updates&size=50');
      expect(inCategory.count).toBeGreaterThan(0);
      for (const post of inCategory.data) expect(post.categorySlug).toBe('instagram-updates');
    });

    it('never errors on FTS or tsquery syntax in the keyword', async () => {
      const keywords = [
        '"',
        '"unterminated',
        '*',
        'a*',
        '-',
        '-instagram',
        'NEAR(a b)',
        'a AND b OR NOT c',
        'title:instagram',
        '^instagram',
        '(',
        ')',
        "'",
        "' OR '1'='1",
        '\\',
        '&',
        '|',
        '!',
        ':*',
        '<->',
        'instagram & | ! <-> :*',
        '{}',
        '[]',
        '%',
        '_',
        'é'.repeat(200),
        'a '.repeat(100),
      ];
      for (const keyword of keywords) {
        const response = await t.app.inject({
          method: 'GET',
          url: `/api/blog?keyword=${encodeURIComponent(keyword)}`,
          remoteAddress: nextAddress(),
        });
        expect(response.statusCode, `${keyword}: ${response.body}`).toBe(200);
      }
      // Words survive the punctuation around them.
      expect((await list(`?keyword=${encodeURIComponent('"instagram*')}`)).count).toBeGreaterThan(0);
      // Nothing but punctuation: nothing to search for, so nothing found.
      expect((await list(`?keyword=${encodeURIComponent('"*-')}`)).count).toBe(0);
      // NUL is refused at the boundary.
      const nul = await t.app.inject({ method: 'GET', url: '/api/blog?keyword=a%00b' });
      expect(nul.statusCode).toBe(400);
    });

    it('limits keyword searches per client, not plain listing', async () => {
      const from = '10.99.0.1';
      let limited = 0;
      for (let i = 0; i < 65; i += 1) {
        const response = await t.app.inject({ method: 'GET', url: '/api/blog?keyword=instagram', remoteAddress: from });
        if (response.statusCode === 429) limited += 1;
      }
      expect(limited).toBeGreaterThan(0);
      const plain = await t.app.inject({ method: 'GET', url: '/api/blog', remoteAddress: from });
      expect(plain.statusCode).toBe(200);
    });

    it('follows edits: a new title is found, the old words are not', async () => {
      const post = await createOk({ title: 'Quokka habits' });
      expect((await list('?keyword=quokka')).count).toBe(1);
      await update(post.id, { title: 'Wombat habits' });
      expect((await list('?keyword=quokka')).count).toBe(0);
      expect((await list('?keyword=wombat')).count).toBe(1);
      await t.app.inject({ method: 'DELETE', url: `/api/blog/${post.id}`, headers: auth() });
      expect((await list('?keyword=wombat')).count).toBe(0);
    });
  });

  describe('content version', () => {
    it('bumps on every successful write, not on refused ones, and other instances see it', async () => {
      const { blog } = t.store;
      const other = createBlog({ db: t.database.db });
      const before = await blog.contentVersion();
      const post = await createOk({ title: 'Versioned' });
      const afterCreate = await blog.contentVersion();
      expect(afterCreate).toBeGreaterThan(before);
      // This instance knows at once (its page cache keys on it).
      expect(blog.knownContentVersion()).toBe(afterCreate);

      await update(post.id, { title: 'Versioned again' });
      const afterUpdate = await blog.contentVersion();
      expect(afterUpdate).toBeGreaterThan(afterCreate);

      expect((await update(post.id, { slug: 'a-first-post' })).statusCode).toBe(409);
      expect((await update('no-such-post', { title: 'x' })).statusCode).toBe(404);
      expect(await blog.contentVersion()).toBe(afterUpdate);

      await t.app.inject({ method: 'DELETE', url: `/api/blog/${post.id}`, headers: auth() });
      const afterDelete = await blog.contentVersion();
      expect(afterDelete).toBeGreaterThan(afterUpdate);
      await t.app.inject({ method: 'DELETE', url: `/api/blog/${post.id}`, headers: auth() });
      expect(await blog.contentVersion()).toBe(afterDelete);

      // Another instance on the same database catches up by itself, within about a second.
      await waitFor(() => other.knownContentVersion() === afterDelete, {
        timeout: 5_000,
        interval: 100,
        message: "the other instance's known content version",
      });
    });
  });

  it('documents the multipart write operations in OpenAPI', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: unknown }> } }>>;
    }>();
    for (const [route, method] of [
      ['/api/blog/', 'post'],
      ['/api/blog/{idOrSlug}', 'patch'],
    ] as const) {
      const operation = document.paths[route]?.[method] ?? document.paths[route.replace(/\/$/, '')]?.[method];
      expect(operation, `${method} ${route}`).toBeDefined();
      const content = operation?.requestBody?.content ?? {};
      expect(Object.keys(content)).toEqual(expect.arrayContaining(['multipart/form-data', 'application/json']));
      expect(JSON.stringify(content['multipart/form-data'])).toContain('"format":"binary"');
    }
    expect(document.paths['/api/blog/{slug}']?.get).toBeDefined();
    expect(document.paths['/api/blog/categories']?.get).toBeDefined();
  });
});
