/**
 * The blog's search and social tags: the store's `pageMeta` (app/seo/meta.ts) plus the feed link,
 * and the JSON-LD of a post (BlogPosting, BreadcrumbList).
 */
import type { MetaDescriptor } from 'react-router';
import {
  type Crumb,
  DEFAULT_SHARE_IMAGE,
  type JsonLd,
  type PageSeo as StorePageSeo,
  SITE_NAME,
  absoluteUrl,
  breadcrumbJsonLd,
  organizationJsonLd,
  pageMeta,
} from '../../seo/meta.ts';
import { categoryPath } from './format.ts';

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

export interface PostForJsonLd {
  title: string;
  shortDesc: string;
  image: string;
  createdAt: string;
  updatedAt: string;
  category: string;
  categorySlug?: string | null;
}

/** schema.org BlogPosting for one post, with Boostly as author and publisher. */
export function blogPostingJsonLd(publicUrl: string, path: string, post: PostForJsonLd): JsonLd {
  const { '@context': _context, ...organization } = organizationJsonLd(publicUrl);
  return {
    '@context': 'https://schema.org',
    '@type': 'BlogPosting',
    headline: post.title,
    description: post.shortDesc,
    datePublished: post.createdAt,
    dateModified: post.updatedAt,
    image: [absoluteUrl(publicUrl, post.image || DEFAULT_SHARE_IMAGE)],
    ...(post.category ? { articleSection: post.category } : {}),
    mainEntityOfPage: { '@type': 'WebPage', '@id': absoluteUrl(publicUrl, path) },
    author: organization,
    publisher: organization,
  };
}

/** Home › Blog › the post's category (when it has one) › the post. */
export function blogPostBreadcrumbJsonLd(publicUrl: string, path: string, post: PostForJsonLd): JsonLd {
  const trail: Crumb[] = [{ name: 'Blog', path: '/blog' }];
  if (post.category && post.categorySlug) trail.push({ name: post.category, path: categoryPath(post.categorySlug) });
  trail.push({ name: post.title, path });
  return breadcrumbJsonLd(publicUrl, trail);
}
