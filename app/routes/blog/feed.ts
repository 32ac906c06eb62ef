/** `/blog/feed.xml`: the newest posts as RSS 2.0, every value escaped. */
import type { Route } from './+types/feed';
import { CacheStrategy } from '../../cache.ts';
import { lastChangeOf, postPath, publishedDateOf } from '../../components/blog/format.ts';
import { BLOG_NAME, FEED_PATH, absoluteUrl } from '../../components/blog/seo.ts';
import { requestContext } from '../../context.ts';
import { escapeXml, xmlResponse } from '../seo/xml.server.ts';

const FEED_ITEMS = 20;

/** RSS dates are RFC 822 (`Mon, 23 Nov 2026 06:00:00 GMT`). */
function rfc822(iso: string): string {
  return new Date(iso).toUTCString();
}

export async function loader({ context }: Route.LoaderArgs) {
  const { blog, publicUrl } = context.get(requestContext).services;
  const posts = await blog.allPostsForFeed(FEED_ITEMS);
  const feedUrl = absoluteUrl(publicUrl, FEED_PATH);
  const items = posts.map((post) => {
    const link = absoluteUrl(publicUrl, postPath(post.slug));
    return [
      '    <item>',
      `      <title>${escapeXml(post.title)}</title>`,
      `      <link>${escapeXml(link)}</link>`,
      `      <guid isPermaLink="true">${escapeXml(link)}</guid>`,
      `      <pubDate>${rfc822(publishedDateOf(post))}</pubDate>`,
      post.category ? `      <category>${escapeXml(post.category)}</category>` : null,
      `      <description>${escapeXml(post.shortDesc)}</description>`,
      '    </item>',
    ]
      .filter((line) => line !== null)
      .join('\n');
  });
  const lastBuild = posts.reduce<string | null>(
    (latest, post) => (!latest || lastChangeOf(post) > latest ? lastChangeOf(post) : latest),
    null,
  );
  const xml = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">',
    '  <channel>',
    `    <title>${escapeXml(BLOG_NAME)}</title>`,
    `    <link>${escapeXml(absoluteUrl(publicUrl, '/blog'))}</link>`,
    '    <description>Guides and news for growing Instagram, YouTube and TikTok accounts.</description>',
    '    <language>en-us</language>',
    `    <atom:link href="${escapeXml(feedUrl)}" rel="self" type="application/rss+xml"/>`,
    lastBuild ? `    <lastBuildDate>${rfc822(lastBuild)}</lastBuildDate>` : null,
    ...items,
    '  </channel>',
    '</rss>',
    '',
  ]
    .filter((line) => line !== null)
    .join('\n');
  return xmlResponse(xml, 'application/rss+xml', CacheStrategy.blog);
}
