/**
 * The row-level writes shared by the admin's writes (./writes.ts) and the seed (./seed.ts): free
 * slugs, categories picked or created by name, and the insert of a checked post.
 */
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { BlogImage } from './contracts.ts';
import { type BlogDeps, type BlogDb, nowText, sanitizePostBody } from './deps.ts';
import { BLOG_MESSAGES, type BlogPostInput, publishedAtFor } from './post-input.ts';
import { deriveShortDesc, fold, normaliseCategoryName, plainTextOf, slugify, uniqueSlug } from './text.ts';

/**
 * Slugs that name a route of their own: `/api/blog/categories`, and `/admin/blog/add` (the add
 * form), which would otherwise hide the edit form of a post called "Add".
 */
const RESERVED_SLUGS = new Set(['categories', 'add']);

/** The slugs starting with `base` that are taken (by posts other than `exceptId`), reserved ones included. */
export async function takenSlugs(trx: BlogDb, base: string, exceptId?: number): Promise<Set<string>> {
  let query = trx
    .selectFrom('blog_posts')
    .select('slug')
    .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base}-%`)]));
  if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
  const rows = await query.execute();
  return new Set([...RESERVED_SLUGS, ...rows.map((row) => row.slug)]);
}

/** The category named `name` (created when new), or null for no name. */
export async function categoryIdFor(
  deps: Pick<BlogDeps, 'clock'>,
  trx: Transaction<Database>,
  name: string,
): Promise<number | null> {
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
      created_at: nowText(deps),
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
}

export function imageColumns(image: BlogImage) {
  return {
    image_url: image.url,
    image_width: image.url ? image.width : null,
    image_height: image.url ? image.height : null,
  };
}

/** The words of a post that search reads, folded: the title, and the shortDesc with the body's text. */
export function searchColumns(title: string, shortDesc: string, description: string) {
  return { search_title: fold(title), search_body: fold(`${shortDesc} ${plainTextOf(description)}`) };
}

/** Inserts a checked post; the slug is generated (and suffixed) unless the input names one. */
export async function insertPostRow(
  deps: Pick<BlogDeps, 'clock' | 'publicUrl'>,
  trx: Transaction<Database>,
  input: BlogPostInput,
  image: BlogImage,
  createdAt: string,
): Promise<{ ok: true; id: number } | { ok: false; status: 409; message: string }> {
  const title = input.title.trim();
  const description = sanitizePostBody(deps, input.description);
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
      category_id: await categoryIdFor(deps, trx, input.category ?? ''),
      ...imageColumns(image),
      ...searchColumns(title, shortDesc, description),
      created_at: createdAt,
      updated_at: createdAt,
      published_at: publishedAtFor(input.publish ?? { kind: 'now' }, null, new Date(createdAt)),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { ok: true, id: row.id };
}
