// Shared blog types. Plain types only: the public pages, the admin pages and the JSON API all
// speak these shapes, and the pages reach the browser, so none of them may depend on the database layer.

export interface BlogCategory {
  id: number;
  name: string;
  slug: string;
  postCount?: number;
}

/** A post's cover image; `url` is '' when the post has none. */
export interface BlogImage {
  url: string;
  width: number | null;
  height: number | null;
}

export interface BlogPostSummary {
  id: number;
  slug: string;
  title: string;
  shortDesc: string;
  /** Category name ('' when none), as the spec's API returns it. */
  category: string;
  categorySlug: string | null;
  /** URL or '' (spec field). */
  image: string;
  imageWidth: number | null;
  imageHeight: number | null;
  /** ISO-8601. */
  createdAt: string;
  /** ISO-8601. */
  updatedAt: string;
  /** ISO-8601; null for a draft, in the future for a scheduled post (only the admin sees either). */
  publishedAt: string | null;
}

export interface BlogPost extends BlogPostSummary {
  /** Sanitised HTML. */
  description: string;
  readingMinutes: number;
}

export interface BlogPage<T = BlogPostSummary> {
  posts: T[];
  count: number;
  totalPages: number;
  currentPage: number;
}
