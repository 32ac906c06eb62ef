/**
 * Search and social tags for the blog pages: title, description, canonical URL (PUBLIC_URL),
 * the feed, Open Graph, Twitter card, and JSON-LD. React Router's <Meta> writes `script:ld+json`
 * through its HTML escaper (`<` → \u003c), so a `</script>` in a post title stays data.
 */
import type { MetaDescriptor } from 'react-router';

export const BLOG_NAME = 'Boostly blog';
export const FEED_PATH = '/blog/feed.xml';
/** Shown by link previews when a page has no image of its own. */
const DEFAULT_IMAGE = '/images/logo.svg';

export interface PageSeo {
  publicUrl: string;
  /** The page's own path (canonical), e.g. `/blog/how-to-grow`. */
  path: string;
  title: string;
  description: string;
  /** A stored image URL (relative or absolute); made absolute here. */
  image?: string | undefined;
  type?: 'website' | 'article';
  jsonLd?: Record<string, unknown> | undefined;
  /** Search results and pages past the list: kept out of search engines' indexes. */
  noindex?: boolean;
}

export function absoluteUrl(publicUrl: string, pathOrUrl: string): string {
  return new URL(pathOrUrl, `${publicUrl}/`).href;
}

export function blogMeta(seo: PageSeo): MetaDescriptor[] {
  const url = absoluteUrl(seo.publicUrl, seo.path);
  const image = absoluteUrl(seo.publicUrl, seo.image || DEFAULT_IMAGE);
  const title = `${seo.title} | Boostly`;
  const tags: MetaDescriptor[] = [
    { title },
    { name: 'description', content: seo.description },
    { tagName: 'link', rel: 'canonical', href: url },
    {
      tagName: 'link',
      rel: 'alternate',
      type: 'application/rss+xml',
      title: BLOG_NAME,
      href: absoluteUrl(seo.publicUrl, FEED_PATH),
    },
    { property: 'og:site_name', content: 'Boostly' },
    { property: 'og:type', content: seo.type ?? 'website' },
    { property: 'og:title', content: seo.title },
    { property: 'og:description', content: seo.description },
    { property: 'og:url', content: url },
    { property: 'og:image', content: image },
    { name: 'twitter:card', content: 'summary_large_image' },
    { name: 'twitter:title', content: seo.title },
    { name: 'twitter:description', content: seo.description },
    { name: 'twitter:image', content: image },
  ];
  if (seo.noindex) tags.push({ name: 'robots', content: 'noindex, follow' });
  if (seo.jsonLd) tags.push({ 'script:ld+json': seo.jsonLd });
  return tags;
}

export interface PostForJsonLd {
  title: string;
  shortDesc: string;
  image: string;
  createdAt: string;
  updatedAt: string;
  category: string;
}

/** schema.org BlogPosting for one post, with Boostly as author and publisher. */
export function blogPostingJsonLd(publicUrl: string, path: string, post: PostForJsonLd): Record<string, unknown> {
  const organization = {
    '@type': 'Organization',
    name: 'Boostly',
    url: absoluteUrl(publicUrl, '/'),
    logo: { '@type': 'ImageObject', url: absoluteUrl(publicUrl, DEFAULT_IMAGE) },
  };
  return {
    '@context': 'https://schema.org',
    '@type': 'BlogPosting',
    headline: post.title,
    description: post.shortDesc,
    datePublished: post.createdAt,
    dateModified: post.updatedAt,
    image: [absoluteUrl(publicUrl, post.image || DEFAULT_IMAGE)],
    ...(post.category ? { articleSection: post.category } : {}),
    mainEntityOfPage: { '@type': 'WebPage', '@id': absoluteUrl(publicUrl, path) },
    author: organization,
    publisher: organization,
  };
}
