/**
 * `/sitemap.xml`: every public, indexable page that exists (docs/decisions/029), with `lastmod`
 * where the store knows when a page changed (blog posts, dated legal texts). It grows with the
 * store: add a page's URL here when the page is built. Private pages (orders, /client, /login,
 * /admin) and noindex pages (search results, the mock-up previews) are never listed:
 * tests/integration/seo.test.ts checks each listed page is a 200 with a canonical URL of itself.
 */
import type { Route } from './+types/sitemap';
import type { BlogPostSummary } from '../../../core/blog/contracts.ts';
import { listCourses } from '../../../core/courses/catalogue.ts';
import { CacheStrategy } from '../../cache.ts';
import { categoryPath, lastChangeOf, postPath } from '../../components/blog/format.ts';

import { FAQ_PAGE, LEGAL_PAGES } from '../../content/legal/pages.ts';
import { requestContext } from '../../context.ts';
import { absoluteUrl } from '../../seo/meta.ts';
import { escapeXml, xmlResponse } from './xml.server.ts';

/** The protocol's limit per sitemap file. */
const MAX_URLS = 50_000;
const LIST_PAGE_SIZE = 50;

interface SitemapEntry {
  path: string;
  lastmod?: string | undefined;
}

function newest(posts: readonly BlogPostSummary[]): string | undefined {
  return posts.reduce<string | undefined>(
    (latest, post) => (!latest || lastChangeOf(post) > latest ? lastChangeOf(post) : latest),
    undefined,
  );
}

export async function loader({ context }: Route.LoaderArgs) {
  const { catalogue, blog, publicUrl } = context.get(requestContext).services;
  const groups = await catalogue.listGroups();
  const categories = await blog.listCategories();

  const posts: BlogPostSummary[] = [];
  for (let page = 1; posts.length < MAX_URLS; page += 1) {
    const listed = await blog.listPosts({ page, size: LIST_PAGE_SIZE });
    posts.push(...listed.posts);
    if (page >= listed.totalPages || listed.posts.length === 0) break;
  }

  const entries: SitemapEntry[] = [
    { path: '/' },
    ...groups.flatMap((group) =>
      group.services.map((service) => ({ path: `/service/${encodeURIComponent(service.slug)}` })),
    ),
    ...[FAQ_PAGE, ...LEGAL_PAGES].map((page) => ({ path: page.path, lastmod: page.lastUpdated?.iso })),
    { path: '/contact' },
    { path: '/courses' },
    ...listCourses().map((course) => ({ path: `/course/${encodeURIComponent(course.slug)}` })),
    { path: '/blog', lastmod: newest(posts) },
    ...categories
      .filter((category) => category.postCount === undefined || category.postCount > 0)
      .map((category) => ({
        path: categoryPath(category.slug),
        lastmod: newest(posts.filter((post) => post.categorySlug === category.slug)),
      })),
    ...posts.map((post) => ({ path: postPath(post.slug), lastmod: lastChangeOf(post) })),
  ];

  const urls = entries.slice(0, MAX_URLS).map(({ path, lastmod }) => {
    const lastmodTag = lastmod ? `<lastmod>${escapeXml(lastmod)}</lastmod>` : '';
    return `  <url><loc>${escapeXml(absoluteUrl(publicUrl, path))}</loc>${lastmodTag}</url>`;
  });
  const xml = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n');
  return xmlResponse(xml, 'application/xml', CacheStrategy.blog);
}
