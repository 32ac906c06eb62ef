/**
 * A blog post's JSON-LD (BlogPosting, BreadcrumbList): only the post page's meta uses it, so it
 * sits apart from seo.ts, which every blog page loads.
 */
import { organizationJsonLd } from '../../seo/json-ld.ts';
import { type Crumb, DEFAULT_SHARE_IMAGE, type JsonLd, absoluteUrl, breadcrumbJsonLd } from '../../seo/meta.ts';
import { categoryPath, lastChangeOf, publishedDateOf } from './format.ts';

export interface PostForJsonLd {
  title: string;
  shortDesc: string;
  image: string;
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
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
    datePublished: publishedDateOf(post),
    dateModified: lastChangeOf(post),
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
