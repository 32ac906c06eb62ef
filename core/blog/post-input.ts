/**
 * What an admin writes into a post, the limits it is checked against and the messages a refusal
 * carries (the JSON API answers with them as they are).
 */
import type { AuditSink } from '../audit/audit.ts';
import type { BlogImage, BlogPost } from './contracts.ts';
import { normaliseCategoryName, slugify } from './text.ts';

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
  /**
   * When the public sees it: a draft never; `now` at once (a post already live keeps its date);
   * `at` from that time on (a scheduled post when it is in the future). Absent on create: now;
   * absent on update: unchanged.
   */
  publish?: BlogPublish | undefined;
}

export type BlogPublish = { kind: 'draft' } | { kind: 'now' } | { kind: 'at'; at: Date };

/** What the admin sees of a post's status; the public sees only `published` posts. */
export type BlogPostStatus = 'draft' | 'scheduled' | 'published';

export function blogPostStatus(publishedAt: string | null, now: Date): BlogPostStatus {
  if (publishedAt === null) return 'draft';
  return publishedAt <= now.toISOString() ? 'published' : 'scheduled';
}

/** The publish time stored for `publish`, given the one stored now (null for a draft). */
export function publishedAtFor(publish: BlogPublish, current: string | null, now: Date): string | null {
  if (publish.kind === 'draft') return null;
  if (publish.kind === 'at') return publish.at.toISOString();
  const nowText = now.toISOString();
  return current !== null && current <= nowText ? current : nowText;
}

/** Absent fields keep their value; `image: null` removes the cover; `shortDesc: ''` derives it again. */
export type BlogPostPatch = Partial<BlogPostInput>;

export type BlogWriteResult =
  { ok: true; post: BlogPost } | { ok: false; status: 400 | 404 | 409 | 413; message: string };

export interface BlogAuditOptions {
  audit?: AuditSink | undefined;
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

/** A post in the few fields an admin edits, for the audit log (which cuts the long body). */
export function blogPostAuditFields(post: {
  title: string;
  slug: string;
  category: string;
  shortDesc: string;
  description: string;
  image: string;
  publishedAt: string | null;
}): Record<string, unknown> {
  return {
    title: post.title,
    slug: post.slug,
    category: post.category,
    shortDesc: post.shortDesc,
    description: post.description,
    image: post.image,
    // Null: a draft (the audit log says when a post went live, or back to draft).
    publishedAt: post.publishedAt,
  };
}

export type FieldCheck = { ok: true } | { ok: false; status: 400; message: string };

/** The first field of a post or patch that breaks a limit, as a 400 with its message. */
export function checkPostFields(fields: BlogPostPatch): FieldCheck {
  const refuse = (message: string): FieldCheck => ({ ok: false, status: 400, message });
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
}
