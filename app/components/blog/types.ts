/** What the public blog pages render: the API's shapes plus what the server prepared for display. */
import type { BlogCategory, BlogPost, BlogPostSummary } from '../../../core/blog/contracts.ts';

/** An `<img>`'s sources: `srcSet`/`sizes` only for our uploads, which come in several widths. */
export interface Picture {
  src: string;
  srcSet?: string | undefined;
  sizes?: string | undefined;
  /** Intrinsic size when known; the image box keeps its aspect ratio either way (no layout shift). */
  width: number | null;
  height: number | null;
}

/** A post card: the list item and its picture (null: the fallback illustration). */
export interface BlogCard extends BlogPostSummary {
  picture: Picture | null;
}

export interface BlogArticle extends BlogPost {
  picture: Picture | null;
}

/** One page of a list as the loaders and the `GET /api/blog` reply both describe it. */
export interface BlogListPage {
  cards: BlogCard[];
  count: number;
  totalPages: number;
  currentPage: number;
}

/** What the category routes (`/blog/category/:slug`, `/instagram-issue`, `/media-update`) load. */
export interface CategoryPageData {
  category: BlogCategory;
  list: BlogListPage;
  /** The path this page was asked for (a category page or one of the spec's two named routes). */
  path: string;
  publicUrl: string;
}

/** The spec's page size for the public list (section 9). */
export const BLOG_PAGE_SIZE = 4;
