/**
 * The blog's search and social tags: the store's `pageMeta` (app/seo/meta.ts) plus the feed link,
 * for every blog page. A post's JSON-LD is in post-json-ld.ts, so the list pages do not load it.
 */
import type { MetaDescriptor } from 'react-router';
import { type PageSeo as StorePageSeo, SITE_NAME, absoluteUrl, pageMeta } from '../../seo/meta.ts';

export { absoluteUrl };

export const BLOG_NAME = `${SITE_NAME} blog`;
export const FEED_PATH = '/blog/feed.xml';

export type PageSeo = Omit<StorePageSeo, 'publicUrl' | 'extra'> & { publicUrl: string };

/** A blog page's tags: the store's, with the blog's RSS feed announced. */
export function blogMeta(seo: PageSeo): MetaDescriptor[] {
  return pageMeta({
    ...seo,
    extra: [
      {
        tagName: 'link',
        rel: 'alternate',
        type: 'application/rss+xml',
        title: BLOG_NAME,
        href: absoluteUrl(seo.publicUrl, FEED_PATH),
      },
    ],
  });
}
