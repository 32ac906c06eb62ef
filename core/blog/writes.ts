/**
 * The admin's writes to the blog: create, update and delete a post. Each runs in one transaction
 * that also bumps the blog's content version (`blog_content.version`) when it changed something.
 *
 * - The description is sanitised on every write; readers sanitise again.
 * - The slug comes from the title, unique with -2, -3…, and is stable once the post exists: a
 *   new title keeps the slug; an explicit new slug is taken only if it is free (409 otherwise).
 * - shortDesc is derived from the body unless the admin wrote one; a derived one follows the body.
 */
import { type Transaction, sql } from 'kysely';
import { isPostgres, isUniqueViolation } from '../../db/dialect.ts';
import type { Database } from '../../db/schema.ts';
import { changedFields } from '../audit/audit.ts';
import { bumpContentVersion } from '../content-version.ts';
import type { BlogImage } from './contracts.ts';
import { type BlogDeps, nowText, sanitizePostBody } from './deps.ts';
import {
  BLOG_MESSAGES,
  type BlogAuditOptions,
  type BlogImageInput,
  type BlogPostInput,
  type BlogPostPatch,
  type BlogWriteResult,
  blogPostAuditFields,
  checkPostFields,
  publishedAtFor,
} from './post-input.ts';
import { findAnyPost } from './reads.ts';
import { postKey } from './rows.ts';
import { deriveShortDesc, slugify } from './text.ts';
import { categoryIdFor, imageColumns, insertPostRow, searchColumns, takenSlugs } from './write-rows.ts';

const NO_IMAGE: BlogImage = { url: '', width: null, height: null };

/** Runs a write in a transaction that also bumps the content version when the write succeeds. */
async function inBlogWrite<T extends { ok: boolean }>(
  deps: Pick<BlogDeps, 'db' | 'contentVersion' | 'publishSchedule'>,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  const { result, version } = await deps.db.transaction().execute(async (trx) => {
    // Blog writes are rare: on PostgreSQL they take turns, so two posts with one title never
    // race for the same free slug (SQLite runs one write transaction at a time anyway).
    if (isPostgres(trx)) await sql`select pg_advisory_xact_lock(hashtext('boostly:blog-writes'))`.execute(trx);
    const result = await work(trx);
    return { result, version: result.ok ? await bumpContentVersion(trx, 'blog_content') : null };
  });
  if (version !== null) {
    deps.contentVersion.saw(version);
    // The write may have scheduled a post, or published or withdrawn the one that was next.
    await deps.publishSchedule.refresh();
  }
  return result;
}

/**
 * A safety net behind the writes' advisory lock: a write that still hits a unique slug (a row
 * written outside core/blog meanwhile) is tried again, up to three times, then answered 409.
 */
async function withSlugRetry<T>(attempt: () => Promise<T>): Promise<T | { ok: false; status: 409; message: string }> {
  for (let tries = 1; ; tries += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      if (tries >= 3) return { ok: false, status: 409, message: BLOG_MESSAGES.slugTaken };
    }
  }
}

/** An upload is stored (by content) before the transaction; undefined keeps the current image. */
async function resolvePostImage(
  deps: Pick<BlogDeps, 'images'>,
  image: BlogImageInput | undefined,
): Promise<{ ok: true; image: BlogImage | undefined } | { ok: false; status: 400 | 413; message: string }> {
  if (image === undefined) return { ok: true, image: undefined };
  if (image === null) return { ok: true, image: NO_IMAGE };
  if (!('upload' in image)) return { ok: true, image };
  if (!deps.images) throw new Error('core/blog: image uploads need the `images` option');
  const stored = await deps.images(image.upload);
  if (!stored.ok) return stored;
  return { ok: true, image: { url: stored.image.url, width: stored.image.width, height: stored.image.height } };
}

/** Published at once unless the input says draft or a time (`publish`). */
export async function createPost(deps: BlogDeps, input: BlogPostInput): Promise<BlogWriteResult> {
  const checked = checkPostFields(input);
  if (!checked.ok) return checked;
  if (!input.title.trim()) return { ok: false, status: 400, message: BLOG_MESSAGES.titleRequired };
  const image = await resolvePostImage(deps, input.image);
  if (!image.ok) return image;
  const created = await withSlugRetry(() =>
    inBlogWrite(deps, (trx) => insertPostRow(deps, trx, input, image.image ?? NO_IMAGE, nowText(deps))),
  );
  if (!created.ok) return created;
  const post = await findAnyPost(deps, created.id);
  if (!post) throw new Error(`blog post ${created.id} vanished after it was written`);
  return { ok: true, post };
}

/** `audit` is told the fields the edit changed, before and after (the admin audit log). */
export async function updatePost(
  deps: BlogDeps,
  slugOrId: string | number,
  patch: BlogPostPatch,
  options: BlogAuditOptions = {},
): Promise<BlogWriteResult> {
  const checked = checkPostFields(patch);
  if (!checked.ok) return checked;
  const image = await resolvePostImage(deps, patch.image);
  if (!image.ok) return image;
  const key = postKey(slugOrId);
  if (!key) return { ok: false, status: 404, message: BLOG_MESSAGES.notFound };
  const updated = await withSlugRetry(() =>
    inBlogWrite(
      deps,
      async (trx): Promise<BlogWriteResult | { ok: true; id: number; before: Record<string, unknown> }> => {
        // Blog writes take turns (`inBlogWrite`): this row is exactly what the update replaces.
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
          publishedAt: current.published_at,
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
        const description =
          patch.description !== undefined ? sanitizePostBody(deps, patch.description) : current.description;
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
          patch.category !== undefined ? await categoryIdFor(deps, trx, patch.category) : current.category_id;
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
            updated_at: nowText(deps),
            published_at:
              patch.publish === undefined
                ? current.published_at
                : publishedAtFor(patch.publish, current.published_at, deps.clock()),
          })
          .where('id', '=', current.id)
          .execute();
        return { ok: true, id: current.id, before };
      },
    ),
  );
  if (!updated.ok) return updated;
  if ('post' in updated) return updated;
  const post = await findAnyPost(deps, updated.id);
  if (!post) return { ok: false, status: 404, message: BLOG_MESSAGES.notFound };
  options.audit?.(changedFields(updated.before, blogPostAuditFields(post)));
  return { ok: true, post };
}

/** False when there is no such post. `audit` is told what the deleted post was. */
export async function deletePost(
  deps: Pick<BlogDeps, 'db' | 'contentVersion' | 'publishSchedule'>,
  slugOrId: string | number,
  options: BlogAuditOptions = {},
): Promise<boolean> {
  const key = postKey(slugOrId);
  if (!key) return false;
  // Counted as a write only when a post went: a delete of nothing changes no page.
  const deleted = await deps.db.transaction().execute(async (trx) => {
    // The deleted row itself (RETURNING), not a read before it: what the log says went, went.
    const gone = await (
      'id' in key
        ? trx.deleteFrom('blog_posts').where('id', '=', key.id)
        : trx.deleteFrom('blog_posts').where('slug', '=', key.slug)
    )
      .returning(['title', 'slug', 'short_desc', 'image_url'])
      .executeTakeFirst();
    if (!gone) return null;
    return { gone, version: await bumpContentVersion(trx, 'blog_content') };
  });
  if (deleted === null) return false;
  deps.contentVersion.saw(deleted.version);
  await deps.publishSchedule.refresh();
  options.audit?.({
    before: {
      title: deleted.gone.title,
      slug: deleted.gone.slug,
      shortDesc: deleted.gone.short_desc,
      image: deleted.gone.image_url,
    },
    after: null,
  });
  return true;
}
