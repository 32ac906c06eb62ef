/**
 * Server-only helpers of the public blog routes: reading the query, loading a list page, and
 * preparing posts for display (responsive image sources, the body sanitised once more). Kept out
 * of the browser bundle (`.server.ts`): sharp and sanitize-html stay on the server.
 */
import { data } from 'react-router';
import type { Blog } from '../../../core/blog/blog.ts';
import type { BlogPost, BlogPostSummary } from '../../../core/blog/contracts.ts';
import { sanitizeBlogHtml } from '../../../core/html/sanitize.ts';
import { responsiveImage } from '../../../core/uploads/images.ts';
import {
  BLOG_PAGE_SIZE,
  type BlogArticle,
  type BlogCard,
  type BlogListPage,
  type CategoryPageData,
  type Picture,
} from '../../components/blog/types.ts';

/** Cards sit two abreast from 640 px in a 72rem column, full width below. */
const CARD_SIZES = '(min-width: 1152px) 544px, (min-width: 640px) 50vw, 100vw';
/** A post's cover spans its 48rem article column. */
const ARTICLE_SIZES = '(min-width: 800px) 768px, 100vw';

/** The highest `?page=` taken seriously; beyond it the URL is noise (and a cache key each). */
const MAX_PAGE = 10_000;

function pictureOf(post: BlogPostSummary, sizes: string): Picture | null {
  if (!post.image) return null;
  const image = responsiveImage(post.image, post.imageWidth, post.imageHeight);
  return {
    src: image.src,
    srcSet: image.srcSet,
    sizes: image.srcSet ? sizes : undefined,
    width: post.imageWidth,
    height: post.imageHeight,
  };
}

export function cardOf(post: BlogPostSummary): BlogCard {
  return { ...post, picture: pictureOf(post, CARD_SIZES) };
}

/** The post as its page shows it. The database is not trusted: the body is sanitised again. */
export function articleOf(post: BlogPost, publicUrl: string): BlogArticle {
  return {
    ...post,
    description: sanitizeBlogHtml(post.description, { publicUrl }),
    picture: pictureOf(post, ARTICLE_SIZES),
  };
}

/** The API's limit on a keyword (server/api/blog.ts); a longer one is cut, not refused. */
const MAX_KEYWORD_LENGTH = 200;

/** `s`, trimmed (spec section 8): '' means no search. */
export function searchKeyword(url: URL): string {
  return (url.searchParams.get('s') ?? '').trim().slice(0, MAX_KEYWORD_LENGTH).trim();
}

/** `?page=N`: absent is page 1; anything but a page number is not a page (404). */
export function requestedPage(url: URL): number {
  const raw = url.searchParams.get('page');
  if (raw === null) return 1;
  if (!/^[1-9]\d{0,4}$/.test(raw) || Number(raw) > MAX_PAGE) throw notFound();
  return Number(raw);
}

export function notFound() {
  return data(null, { status: 404 });
}

/**
 * One page of a list (all posts, a search, or a category). A page past the last one is not a
 * page (404), except page 1 of an empty list, which shows the spec's empty texts.
 */
export async function loadListPage(
  blog: Blog,
  query: { keyword: string; categorySlug?: string | undefined; page: number },
): Promise<BlogListPage> {
  const page = await blog.listPosts({
    keyword: query.keyword || undefined,
    categorySlug: query.categorySlug,
    page: query.page,
    size: BLOG_PAGE_SIZE,
  });
  if (query.page > 1 && query.page > page.totalPages) throw notFound();
  return {
    cards: page.posts.map(cardOf),
    count: page.count,
    totalPages: page.totalPages,
    currentPage: query.page,
  };
}

/**
 * The spec lists `/instagram-issue` and `/media-update` without content; they show the two
 * categories the seed creates, named in the blog menu (decision 020).
 */
export const NAMED_CATEGORY_ROUTES = {
  '/instagram-issue': 'instagram-updates',
  '/media-update': 'social-media-updates',
} as const;

/** A category page's data: the category and one page of its posts; an unknown category is a 404. */
export async function loadCategoryPage(
  services: { blog: Blog; publicUrl: string },
  request: Request,
  categorySlug: string,
): Promise<CategoryPageData> {
  const url = new URL(request.url);
  const category = await services.blog.findCategory(categorySlug);
  if (!category) throw notFound();
  const list = await loadListPage(services.blog, {
    keyword: '',
    categorySlug: category.slug,
    page: requestedPage(url),
  });
  return { category, list, path: url.pathname, publicUrl: services.publicUrl };
}
