/**
 * The blog (issue 11, decision 018): posts, categories, full-text search and the content version
 * that tells the page cache of every instance that a post changed.
 *
 * Rules that live here, not in the API or the admin pages:
 * - The description is sanitised (core/html/sanitize.ts) on every write; readers sanitise again.
 * - The slug comes from the title (core/blog/text.ts), unique with -2, -3…, and is stable once
 *   the post exists: a new title keeps the slug; an explicit new slug is taken only if it is free
 *   (409 otherwise). Every post is published when it is created (there are no drafts).
 * - shortDesc is derived from the body unless the admin wrote one; a derived one follows the body.
 * - A category is named, and picked or created (case- and accent-insensitively).
 * - Every write bumps `blog_content.version` in its own transaction.
 */
import { createContentVersion } from '../content-version.ts';
import { type Kysely, type Transaction, sql } from 'kysely';
import { isPostgres, isUniqueViolation } from '../../db/dialect.ts';
import type { Database } from '../../db/schema.ts';
import { type AuditSink, changedFields } from '../audit/audit.ts';
import { type Clock, systemClock } from '../clock.ts';
import { sanitizeBlogHtml } from '../html/sanitize.ts';
import type { BlogCategory, BlogImage, BlogPage, BlogPost, BlogPostSummary } from './contracts.ts';
import {
  deriveShortDesc,
  fold,
  normaliseCategoryName,
  plainTextOf,
  readingMinutes,
  searchTokens,
  slugify,
  uniqueSlug,
} from './text.ts';

/** Stores an uploaded cover image (B2's `storeUploadedImage`, bound to the data directory). */
export type StoreBlogImage = (
  bytes: Buffer,
) => Promise<{ ok: true; image: BlogImage } | { ok: false; message: string; status: 400 | 413 }>;

/** A cover image on write: uploaded bytes, an image already stored, or null for none. */
export type BlogImageInput = { upload: Buffer } | BlogImage | null;

export interface BlogPostInput {
  title: string;
  /** Empty or absent: derived from the title. */
  slug?: string | undefined;
  /** Empty or absent: derived from the body's plain text. */
  shortDesc?: string | undefined;
  /** Category name, picked or created case-insensitively; '' or absent: none. */
  category?: string | undefined;
  /** HTML; sanitised before it is stored. */
  description: string;
  image?: BlogImageInput | undefined;
}

/** Absent fields keep their value; `image: null` removes the cover; `shortDesc: ''` derives it again. */
export type BlogPostPatch = Partial<BlogPostInput>;

export type BlogWriteResult =
  { ok: true; post: BlogPost } | { ok: false; status: 400 | 404 | 409 | 413; message: string };

export interface BlogAuditOptions {
  audit?: AuditSink | undefined;
}

/** A post in the few fields an admin edits, for the audit log (which cuts the long body). */
export function blogPostAuditFields(post: {
  title: string;
  slug: string;
  category: string;
  shortDesc: string;
  description: string;
  image: string;
}): Record<string, unknown> {
  return {
    title: post.title,
    slug: post.slug,
    category: post.category,
    shortDesc: post.shortDesc,
    description: post.description,
    image: post.image,
  };
}

export interface ListPostsQuery {
  /** Trimmed by the caller; empty or absent lists everything newest first. */
  keyword?: string | undefined;
  categorySlug?: string | undefined;
  /** 1-based. */
  page: number;
  size: number;
}

/** The seed a fresh database gets (core/blog/blog-seed.ts). */
export interface BlogSeed {
  categories: string[];
  posts: {
    title: string;
    slug: string;
    category: string;
    description: string;
    image: BlogImage;
    /** How long before the seeding the post is dated, so the list has a believable history. */
    daysAgo: number;
  }[];
}

export interface Blog {
  /** With a keyword: full-text ranked (title hits above body hits); otherwise newest first. */
  listPosts(query: ListPostsQuery): Promise<BlogPage>;
  /** By id (digits) or slug. */
  findPost(slugOrId: string | number): Promise<BlogPost | null>;
  /** Other posts of the same category, newest first, then the newest others to fill `limit`. */
  relatedPosts(post: BlogPostSummary, limit: number): Promise<BlogPostSummary[]>;
  /** Every category by name, with its number of posts. */
  listCategories(): Promise<BlogCategory[]>;
  findCategory(slug: string): Promise<BlogCategory | null>;
  createPost(input: BlogPostInput): Promise<BlogWriteResult>;
  /** `audit` is told the fields the edit changed, before and after (the admin audit log). */
  updatePost(slugOrId: string | number, patch: BlogPostPatch, options?: BlogAuditOptions): Promise<BlogWriteResult>;
  /** False when there is no such post. `audit` is told what the deleted post was. */
  deletePost(slugOrId: string | number, options?: BlogAuditOptions): Promise<boolean>;
  /** Read from the database: bumps on every write by any instance. */
  contentVersion(): Promise<number>;
  /**
   * The last version this instance saw, for page cache keys (which are computed synchronously):
   * this instance's own writes show at once, other instances' within about a second (it reads
   * the database again, in the background, when its copy is older than that).
   */
  knownContentVersion(): number;
  /** The newest posts in full, for the RSS/Atom feed. */
  allPostsForFeed(limit: number): Promise<BlogPost[]>;
  /** Writes the seed if this database has never been seeded; true when it did. Safe across instances. */
  seedOnce(seed: BlogSeed): Promise<boolean>;
}

export interface BlogOptions {
  db: Kysely<Database>;
  clock?: Clock;
  images?: StoreBlogImage;
  /** The store's PUBLIC_URL: links to it are internal for the sanitiser, its upload URLs become relative. */
  publicUrl?: string;
}

export const BLOG_MESSAGES = {
  titleRequired: 'Title is required',
  titleTooLong: 'Title must be at most 200 characters',
  slugInvalid: 'Slug must contain letters or digits',
  slugTaken: 'A post with this slug already exists',
  categoryTooLong: 'Category must be at most 60 characters',
  shortDescTooLong: 'Short description must be at most 300 characters',
  descriptionTooLong: 'Description is too long (at most 200,000 characters)',
  notFound: 'Blog not found',
} as const;

export const TITLE_MAX_LENGTH = 200;
export const CATEGORY_MAX_LENGTH = 60;
export const SHORT_DESC_MAX_LENGTH = 300;
export const DESCRIPTION_MAX_LENGTH = 200_000;
/**
 * Slugs that name a route of their own: `/api/blog/categories`, and `/admin/blog/add` (the add
 * form), which would otherwise hide the edit form of a post called "Add".
 */
const RESERVED_SLUGS = new Set(['categories', 'add']);

type Db = Kysely<Database> | Transaction<Database>;

interface PostRow {
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
}

type SummaryRow = Omit<PostRow, 'description'>;

const SUMMARY_COLUMNS = [
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
] as const;

function toSummary(row: SummaryRow): BlogPostSummary {
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
  };
}

function toPost(row: PostRow): BlogPost {
  return { ...toSummary(row), description: row.description, readingMinutes: readingMinutes(row.description) };
}

/** Digits name a post by id; anything else by slug (slugs are never all digits). */
function postKey(slugOrId: string | number): { id: number } | { slug: string } | null {
  if (typeof slugOrId === 'number') return Number.isSafeInteger(slugOrId) ? { id: slugOrId } : null;
  if (/^\d{1,15}$/.test(slugOrId)) return { id: Number(slugOrId) };
  return slugOrId ? { slug: slugOrId } : null;
}

function pageOf<T>(posts: T[], count: number, page: number, size: number): BlogPage<T> {
  return { posts, count, totalPages: Math.ceil(count / size), currentPage: page };
}

/** The words of a post that search reads, folded: the title, and the shortDesc with the body's text. */
function searchColumns(title: string, shortDesc: string, description: string) {
  return { search_title: fold(title), search_body: fold(`${shortDesc} ${plainTextOf(description)}`) };
}

export function createBlog(options: BlogOptions): Blog {
  const { db } = options;
  const clock = options.clock ?? systemClock;
  const now = () => clock().toISOString();
  const sanitize = (html: string) =>
    sanitizeBlogHtml(html, options.publicUrl === undefined ? {} : { publicUrl: options.publicUrl });

  const readVersion = async (from: Db = db) => {
    const row = await from.selectFrom('blog_content').select('version').where('id', '=', 1).executeTakeFirst();
    return row?.version ?? 0;
  };
  const contentVersion = createContentVersion(() => readVersion());
  const sawVersion = contentVersion.saw;

  /** Bumps the content version inside the writing transaction. */
  const bumpVersion = async (trx: Transaction<Database>) => {
    const row = await trx
      .updateTable('blog_content')
      .set((eb) => ({ version: eb('version', '+', 1) }))
      .where('id', '=', 1)
      .returning('version')
      .executeTakeFirstOrThrow();
    return row.version;
  };

  /** Runs a write in a transaction that also bumps the content version when the write succeeds. */
  const write = async <T extends { ok: boolean }>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> => {
    const { result, version } = await db.transaction().execute(async (trx) => {
      // Blog writes are rare: on PostgreSQL they take turns, so two posts with one title never
      // race for the same free slug (SQLite runs one write transaction at a time anyway).
      if (isPostgres(trx)) await sql`select pg_advisory_xact_lock(hashtext('boostly:blog-writes'))`.execute(trx);
      const result = await work(trx);
      return { result, version: result.ok ? await bumpVersion(trx) : null };
    });
    if (version !== null) sawVersion(version);
    return result;
  };

  const selectPost = (from: Db) =>
    from
      .selectFrom('blog_posts as p')
      .leftJoin('blog_categories as c', 'c.id', 'p.category_id')
      .select([...SUMMARY_COLUMNS, 'p.description']);

  const loadPost = async (from: Db, slugOrId: string | number): Promise<PostRow | null> => {
    const key = postKey(slugOrId);
    if (!key) return null;
    const query =
      'id' in key ? selectPost(from).where('p.id', '=', key.id) : selectPost(from).where('p.slug', '=', key.slug);
    return (await query.executeTakeFirst()) ?? null;
  };

  /** The slugs starting with `base` that are taken (by posts other than `exceptId`), reserved ones included. */
  const takenSlugs = async (trx: Db, base: string, exceptId?: number): Promise<Set<string>> => {
    let query = trx
      .selectFrom('blog_posts')
      .select('slug')
      .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base}-%`)]));
    if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
    const rows = await query.execute();
    return new Set([...RESERVED_SLUGS, ...rows.map((row) => row.slug)]);
  };

  /** The category named `name` (created when new), or null for no name. */
  const categoryIdFor = async (trx: Transaction<Database>, name: string): Promise<number | null> => {
    const clean = normaliseCategoryName(name);
    if (!clean) return null;
    const nameKey = fold(clean);
    const existing = await trx
      .selectFrom('blog_categories')
      .select('id')
      .where('name_key', '=', nameKey)
      .executeTakeFirst();
    if (existing) return existing.id;
    const base = slugify(clean) || 'category';
    const taken = await trx
      .selectFrom('blog_categories')
      .select('slug')
      .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base}-%`)]))
      .execute();
    const inserted = await trx
      .insertInto('blog_categories')
      .values({
        name: clean,
        name_key: nameKey,
        slug: uniqueSlug(base, new Set(taken.map((row) => row.slug))),
        created_at: now(),
      })
      // Another writer created it meanwhile (PostgreSQL): take theirs.
      .onConflict((oc) => oc.column('name_key').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted) return inserted.id;
    const theirs = await trx
      .selectFrom('blog_categories')
      .select('id')
      .where('name_key', '=', nameKey)
      .executeTakeFirstOrThrow();
    return theirs.id;
  };

  type Checked = { ok: true } | { ok: false; status: 400; message: string };
  const checkFields = (fields: BlogPostPatch): Checked => {
    const refuse = (message: string): Checked => ({ ok: false, status: 400, message });
    if (fields.title !== undefined) {
      const title = fields.title.trim();
      if (!title) return refuse(BLOG_MESSAGES.titleRequired);
      if (title.length > TITLE_MAX_LENGTH) return refuse(BLOG_MESSAGES.titleTooLong);
    }
    if (fields.slug !== undefined && fields.slug.trim() && !slugify(fields.slug))
      return refuse(BLOG_MESSAGES.slugInvalid);
    if (fields.category !== undefined && normaliseCategoryName(fields.category).length > CATEGORY_MAX_LENGTH) {
      return refuse(BLOG_MESSAGES.categoryTooLong);
    }
    if (fields.shortDesc !== undefined && fields.shortDesc.trim().length > SHORT_DESC_MAX_LENGTH) {
      return refuse(BLOG_MESSAGES.shortDescTooLong);
    }
    if (fields.description !== undefined && fields.description.length > DESCRIPTION_MAX_LENGTH) {
      return refuse(BLOG_MESSAGES.descriptionTooLong);
    }
    return { ok: true };
  };

  /** An upload is stored (by content) before the transaction; undefined keeps the current image. */
  const resolveImage = async (
    image: BlogImageInput | undefined,
  ): Promise<{ ok: true; image: BlogImage | undefined } | { ok: false; status: 400 | 413; message: string }> => {
    if (image === undefined) return { ok: true, image: undefined };
    if (image === null) return { ok: true, image: { url: '', width: null, height: null } };
    if (!('upload' in image)) return { ok: true, image };
    if (!options.images) throw new Error('core/blog: image uploads need the `images` option');
    const stored = await options.images(image.upload);
    if (!stored.ok) return stored;
    return { ok: true, image: { url: stored.image.url, width: stored.image.width, height: stored.image.height } };
  };

  const imageColumns = (image: BlogImage) => ({
    image_url: image.url,
    image_width: image.url ? image.width : null,
    image_height: image.url ? image.height : null,
  });

  /** Inserts a checked post; the slug is generated (and suffixed) unless `explicitSlug` names one. */
  const insertPost = async (
    trx: Transaction<Database>,
    input: BlogPostInput,
    image: BlogImage,
    createdAt: string,
  ): Promise<{ ok: true; id: number } | { ok: false; status: 409; message: string }> => {
    const title = input.title.trim();
    const description = sanitize(input.description);
    const customShortDesc = input.shortDesc?.trim() ?? '';
    const shortDesc = customShortDesc || deriveShortDesc(description);
    const explicit = input.slug?.trim() ? slugify(input.slug) : null;
    const base = explicit ?? (slugify(title) || 'post');
    const taken = await takenSlugs(trx, base);
    if (explicit && taken.has(explicit)) return { ok: false, status: 409, message: BLOG_MESSAGES.slugTaken };
    const row = await trx
      .insertInto('blog_posts')
      .values({
        slug: explicit ?? uniqueSlug(base, taken),
        title,
        short_desc: shortDesc,
        short_desc_is_custom: customShortDesc ? 1 : 0,
        description,
        category_id: await categoryIdFor(trx, input.category ?? ''),
        ...imageColumns(image),
        ...searchColumns(title, shortDesc, description),
        created_at: createdAt,
        updated_at: createdAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { ok: true, id: row.id };
  };

  /**
   * A safety net behind the writes' advisory lock: a write that still hits a unique slug (a row
   * written outside core/blog meanwhile) is tried again, up to three times, then answered 409.
   */
  const withSlugRetry = async <T>(
    attempt: () => Promise<T>,
  ): Promise<T | { ok: false; status: 409; message: string }> => {
    for (let tries = 1; ; tries += 1) {
      try {
        return await attempt();
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        if (tries >= 3) return { ok: false, status: 409, message: BLOG_MESSAGES.slugTaken };
      }
    }
  };

  const listNewest = async (categorySlug: string | undefined, page: number, size: number): Promise<BlogPage> => {
    let base = db.selectFrom('blog_posts as p').leftJoin('blog_categories as c', 'c.id', 'p.category_id');
    if (categorySlug !== undefined) base = base.where('c.slug', '=', categorySlug);
    const [countRow, rows] = await Promise.all([
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      base
        .select(SUMMARY_COLUMNS)
        .orderBy('p.created_at', 'desc')
        .orderBy('p.id', 'desc')
        .limit(size)
        .offset((page - 1) * size)
        .execute(),
    ]);
    return pageOf(rows.map(toSummary), Number(countRow.n), page, size);
  };

  const search = async (
    tokens: string[],
    categorySlug: string | undefined,
    page: number,
    size: number,
  ): Promise<BlogPage> => {
    const offset = (page - 1) * size;
    const inCategory = categorySlug === undefined ? sql`` : sql`and c.slug = ${categorySlug}`;
    const columns = sql`p.id, p.slug, p.title, p.short_desc, c.name as category_name, c.slug as category_slug,
      p.image_url, p.image_width, p.image_height, p.created_at, p.updated_at`;
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
    const [countResult, rowsResult] = await Promise.all([
      sql<{ n: number }>`select count(*) as n from ${from}
        left join blog_categories c on c.id = p.category_id where ${matches} ${inCategory}`.execute(db),
      sql<SummaryRow>`select ${columns} from ${from}
        left join blog_categories c on c.id = p.category_id where ${matches} ${inCategory}
        order by ${rank}, p.created_at desc, p.id desc limit ${size} offset ${offset}`.execute(db),
    ]);
    return pageOf(rowsResult.rows.map(toSummary), Number(countResult.rows[0]?.n ?? 0), page, size);
  };

  const categoriesQuery = () =>
    db
      .selectFrom('blog_categories as c')
      .leftJoin('blog_posts as p', 'p.category_id', 'c.id')
      .select((eb) => ['c.id', 'c.name', 'c.slug', eb.fn.count<number>('p.id').as('post_count')])
      .groupBy(['c.id', 'c.name', 'c.slug']);

  const toCategory = (row: { id: number; name: string; slug: string; post_count: number | string | bigint }) => ({
    id: row.id,
    name: row.name,
    slug: row.slug,
    postCount: Number(row.post_count),
  });

  const blog: Blog = {
    async listPosts({ keyword, categorySlug, ...paging }) {
      // Callers other than the API (route loaders) pass what a URL said: keep it sane here too.
      const size = Math.min(Math.max(1, Math.floor(paging.size) || 1), 100);
      const page = Math.min(Math.max(1, Math.floor(paging.page) || 1), 1_000_000);
      const trimmed = keyword?.trim() ?? '';
      if (!trimmed) return listNewest(categorySlug, page, size);
      const tokens = searchTokens(trimmed);
      // Nothing searchable in it (only punctuation, say): nothing matches.
      if (tokens.length === 0) return pageOf([], 0, page, size);
      return search(tokens, categorySlug, page, size);
    },

    async findPost(slugOrId) {
      const row = await loadPost(db, slugOrId);
      return row ? toPost(row) : null;
    },

    async relatedPosts(post, limit) {
      if (limit <= 0) return [];
      const base = () =>
        db
          .selectFrom('blog_posts as p')
          .leftJoin('blog_categories as c', 'c.id', 'p.category_id')
          .select(SUMMARY_COLUMNS)
          .where('p.id', '<>', post.id)
          .orderBy('p.created_at', 'desc')
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
    },

    async listCategories() {
      return (await categoriesQuery().orderBy('c.name').execute()).map(toCategory);
    },

    async findCategory(slug) {
      const row = await categoriesQuery().where('c.slug', '=', slug).executeTakeFirst();
      return row ? toCategory(row) : null;
    },

    async createPost(input) {
      const checked = checkFields(input);
      if (!checked.ok) return checked;
      if (!input.title.trim()) return { ok: false, status: 400, message: BLOG_MESSAGES.titleRequired };
      const image = await resolveImage(input.image);
      if (!image.ok) return image;
      const created = await withSlugRetry(() =>
        write((trx) => insertPost(trx, input, image.image ?? { url: '', width: null, height: null }, now())),
      );
      if (!created.ok) return created;
      const post = await blog.findPost(created.id);
      if (!post) throw new Error(`blog post ${created.id} vanished after it was written`);
      return { ok: true, post };
    },

    async updatePost(slugOrId, patch, updateOptions = {}) {
      const checked = checkFields(patch);
      if (!checked.ok) return checked;
      const image = await resolveImage(patch.image);
      if (!image.ok) return image;
      const key = postKey(slugOrId);
      if (!key) return { ok: false, status: 404, message: BLOG_MESSAGES.notFound };
      const updated = await withSlugRetry(() =>
        write(async (trx): Promise<BlogWriteResult | { ok: true; id: number; before: Record<string, unknown> }> => {
          // Blog writes take turns (`write`): this row is exactly what the update replaces.
          const currentQuery = trx
            .selectFrom('blog_posts as p')
            .leftJoin('blog_categories as c', 'c.id', 'p.category_id')
            .selectAll('p')
            .select('c.name as category_name');
          const current = await (
            'id' in key ? currentQuery.where('p.id', '=', key.id) : currentQuery.where('p.slug', '=', key.slug)
          ).executeTakeFirst();
          if (!current) return { ok: false, status: 404, message: BLOG_MESSAGES.notFound };
          const before = blogPostAuditFields({
            title: current.title,
            slug: current.slug,
            category: current.category_name ?? '',
            shortDesc: current.short_desc,
            description: current.description,
            image: current.image_url,
          });

          // The slug changes only when asked to, and only to a free one (a new title keeps it).
          let slug = current.slug;
          const wanted = patch.slug?.trim() ? slugify(patch.slug) : null;
          if (wanted && wanted !== current.slug) {
            if ((await takenSlugs(trx, wanted, current.id)).has(wanted)) {
              return { ok: false, status: 409, message: BLOG_MESSAGES.slugTaken };
            }
            slug = wanted;
          }
          const title = patch.title?.trim() ?? current.title;
          const description = patch.description !== undefined ? sanitize(patch.description) : current.description;
          // An explicit shortDesc wins; '' hands it back to the body; absent keeps a custom one, or
          // follows the body when it was derived.
          const customShortDesc =
            patch.shortDesc !== undefined
              ? patch.shortDesc.trim()
              : current.short_desc_is_custom
                ? current.short_desc
                : '';
          const shortDesc = customShortDesc || deriveShortDesc(description);
          const categoryId =
            patch.category !== undefined ? await categoryIdFor(trx, patch.category) : current.category_id;
          await trx
            .updateTable('blog_posts')
            .set({
              slug,
              title,
              short_desc: shortDesc,
              short_desc_is_custom: customShortDesc ? 1 : 0,
              description,
              category_id: categoryId,
              ...(image.image ? imageColumns(image.image) : {}),
              ...searchColumns(title, shortDesc, description),
              updated_at: now(),
            })
            .where('id', '=', current.id)
            .execute();
          return { ok: true, id: current.id, before };
        }),
      );
      if (!updated.ok) return updated;
      if ('post' in updated) return updated;
      const post = await blog.findPost(updated.id);
      if (!post) return { ok: false, status: 404, message: BLOG_MESSAGES.notFound };
      updateOptions.audit?.(changedFields(updated.before, blogPostAuditFields(post)));
      return { ok: true, post };
    },

    async deletePost(slugOrId, deleteOptions = {}) {
      const key = postKey(slugOrId);
      if (!key) return false;
      // Counted as a write only when a post went: a delete of nothing changes no page.
      const deleted = await db.transaction().execute(async (trx) => {
        // The deleted row itself (RETURNING), not a read before it: what the log says went, went.
        const gone = await (
          'id' in key
            ? trx.deleteFrom('blog_posts').where('id', '=', key.id)
            : trx.deleteFrom('blog_posts').where('slug', '=', key.slug)
        )
          .returning(['title', 'slug', 'short_desc', 'image_url'])
          .executeTakeFirst();
        if (!gone) return null;
        return { gone, version: await bumpVersion(trx) };
      });
      if (deleted === null) return false;
      sawVersion(deleted.version);
      deleteOptions.audit?.({
        before: {
          title: deleted.gone.title,
          slug: deleted.gone.slug,
          shortDesc: deleted.gone.short_desc,
          image: deleted.gone.image_url,
        },
        after: null,
      });
      return true;
    },

    contentVersion: contentVersion.read,
    knownContentVersion: contentVersion.known,

    async allPostsForFeed(limit) {
      const rows = await selectPost(db).orderBy('p.created_at', 'desc').orderBy('p.id', 'desc').limit(limit).execute();
      return rows.map(toPost);
    },

    async seedOnce(seed) {
      const seededAt = clock();
      const result = await db.transaction().execute(async (trx) => {
        // The row lock makes a second instance wait, then find it seeded (PostgreSQL); SQLite
        // runs one write transaction at a time.
        const claimed = await trx
          .updateTable('blog_content')
          .set({ seeded_at: seededAt.toISOString() })
          .where('id', '=', 1)
          .where('seeded_at', 'is', null)
          .executeTakeFirst();
        if (Number(claimed.numUpdatedRows) === 0) return null;
        for (const name of seed.categories) await categoryIdFor(trx, name);
        for (const post of seed.posts) {
          const createdAt = new Date(seededAt.getTime() - post.daysAgo * 86_400_000).toISOString();
          const inserted = await insertPost(trx, post, post.image, createdAt);
          if (!inserted.ok) throw new Error(`blog seed: the slug ${post.slug} is taken`);
        }
        return bumpVersion(trx);
      });
      sawVersion(result ?? (await readVersion()));
      contentVersion.markRead();
      return result !== null;
    },
  };
  return blog;
}
