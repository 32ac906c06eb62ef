/**
 * The blog's reads: the list (newest first, or ranked by a full-text search), one post, related
 * posts, categories and the feed. Each takes the blog's deps (./deps.ts); only `db` is read.
 */
import { sql } from 'kysely';
import { isPostgres } from '../../db/dialect.ts';
import type { BlogCategory, BlogPage, BlogPost, BlogPostSummary } from './contracts.ts';
import type { BlogDeps } from './deps.ts';
import {
  type PostAudience,
  SUMMARY_COLUMNS,
  type SummaryRow,
  loadPostRow,
  pageOf,
  selectPosts,
  toPost,
  toSummary,
} from './rows.ts';
import { searchTokens } from './text.ts';

type ReadDeps = Pick<BlogDeps, 'db' | 'clock'>;

/** The public's view: only posts whose publish time has passed, read against the store's clock. */
function publicAudience(deps: Pick<BlogDeps, 'clock'>): PostAudience {
  return { public: true, now: deps.clock().toISOString() };
}

export interface ListPostsQuery {
  /** Trimmed by the caller; empty or absent lists everything newest first. */
  keyword?: string | undefined;
  categorySlug?: string | undefined;
  /** 1-based. */
  page: number;
  size: number;
  /** The admin's list holds drafts and scheduled posts too; everyone else sees published posts only. */
  includeUnpublished?: boolean | undefined;
}

/** With a keyword: full-text ranked (title hits above body hits); otherwise newest first. */
export async function listPosts(
  deps: ReadDeps,
  { keyword, categorySlug, includeUnpublished, ...paging }: ListPostsQuery,
): Promise<BlogPage> {
  const audience: PostAudience = includeUnpublished ? { public: false } : publicAudience(deps);
  // Callers other than the API (route loaders) pass what a URL said: keep it sane here too.
  const size = Math.min(Math.max(1, Math.floor(paging.size) || 1), 100);
  const page = Math.min(Math.max(1, Math.floor(paging.page) || 1), 1_000_000);
  const trimmed = keyword?.trim() ?? '';
  if (!trimmed) return listNewestPosts(deps, audience, categorySlug, page, size);
  const tokens = searchTokens(trimmed);
  // Nothing searchable in it (only punctuation, say): nothing matches.
  if (tokens.length === 0) return pageOf([], 0, page, size);
  return searchPosts(deps, audience, tokens, categorySlug, page, size);
}

async function listNewestPosts(
  { db }: ReadDeps,
  audience: PostAudience,
  categorySlug: string | undefined,
  page: number,
  size: number,
): Promise<BlogPage> {
  let base = db.selectFrom('blog_posts as p').leftJoin('blog_categories as c', 'c.id', 'p.category_id');
  if (categorySlug !== undefined) base = base.where('c.slug', '=', categorySlug);
  if (audience.public) base = base.where('p.published_at', '<=', audience.now);
  const [countRow, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    base
      .select(SUMMARY_COLUMNS)
      // The public reads posts in the order they went live; the admin's list, as they were written.
      .orderBy(audience.public ? 'p.published_at' : 'p.created_at', 'desc')
      .orderBy('p.id', 'desc')
      .limit(size)
      .offset((page - 1) * size)
      .execute(),
  ]);
  return pageOf(rows.map(toSummary), Number(countRow.n), page, size);
}

/** Posts holding every token (as a word or the start of one), best match first. */
async function searchPosts(
  { db }: ReadDeps,
  audience: PostAudience,
  tokens: string[],
  categorySlug: string | undefined,
  page: number,
  size: number,
): Promise<BlogPage> {
  const offset = (page - 1) * size;
  const inCategory = categorySlug === undefined ? sql`` : sql`and c.slug = ${categorySlug}`;
  const visible = audience.public ? sql`and p.published_at <= ${audience.now}` : sql``;
  const columns = sql`p.id, p.slug, p.title, p.short_desc, c.name as category_name, c.slug as category_slug,
    p.image_url, p.image_width, p.image_height, p.created_at, p.updated_at, p.published_at`;
  let matches: ReturnType<typeof sql>;
  let rank: ReturnType<typeof sql>;
  let from: ReturnType<typeof sql>;
  if (isPostgres(db)) {
    // Every word must appear, as a word or the start of one; title hits (weight A) dominate body hits (B).
    const query = sql`to_tsquery('simple', ${tokens.map((token) => `${token}:*`).join(' & ')})`;
    from = sql`blog_posts p`;
    matches = sql`p.search_vector @@ ${query}`;
    rank = sql`ts_rank('{0, 0, 0.1, 1}', p.search_vector, ${query}) desc`;
  } else {
    // Each word quoted (so no input is FTS5 syntax) and prefix-matched; all must appear.
    const query = tokens.map((token) => `"${token}"*`).join(' ');
    from = sql`blog_posts_fts f join blog_posts p on p.id = f.rowid`;
    matches = sql`blog_posts_fts match ${query}`;
    rank = sql`bm25(blog_posts_fts, 10.0, 1.0)`;
  }
  const { rows } = await sql<SummaryRow>`select ${columns} from ${from}
      left join blog_categories c on c.id = p.category_id where ${matches} ${inCategory} ${visible}
      order by ${rank}, p.created_at desc, p.id desc limit ${size} offset ${offset}`.execute(db);
  // A page that is not full is the last one and tells the number of matches itself: so does almost
  // every search (a word no post holds finds nothing). Only a full page, or an empty one past the
  // first, needs the matches counted.
  let count = offset + rows.length;
  if (rows.length === size || (rows.length === 0 && offset > 0)) {
    const { rows: counted } = await sql<{ n: number | string }>`select count(*) as n from ${from}
      left join blog_categories c on c.id = p.category_id where ${matches} ${inCategory} ${visible}`.execute(db);
    count = Number(counted[0]?.n ?? 0);
  }
  return pageOf(rows.map(toSummary), count, page, size);
}

/** By id (digits) or slug, as the public sees it: null for a draft or a post not yet published. */
export async function findPost(deps: ReadDeps, slugOrId: string | number): Promise<BlogPost | null> {
  const row = await loadPostRow(deps.db, slugOrId, publicAudience(deps));
  return row ? toPost(row) : null;
}

/** By id (digits) or slug, whatever its status: for the admin's editor and preview. */
export async function findAnyPost({ db }: ReadDeps, slugOrId: string | number): Promise<BlogPost | null> {
  const row = await loadPostRow(db, slugOrId);
  return row ? toPost(row) : null;
}

/** Other posts of the same category, newest first, then the newest others to fill `limit`. */
export async function relatedPosts(deps: ReadDeps, post: BlogPostSummary, limit: number): Promise<BlogPostSummary[]> {
  if (limit <= 0) return [];
  const { db } = deps;
  const now = deps.clock().toISOString();
  const base = () =>
    db
      .selectFrom('blog_posts as p')
      .leftJoin('blog_categories as c', 'c.id', 'p.category_id')
      .select(SUMMARY_COLUMNS)
      .where('p.id', '<>', post.id)
      .where('p.published_at', '<=', now)
      .orderBy('p.published_at', 'desc')
      .orderBy('p.id', 'desc');
  const sameCategory = post.categorySlug
    ? await base().where('c.slug', '=', post.categorySlug).limit(limit).execute()
    : [];
  const rows = [...sameCategory];
  if (rows.length < limit) {
    const seen = rows.map((row) => row.id);
    let others = base().limit(limit - rows.length);
    if (seen.length > 0) others = others.where('p.id', 'not in', seen);
    rows.push(...(await others.execute()));
  }
  return rows.map(toSummary);
}

/** Counts only the posts the public sees: a category of drafts alone reads as empty. */
function categoriesWithCounts({ db, clock }: ReadDeps) {
  const now = clock().toISOString();
  return db
    .selectFrom('blog_categories as c')
    .leftJoin('blog_posts as p', (join) => join.onRef('p.category_id', '=', 'c.id').on('p.published_at', '<=', now))
    .select((eb) => ['c.id', 'c.name', 'c.slug', eb.fn.count<number>('p.id').as('post_count')])
    .groupBy(['c.id', 'c.name', 'c.slug']);
}

function toCategory(row: {
  id: number;
  name: string;
  slug: string;
  post_count: number | string | bigint;
}): BlogCategory {
  return { id: row.id, name: row.name, slug: row.slug, postCount: Number(row.post_count) };
}

/** Every category by name, with its number of posts. */
export async function listCategories(deps: ReadDeps): Promise<BlogCategory[]> {
  return (await categoriesWithCounts(deps).orderBy('c.name').execute()).map(toCategory);
}

export async function findCategory(deps: ReadDeps, slug: string): Promise<BlogCategory | null> {
  const row = await categoriesWithCounts(deps).where('c.slug', '=', slug).executeTakeFirst();
  return row ? toCategory(row) : null;
}

/** The newest posts in full, for the RSS/Atom feed. */
export async function postsForFeed({ db, clock }: ReadDeps, limit: number): Promise<BlogPost[]> {
  const rows = await selectPosts(db)
    .where('p.published_at', '<=', clock().toISOString())
    .orderBy('p.published_at', 'desc')
    .orderBy('p.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(toPost);
}
