/**
 * Search and social tags for every public page: title, description, canonical URL on PUBLIC_URL,
 * Open Graph, Twitter card, robots and JSON-LD. One function so every page says the same things
 * the same way (docs/decisions/029-search-engines-and-sharing.md). React Router's <Meta> writes
 * `script:ld+json` through its HTML escaper (`<` → \u003c), so a `</script>` inside a title or
 * description stays data.
 */
import type { MetaDescriptor } from 'react-router';
import { SITE_NAME } from './private-meta.ts';

export { SITE_NAME, privatePageMeta } from './private-meta.ts';
/**
 * Shown by link previews when a page has no image of its own: a 1200×630 PNG, because Facebook,
 * X and LinkedIn ignore SVG. Rendered from share.svg by scripts/render-share-images.ts.
 */
export const DEFAULT_SHARE_IMAGE = '/images/share/boostly-share.png';
const DEFAULT_SHARE_IMAGE_SIZE = { width: 1200, height: 630 } as const;
const DEFAULT_SHARE_IMAGE_ALT = 'Boostly: grow your Instagram, YouTube and TikTok';
/** The raster logo schema.org's Organization asks for (512×512, from logo.svg). */
export const LOGO_IMAGE = '/images/share/boostly-logo.png';

export const SCHEMA_CONTEXT = 'https://schema.org';

export type JsonLd = Record<string, unknown>;

export interface PageSeo {
  /** The store's public origin (PUBLIC_URL), from the route's loader data. */
  publicUrl: string | undefined;
  /** The page's own path (its canonical URL), e.g. `/course/instagram-growth`. */
  path: string;
  /** The page's title without the site name; `<title>` gets " | Boostly" appended. */
  title: string;
  description: string;
  /** A relative or absolute raster image URL; made absolute here. Without one, the share image. */
  image?: string | undefined;
  type?: 'website' | 'article';
  /** One JSON-LD object or several (each becomes its own script tag). */
  jsonLd?: JsonLd | readonly JsonLd[] | undefined;
  /** Private pages and search results: kept out of search engines' indexes. */
  noindex?: boolean;
  /** Extra tags a page needs (a feed link, for example), appended as they are. */
  extra?: readonly MetaDescriptor[];
}

export function absoluteUrl(publicUrl: string | undefined, pathOrUrl: string): string {
  return new URL(pathOrUrl, `${publicUrl ?? 'http://localhost'}/`).href;
}

export function pageMeta(seo: PageSeo): MetaDescriptor[] {
  const url = absoluteUrl(seo.publicUrl, seo.path);
  const ownImage = Boolean(seo.image);
  const image = absoluteUrl(seo.publicUrl, seo.image || DEFAULT_SHARE_IMAGE);
  const tags: MetaDescriptor[] = [
    { title: `${seo.title} | ${SITE_NAME}` },
    { name: 'description', content: seo.description },
    { tagName: 'link', rel: 'canonical', href: url },
    { property: 'og:site_name', content: SITE_NAME },
    { property: 'og:type', content: seo.type ?? 'website' },
    { property: 'og:title', content: seo.title },
    { property: 'og:description', content: seo.description },
    { property: 'og:url', content: url },
    { property: 'og:image', content: image },
    // Only the default image's size is known here; a page's own image is measured by the reader.
    ...(ownImage
      ? [{ property: 'og:image:alt', content: seo.title }]
      : [
          { property: 'og:image:width', content: String(DEFAULT_SHARE_IMAGE_SIZE.width) },
          { property: 'og:image:height', content: String(DEFAULT_SHARE_IMAGE_SIZE.height) },
          { property: 'og:image:alt', content: DEFAULT_SHARE_IMAGE_ALT },
        ]),
    { name: 'twitter:card', content: 'summary_large_image' },
    { name: 'twitter:title', content: seo.title },
    { name: 'twitter:description', content: seo.description },
    { name: 'twitter:image', content: image },
  ];
  if (seo.noindex) tags.push({ name: 'robots', content: 'noindex, follow' });
  if (seo.extra) tags.push(...seo.extra);
  for (const item of jsonLdList(seo.jsonLd)) tags.push({ 'script:ld+json': item });
  return tags;
}

function jsonLdList(jsonLd: PageSeo['jsonLd']): readonly JsonLd[] {
  if (jsonLd === undefined) return [];
  // `Array.isArray` does not narrow a readonly array type, hence the explicit check of the object case.
  return isJsonLdList(jsonLd) ? jsonLd : [jsonLd];
}

function isJsonLdList(jsonLd: JsonLd | readonly JsonLd[]): jsonLd is readonly JsonLd[] {
  return Array.isArray(jsonLd);
}

export interface Crumb {
  name: string;
  path: string;
}

/** schema.org BreadcrumbList: Home first, then the given trail, each with an absolute URL. */
export function breadcrumbJsonLd(publicUrl: string | undefined, trail: readonly Crumb[]): JsonLd {
  const crumbs: Crumb[] = [{ name: 'Home', path: '/' }, ...trail];
  return {
    '@context': SCHEMA_CONTEXT,
    '@type': 'BreadcrumbList',
    itemListElement: crumbs.map((crumb, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      name: crumb.name,
      item: absoluteUrl(publicUrl, crumb.path),
    })),
  };
}

const SCRIPT_UNSAFE: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/**
 * JSON-LD as the text of a `<script type="application/ld+json">` written by hand (the root's
 * Organization): escaped the way React Router's <Meta> does it, so no value can close the tag.
 */
export function jsonLdScriptText(jsonLd: JsonLd): string {
  return JSON.stringify(jsonLd).replace(/[<>&\u2028\u2029]/g, (character) => SCRIPT_UNSAFE[character] ?? character);
}
