/**
 * The blog (decision 018): posts, categories, full-text search and the content version that tells
 * the page cache of every instance that a post changed.
 *
 * The rules live in the use-case modules, each a set of plain functions over the blog's deps
 * (./deps.ts): the reads in ./reads.ts, the admin's writes in ./writes.ts, the first posts in
 * ./seed.ts. `createBlog` only builds the deps once and binds
 * those functions to them, for the server and the route loaders.
 *
 * A category is named, and picked or created (case- and accent-insensitively); every write bumps
 * `blog_content.version` in its own transaction.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { type Clock, systemClock } from '../clock.ts';
import { createContentVersion, readContentVersion } from '../content-version.ts';
import type { BlogCategory, BlogPage, BlogPost, BlogPostSummary } from './contracts.ts';
import type { BlogDeps, StoreBlogImage } from './deps.ts';
import { createPublishSchedule } from './publish-schedule.ts';
import type { BlogAuditOptions, BlogPostInput, BlogPostPatch, BlogWriteResult } from './post-input.ts';
import {
  type ListPostsQuery,
  findCategory,
  findAnyPost,
  findPost,
  listCategories,
  listPosts,
  postsForFeed,
  relatedPosts,
} from './reads.ts';
import { type BlogSeed, seedBlogOnce } from './seed.ts';
import { createPost, deletePost, updatePost } from './writes.ts';

export type { StoreBlogImage } from './deps.ts';
export {
  BLOG_MESSAGES,
  type BlogAuditOptions,
  type BlogPostStatus,
  type BlogPublish,
  blogPostStatus,
  type BlogImageInput,
  type BlogPostInput,
  type BlogPostPatch,
  type BlogWriteResult,
  CATEGORY_MAX_LENGTH,
  DESCRIPTION_MAX_LENGTH,
  SHORT_DESC_MAX_LENGTH,
  TITLE_MAX_LENGTH,
  blogPostAuditFields,
} from './post-input.ts';
export type { ListPostsQuery } from './reads.ts';
export type { BlogSeed } from './seed.ts';

export interface Blog {
  /** With a keyword: full-text ranked (title hits above body hits); otherwise newest first. */
  listPosts(query: ListPostsQuery): Promise<BlogPage>;
  /** By id (digits) or slug, as the public sees it: null for a draft or a post not yet published. */
  findPost(slugOrId: string | number): Promise<BlogPost | null>;
  /** By id (digits) or slug, whatever its status: for the admin's editor and preview. */
  findAnyPost(slugOrId: string | number): Promise<BlogPost | null>;
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
   * the database again, in the background, when its copy is older than that), and a scheduled
   * post as soon as the clock passes its publish time.
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

export function createBlogDeps(options: BlogOptions): BlogDeps {
  const clock = options.clock ?? systemClock;
  const publishSchedule = createPublishSchedule(options.db, clock);
  return {
    db: options.db,
    clock,
    publicUrl: options.publicUrl,
    images: options.images,
    // Another instance's write (a post scheduled there) reaches this one's schedule with its version.
    contentVersion: createContentVersion(async () => {
      const [version] = await Promise.all([readContentVersion(options.db, 'blog_content'), publishSchedule.refresh()]);
      return version;
    }),
    publishSchedule,
  };
}

export function createBlog(options: BlogOptions): Blog {
  const deps = createBlogDeps(options);
  return {
    listPosts: (query) => listPosts(deps, query),
    findPost: (slugOrId) => findPost(deps, slugOrId),
    findAnyPost: (slugOrId) => findAnyPost(deps, slugOrId),
    relatedPosts: (post, limit) => relatedPosts(deps, post, limit),
    listCategories: () => listCategories(deps),
    findCategory: (slug) => findCategory(deps, slug),
    createPost: (input) => createPost(deps, input),
    updatePost: (slugOrId, patch, updateOptions) => updatePost(deps, slugOrId, patch, updateOptions),
    deletePost: (slugOrId, deleteOptions) => deletePost(deps, slugOrId, deleteOptions),
    contentVersion: deps.contentVersion.read,
    // Both only grow, so their sum changes whenever either does and never returns to an older key.
    knownContentVersion: () => deps.contentVersion.known() + deps.publishSchedule.passed(),
    allPostsForFeed: (limit) => postsForFeed(deps, limit),
    seedOnce: (seed) => seedBlogOnce(deps, seed),
  };
}
