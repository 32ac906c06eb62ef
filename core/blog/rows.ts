/** How blog rows are read and turned into the shapes of ./contracts.ts, for the reads and the writes. */
import type { BlogPage, BlogPost, BlogPostSummary } from './contracts.ts';
import type { BlogDb } from './deps.ts';
import { readingMinutes } from './text.ts';
import { isRowId } from '../integer-columns.ts';

export interface PostRow {
  id: number;
  slug: string;
  title: string;
  short_desc: string;
  description: string;
  category_name: string | null;
  category_slug: string | null;
  image_url: string;
  image_width: number | null;
  image_height: number | null;
  created_at: string;
  updated_at: string;
  published_at: string | null;
}

export type SummaryRow = Omit<PostRow, 'description'>;

export const SUMMARY_COLUMNS = [
  'p.id',
  'p.slug',
  'p.title',
  'p.short_desc',
  'c.name as category_name',
  'c.slug as category_slug',
  'p.image_url',
  'p.image_width',
  'p.image_height',
  'p.created_at',
  'p.updated_at',
  'p.published_at',
] as const;

export function toSummary(row: SummaryRow): BlogPostSummary {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    shortDesc: row.short_desc,
    category: row.category_name ?? '',
    categorySlug: row.category_slug,
    image: row.image_url,
    imageWidth: row.image_width,
    imageHeight: row.image_height,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    publishedAt: row.published_at,
  };
}

export function toPost(row: PostRow): BlogPost {
  return { ...toSummary(row), description: row.description, readingMinutes: readingMinutes(row.description) };
}

/**
 * Digits name a post by id; anything else by slug (slugs are never all digits). Digits beyond the
 * id column's range name no post (null), rather than reaching the database.
 */
export function postKey(slugOrId: string | number): { id: number } | { slug: string } | null {
  if (typeof slugOrId === 'number') return isRowId(slugOrId) ? { id: slugOrId } : null;
  if (/^\d+$/.test(slugOrId)) return isRowId(Number(slugOrId)) ? { id: Number(slugOrId) } : null;
  return slugOrId ? { slug: slugOrId } : null;
}

export function pageOf<T>(posts: T[], count: number, page: number, size: number): BlogPage<T> {
  return { posts, count, totalPages: Math.ceil(count / size), currentPage: page };
}

/** Posts with their category, every column a full post shows. */
export function selectPosts(from: BlogDb) {
  return from
    .selectFrom('blog_posts as p')
    .leftJoin('blog_categories as c', 'c.id', 'p.category_id')
    .select([...SUMMARY_COLUMNS, 'p.description']);
}

/**
 * Who reads: the public sees only posts whose publish time has passed (drafts and scheduled posts
 * do not exist for it); the admin sees every post.
 */
export type PostAudience = { public: true; now: string } | { public: false };

export async function loadPostRow(
  from: BlogDb,
  slugOrId: string | number,
  audience: PostAudience = { public: false },
): Promise<PostRow | null> {
  const key = postKey(slugOrId);
  if (!key) return null;
  const query =
    'id' in key ? selectPosts(from).where('p.id', '=', key.id) : selectPosts(from).where('p.slug', '=', key.slug);
  const visible = audience.public ? query.where('p.published_at', '<=', audience.now) : query;
  return (await visible.executeTakeFirst()) ?? null;
}
