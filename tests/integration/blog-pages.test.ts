/**
 * The public blog pages (decision 020) rendered by the real app from the real blog on both dialects:
 * the list, search, pages, posts, categories, SEO tags, the feed, the sitemap and robots.txt.
 * Needs the production build (`npm run build`), like tests/integration/pages.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOG_SHARE_IMAGE, shareImageOf } from '../../core/blog/share-image.ts';
import { blogSeed } from '../../core/blog/blog-seed.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { decodeEntities, jsonLdBlocks } from '../support/html.ts';
import { dialects } from '../support/databases.ts';
import { waitFor } from '../support/wait-for.ts';

const PUBLIC_URL = 'https://shop.example.com';
const LONG_US_DATE =
  /(January|February|March|April|May|June|July|August|September|October|November|December) \d{1,2}, \d{4}/;
const NOTHING_FOUND_TEXT =
  'Apologies, but no results were found for the requested archive. Try using the search with a relevent phrase to find the post you are looking for.';
const NO_BLOGS_TEXT = 'No blogs available at the moment. Please check back later!';

const countOf = (html: string, needle: string) => html.split(needle).length - 1;
const cardsIn = (html: string) => countOf(html, 'data-testid="blog-card"');

/** The `content` of a `<meta>` or the `href` of a `<link>` in the head, found by one attribute. */
function headTag(html: string, attribute: string, value: string, wanted: 'content' | 'href'): string | undefined {
  for (const tag of html.match(/<(meta|link)\b[^>]*>/g) ?? []) {
    if (!tag.includes(`${attribute}="${value}"`)) continue;
    const found = new RegExp(`\\b${wanted}="([^"]*)"`).exec(tag)?.[1];
    if (found !== undefined) return decodeEntities(found);
  }
  return undefined;
}

/** Text as React writes it into HTML. */
function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#x27;');
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: (XmlElement | string)[];
}

/**
 * A strict well-formedness check for the feed and the sitemap (no XML library in the store):
 * one root, properly nested tags, quoted attributes, no raw `<` or stray `&` in text.
 */
function parseXml(xml: string): XmlElement {
  const token =
    /<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<\/([A-Za-z_][\w:.-]*)\s*>|<([A-Za-z_][\w:.-]*)((?:\s+[A-Za-z_][\w:.-]*\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>|[^<]+|</g;
  const badAmpersand = /&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/;
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  for (const match of xml.matchAll(token)) {
    const [text, closing, opening, attributeText, selfClosing] = match;
    if (text === '<') throw new Error(`stray < at ${match.index}`);
    if (text.startsWith('<?') || text.startsWith('<!--')) continue;
    if (closing) {
      const open = stack.pop();
      if (open?.name !== closing) throw new Error(`</${closing}> closes <${open?.name ?? 'nothing'}>`);
      continue;
    }
    if (opening) {
      const attributes: Record<string, string> = {};
      for (const [, name, value] of (attributeText ?? '').matchAll(
        /([A-Za-z_][\w:.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g,
      )) {
        if (badAmpersand.test(value ?? '')) throw new Error(`unescaped & in attribute ${name}`);
        attributes[name] = decodeEntities(value ?? '');
      }
      const element: XmlElement = { name: opening, attributes, children: [] };
      const parent = stack[stack.length - 1];
      if (parent) parent.children.push(element);
      else if (root) throw new Error(`a second root <${opening}>`);
      else root = element;
      if (!selfClosing) stack.push(element);
      continue;
    }
    if (badAmpersand.test(text)) throw new Error(`unescaped & in ${JSON.stringify(text.slice(0, 40))}`);
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(decodeEntities(text));
    else if (text.trim()) throw new Error('text outside the root element');
  }
  if (stack.length > 0) throw new Error(`<${stack[stack.length - 1].name}> is never closed`);
  if (!root) throw new Error('no root element');
  return root;
}

const elements = (parent: XmlElement, name: string) =>
  parent.children.filter((child): child is XmlElement => typeof child !== 'string' && child.name === name);
const textOf = (parent: XmlElement, name: string) =>
  elements(parent, name)[0]
    ?.children.filter((child) => typeof child === 'string')
    .join('');

describe.each(dialects)('public blog pages on %s', (dialect) => {
  let t: TestApp;
  let dataDir: string;
  const get = (url: string) => t.app.inject({ method: 'GET', url });

  beforeAll(async () => {
    // Uploaded covers are written under DATA_DIR/uploads.
    dataDir = mkdtempSync(path.join(tmpdir(), 'boostly-blog-pages-'));
    t = await startTestApp(dialect, { withPages: true, env: { PUBLIC_URL, DATA_DIR: dataDir } });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('lists the newest four posts under the spec title, with a real Load More link to page 2', async () => {
    const response = await get('/blog');
    expect(response.statusCode).toBe(200);
    const html = response.body;
    expect(html).toContain('<title>#1 Social Media Blog | Boostly</title>');
    expect(html).toMatch(/<h1[^>]*>#1 Social Media Blog<\/h1>/);
    expect(cardsIn(html)).toBe(4);
    expect(html).toMatch(LONG_US_DATE);
    // 'Read more' names its post for screen readers.
    const newest = (await t.store.blog.listPosts({ page: 1, size: 4 })).posts;
    for (const post of newest) {
      expect(html).toContain(`href="/blog/${post.slug}"`);
      expect(html).toContain(`Read more<span class="sr-only"> about ${escapeHtml(post.title)}</span>`);
    }
    expect(html).toMatch(/<a href="\/blog\?page=2"[^>]*data-testid="load-more"[^>]*>[^<]*Load More/);
    // Only the first card's image loads eagerly; every image has a size (no layout shift).
    const images = html.match(/<img\b[^>]*>/g)!.filter((tag) => tag.includes('/images/blog/'));
    expect(images.length).toBe(4);
    expect(images[0]).toContain('loading="eager"');
    for (const tag of images.slice(1)) expect(tag).toContain('loading="lazy"');
    for (const tag of images) expect(tag).toMatch(/width="\d+" height="\d+"/);
    expect(response.headers['cache-control']).toBe('public, max-age=60, stale-while-revalidate=300');
  });

  it('shows the blog chrome instead of the store top bar and footer', async () => {
    const html = (await get('/blog')).body;
    expect(html).toContain('data-testid="blog-header"');
    expect(html).toContain('data-testid="blog-footer"');
    expect(html).not.toContain('50% OFF');
    expect(html).not.toContain('data-testid="site-footer"');
    for (const href of ['/blog', '/instagram-issue', '/media-update']) expect(html).toContain(`href="${href}"`);
    // The contact page exists, so the blog's header and footer both lead to it.
    const header = html.slice(html.indexOf('data-testid="blog-header"'), html.indexOf('</header>'));
    const footer = html.slice(html.indexOf('data-testid="blog-footer"'), html.indexOf('</footer>'));
    expect(header).toMatch(/<a[^>]*href="\/contact"[^>]*>Contact<\/a>/);
    expect(footer).toMatch(/<a[^>]*href="\/contact"[^>]*>Contact<\/a>/);
  });

  it('renders later pages on their own, linking back, and refuses pages that do not exist', async () => {
    const total = (await t.store.blog.listPosts({ page: 1, size: 4 })).count;
    const lastPage = Math.ceil(total / 4);
    const last = await get(`/blog?page=${lastPage}`);
    expect(last.statusCode).toBe(200);
    expect(cardsIn(last.body)).toBe(total - (lastPage - 1) * 4);
    expect(last.body).toContain(`href="${lastPage === 2 ? '/blog' : `/blog?page=${lastPage - 1}`}"`);
    expect(last.body).not.toContain('data-testid="load-more"');
    expect(headTag(last.body, 'rel', 'canonical', 'href')).toBe(`${PUBLIC_URL}/blog?page=${lastPage}`);
    for (const url of [`/blog?page=${lastPage + 1}`, '/blog?page=0', '/blog?page=abc']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.body).toContain('The page you are looking for could not be found');
    }
  });

  it('searches with s: a banner with the count and keyword, uncached, trimmed', async () => {
    const response = await get('/blog?s=%20%20YouTube%20');
    expect(response.statusCode).toBe(200);
    const { count } = await t.store.blog.listPosts({ keyword: 'YouTube', page: 1, size: 4 });
    expect(count).toBeGreaterThan(0);
    expect(response.body).toContain('data-testid="search-banner"');
    expect(response.body).toContain(`${count} ${count === 1 ? 'result' : 'results'} for “YouTube”`);
    expect(cardsIn(response.body)).toBe(Math.min(count, 4));
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(headTag(response.body, 'name', 'robots', 'content')).toBe('noindex, follow');

    // Blank text is no search at all.
    const blank = await get('/blog?s=%20%20');
    expect(blank.body).toMatch(/<h1[^>]*>#1 Social Media Blog<\/h1>/);
    expect(blank.body).not.toContain('data-testid="search-banner"');
  });

  it('shows Nothing Found with the search box when a search finds nothing', async () => {
    const response = await get('/blog?s=zzqxv');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('0 results for “zzqxv”');
    expect(response.body).toContain('Nothing Found!');
    expect(response.body).toContain(NOTHING_FOUND_TEXT);
    expect(response.body).toContain('placeholder="Type and hit enter..."');
    expect(response.body).toMatch(/<form[^>]*role="search"[^>]*action="\/blog"/);
    expect(cardsIn(response.body)).toBe(0);
    expect(response.body).not.toContain(NO_BLOGS_TEXT);
  });

  it('renders a post: image, category link, date, title, body, reading time, related posts, SEO tags', async () => {
    const seeded = blogSeed.posts[0];
    const post = (await t.store.blog.findPost(seeded.slug))!;
    const response = await get(`/blog/${post.slug}`);
    expect(response.statusCode).toBe(200);
    const html = response.body;
    expect(html).toMatch(new RegExp(`<h1[^>]*>${escapeRegExp(escapeHtml(post.title))}</h1>`));
    expect(html).toContain(`<title>${escapeHtml(post.title)} | Boostly</title>`);
    expect(html).toContain(`href="/blog/category/${post.categorySlug}"`);
    expect(html).toMatch(new RegExp(`<time datetime="${post.createdAt}"[^>]*>${LONG_US_DATE.source}</time>`, 'i'));
    expect(html).toContain(`${post.readingMinutes} min read`);
    expect(html).toContain('data-testid="post-body"');
    expect(html).toMatch(/data-testid="post-body"[^>]*>[\s\S]*<h2>/);
    expect(html).toContain('Related posts');
    expect(countOf(html, 'data-testid="blog-card"')).toBeGreaterThan(0);
    expect(html).toContain(`src="${post.image}"`);

    expect(headTag(html, 'name', 'description', 'content')).toBe(post.shortDesc);
    expect(headTag(html, 'rel', 'canonical', 'href')).toBe(`${PUBLIC_URL}/blog/${post.slug}`);
    expect(headTag(html, 'rel', 'alternate', 'href')).toBe(`${PUBLIC_URL}/blog/feed.xml`);
    expect(headTag(html, 'property', 'og:type', 'content')).toBe('article');
    // The page shows the SVG illustration; link previews get its PNG rendition (networks ignore SVG).
    expect(post.image).toMatch(/^\/images\/blog\/[a-z-]+\.svg$/);
    const shareImage = `${PUBLIC_URL}${post.image.replace(/\.svg$/, '.png')}`;
    expect(headTag(html, 'property', 'og:image', 'content')).toBe(shareImage);
    expect(headTag(html, 'name', 'twitter:card', 'content')).toBe('summary_large_image');
    expect(headTag(html, 'name', 'twitter:image', 'content')).toBe(shareImage);

    const [jsonLd] = jsonLdBlocks(html);
    const posting = JSON.parse(jsonLd) as Record<string, unknown>;
    expect(posting).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'BlogPosting',
      headline: post.title,
      datePublished: post.createdAt,
      dateModified: post.updatedAt,
      image: [shareImage],
      author: { '@type': 'Organization', name: 'Boostly' },
      publisher: { '@type': 'Organization', name: 'Boostly' },
    });
  });

  it('gives every page a raster share image: seeded posts their PNG rendition, lists and imageless posts the blog one, uploads their own', async () => {
    const rasterServed = async (absolute: string) => {
      const response = await get(absolute.slice(PUBLIC_URL.length));
      expect(response.statusCode, absolute).toBe(200);
      expect(response.headers['content-type'], absolute).toMatch(/^image\/(png|jpeg|webp)/);
      const { format } = await sharp(response.rawPayload).metadata();
      expect(['png', 'jpeg', 'webp'], absolute).toContain(format);
    };
    const sharedOn = async (url: string) => {
      const html = (await get(url)).body;
      const og = headTag(html, 'property', 'og:image', 'content');
      expect(headTag(html, 'name', 'twitter:image', 'content'), url).toBe(og);
      expect(og, url).toBeDefined();
      expect(og, url).not.toMatch(/\.svg$/i);
      return og ?? '';
    };

    for (const seeded of blogSeed.posts) {
      const og = await sharedOn(`/blog/${seeded.slug}`);
      expect(og).toBe(`${PUBLIC_URL}${shareImageOf(seeded.image?.url ?? '')}`);
      await rasterServed(og);
    }
    for (const url of ['/blog', '/blog/category/instagram-updates', '/instagram-issue', '/blog?s=instagram']) {
      expect(await sharedOn(url)).toBe(`${PUBLIC_URL}${BLOG_SHARE_IMAGE}`);
    }
    await rasterServed(`${PUBLIC_URL}${BLOG_SHARE_IMAGE}`);

    expect(
      (
        await t.store.blog.createPost({
          title: 'No cover at all',
          slug: 'no-cover',
          category: '',
          description: '<p>x</p>',
        })
      ).ok,
    ).toBe(true);
    const imageless = await waitFor(async () => ((await get('/blog/no-cover')).statusCode === 200 ? true : null), {
      message: 'the imageless post',
    });
    expect(imageless).toBe(true);
    expect(await sharedOn('/blog/no-cover')).toBe(`${PUBLIC_URL}${BLOG_SHARE_IMAGE}`);

    // An uploaded SVG cover is stored rasterised: the share image is the upload itself.
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="225"><rect width="400" height="225" fill="#16a34a"/></svg>',
    );
    expect(
      (
        await t.store.blog.createPost({
          title: 'SVG cover',
          slug: 'svg-cover',
          category: '',
          description: '<p>x</p>',
          image: { upload: svg },
        })
      ).ok,
    ).toBe(true);
    const uploaded = (await t.store.blog.findPost('svg-cover'))!;
    expect(uploaded.image).toMatch(/^\/uploads\/[0-9a-f]{32}\.png$/);
    const og = await waitFor(
      async () => ((await get('/blog/svg-cover')).statusCode === 200 ? sharedOn('/blog/svg-cover') : null),
      { message: 'the SVG-cover post' },
    );
    expect(og).toBe(`${PUBLIC_URL}${uploaded.image}`);
    await rasterServed(og);
  });

  it('keeps a hostile title and body inert: JSON-LD escaped, body sanitised again on render', async () => {
    const title = 'Growth </script><script>window.__xss(1)</script> & "quotes"';
    const created = await t.store.blog.createPost({
      title,
      slug: 'hostile-title',
      category: 'Instagram Updates',
      description: '<p>Safe text</p><img src="x" onerror="window.__xss(2)"><script>window.__xss(3)</script>',
    });
    expect(created.ok).toBe(true);
    // Rendering never trusts the database: plant a script in the stored body behind the blog's back.
    await t.database.db
      .updateTable('blog_posts')
      .set({ description: '<p>Safe text</p><script>window.__xss(4)</script><a href="javascript:alert(5)">x</a>' })
      .where('slug', '=', 'hostile-title')
      .execute();

    const response = await waitFor(
      async () => {
        const page = await get('/blog/hostile-title');
        return page.statusCode === 200 && page.body.includes('Safe text') && !page.body.includes('onerror')
          ? page
          : null;
      },
      { message: 'the hostile post rendered' },
    );
    const html = response.body;
    expect(html).not.toContain('<script>window.__xss');
    expect(html).not.toContain('javascript:');
    const [jsonLd] = jsonLdBlocks(html);
    expect(jsonLd).not.toMatch(/<\/script/i);
    expect(jsonLd).toContain('\\u003c/script\\u003e');
    expect((JSON.parse(jsonLd) as { headline: string }).headline).toBe(title);
    expect(html).toContain(
      '<title>Growth &lt;/script&gt;&lt;script&gt;window.__xss(1)&lt;/script&gt; &amp; &quot;quotes&quot; | Boostly</title>',
    );
  });

  it('gives an uploaded cover its responsive sources and size, on the post and on its card', async () => {
    const png = await sharp({ create: { width: 1200, height: 675, channels: 3, background: '#6d28d9' } })
      .png()
      .toBuffer();
    const created = await t.store.blog.createPost({
      title: 'Uploaded cover check',
      slug: 'uploaded-cover-check',
      category: 'Social Media Updates',
      description: '<p>Cover check</p>',
      image: { upload: png },
    });
    expect(created.ok).toBe(true);
    const post = (await t.store.blog.findPost('uploaded-cover-check'))!;
    expect(post.image).toMatch(/^\/uploads\//);

    const page = (await get('/blog/uploaded-cover-check')).body;
    const cover = page.match(/<img\b[^>]*>/g)!.find((tag) => tag.includes(`src="${post.image}"`))!;
    expect(cover).toMatch(/srcSet="[^"]*\/uploads\/[0-9a-f]+-480w\.webp 480w/);
    expect(cover).toContain('sizes="(min-width: 800px) 768px, 100vw"');
    expect(cover).toContain(`width="${post.imageWidth}" height="${post.imageHeight}"`);
    expect(cover).toContain('loading="eager"');

    const list = await waitFor(
      async () => {
        const body = (await get('/blog/category/social-media-updates')).body;
        return body.includes(`src="${post.image}"`) ? body : null;
      },
      { message: 'the new post on its category page' },
    );
    const card = list.match(/<img\b[^>]*>/g)!.find((tag) => tag.includes(`src="${post.image}"`))!;
    expect(card).toContain('sizes="(min-width: 1152px) 544px, (min-width: 640px) 50vw, 100vw"');
    expect(card).toMatch(/srcSet="[^"]*-480w\.webp 480w/);
  });

  it('answers an unknown post with the not-found view and 404, and a post id with a redirect to its slug', async () => {
    const missing = await get('/blog/no-such-post');
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('The page you are looking for could not be found');
    expect(missing.body).toContain('data-testid="blog-header"');

    const post = (await t.store.blog.findPost(blogSeed.posts[1].slug))!;
    const byId = await get(`/blog/${post.id}`);
    expect(byId.statusCode).toBe(301);
    expect(byId.headers.location).toBe(`/blog/${post.slug}`);
  });

  it('lists a category on its page and on the two routes the spec names', async () => {
    const categories = await t.store.blog.listCategories();
    const instagram = categories.find((category) => category.name === 'Instagram Updates')!;
    const social = categories.find((category) => category.name === 'Social Media Updates')!;
    for (const [url, category] of [
      [`/blog/category/${instagram.slug}`, instagram],
      ['/instagram-issue', instagram],
      ['/media-update', social],
    ] as const) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.body).toMatch(new RegExp(`<h1[^>]*>${escapeRegExp(category.name)}</h1>`));
      const { posts, count } = await t.store.blog.listPosts({ categorySlug: category.slug, page: 1, size: 4 });
      expect(count).toBeGreaterThan(0);
      expect(cardsIn(response.body)).toBe(posts.length);
      for (const post of posts) expect(response.body).toContain(`href="/blog/${post.slug}"`);
      // One address for search engines: the category page.
      expect(headTag(response.body, 'rel', 'canonical', 'href')).toBe(`${PUBLIC_URL}/blog/category/${category.slug}`);
      expect(response.body).not.toContain('50% OFF');
    }
    const unknown = await get('/blog/category/no-such-category');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain('The page you are looking for could not be found');
  });

  it('serves an RSS 2.0 feed that parses, with every post escaped', async () => {
    const tricky = await t.store.blog.createPost({
      title: 'Tom & Jerry <b>"grow"</b> ]]> it',
      description: '<p>Feed escaping check</p>',
    });
    expect(tricky.ok).toBe(true);
    const response = await waitFor(
      async () => {
        const feed = await get('/blog/feed.xml');
        return feed.body.includes('Tom &amp; Jerry') ? feed : null;
      },
      { message: 'the new post in the feed' },
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
    const rss = parseXml(response.body);
    expect(rss.name).toBe('rss');
    expect(rss.attributes.version).toBe('2.0');
    const channel = elements(rss, 'channel')[0];
    expect(textOf(channel, 'link')).toBe(`${PUBLIC_URL}/blog`);
    expect(elements(channel, 'atom:link')[0].attributes.href).toBe(`${PUBLIC_URL}/blog/feed.xml`);
    const items = elements(channel, 'item');
    expect(items.length).toBeGreaterThanOrEqual(blogSeed.posts.length);
    const titles = items.map((item) => textOf(item, 'title'));
    expect(titles).toContain('Tom & Jerry <b>"grow"</b> ]]> it');
    for (const item of items) {
      expect(textOf(item, 'link')).toMatch(new RegExp(`^${PUBLIC_URL}/blog/[a-z0-9-]+$`));
      expect(new Date(textOf(item, 'pubDate')).getTime()).not.toBeNaN();
    }
  });

  it('lists the store pages, the blog, its categories and every post with lastmod in /sitemap.xml', async () => {
    const response = await get('/sitemap.xml');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
    const urlset = parseXml(response.body);
    expect(urlset.name).toBe('urlset');
    const entries = new Map(elements(urlset, 'url').map((url) => [textOf(url, 'loc'), textOf(url, 'lastmod')]));
    expect(entries.has(`${PUBLIC_URL}/`)).toBe(true);
    expect(entries.has(`${PUBLIC_URL}/service/instagram-followers`)).toBe(true);
    expect(entries.get(`${PUBLIC_URL}/blog`)).toBeTruthy();
    for (const category of await t.store.blog.listCategories()) {
      if (category.postCount === 0) continue;
      expect(entries.has(`${PUBLIC_URL}/blog/category/${category.slug}`), category.slug).toBe(true);
    }
    const { posts, count } = await t.store.blog.listPosts({ page: 1, size: 50 });
    expect(posts.length).toBe(count);
    for (const post of posts) expect(entries.get(`${PUBLIC_URL}/blog/${post.slug}`)).toBe(post.updatedAt);
    // Only pages that exist.
    for (const loc of entries.keys()) {
      const path = loc.slice(PUBLIC_URL.length);
      expect((await get(path)).statusCode, path).toBe(200);
    }

    const robots = await get('/robots.txt');
    expect(robots.statusCode).toBe(200);
    expect(robots.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(robots.body).toContain(`Sitemap: ${PUBLIC_URL}/sitemap.xml`);
  });

  it('shows the spec text when the blog has no posts, once the last post is gone', async () => {
    for (;;) {
      const { posts } = await t.store.blog.listPosts({ page: 1, size: 50 });
      if (posts.length === 0) break;
      for (const post of posts) await t.store.blog.deletePost(post.id);
    }
    // The page cache is keyed by the blog's content version: the cached list gives way.
    const response = await waitFor(
      async () => {
        const page = await get('/blog');
        return page.body.includes(NO_BLOGS_TEXT) ? page : null;
      },
      { message: 'the empty blog text' },
    );
    expect(response.statusCode).toBe(200);
    expect(cardsIn(response.body)).toBe(0);
    expect(response.body).not.toContain('Nothing Found!');
    expect(response.body).not.toContain('data-testid="load-more"');
  });

  it('shows the error view, not a blank page, when the blog cannot be read', async () => {
    // A real failure: the posts table is gone (renamed away and back, so the suite stays whole).
    await sql`ALTER TABLE blog_posts RENAME TO blog_posts_away`.execute(t.database.db);
    try {
      // An address not rendered before, so no cached copy answers for it.
      const response = await get('/blog?page=1');
      expect(response.statusCode).toBe(500);
      expect(response.body).toContain('data-testid="blog-error"');
      expect(response.body).toContain('We could not load the blog');
      expect(response.body).toContain('data-testid="blog-header"');
    } finally {
      await sql`ALTER TABLE blog_posts_away RENAME TO blog_posts`.execute(t.database.db);
    }
  });
});
