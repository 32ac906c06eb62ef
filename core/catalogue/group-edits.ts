/**
 * Adding, editing and deleting the catalogue's groups. A new group comes last and stays hidden
 * from the store until one of its services is published; only an empty group can be deleted.
 */
import { isPostgres } from '../../db/dialect.ts';
import { isUploadPath } from '../uploads/names.ts';
import { type CatalogueEditorDeps, inCatalogueWrite, invalid, nextPosition, slugTaken } from './editor-deps.ts';
import type { GroupCreateResult, GroupDeleteResult, GroupSaveResult } from './editor-types.ts';
import {
  CATALOGUE_MESSAGES,
  type FieldError,
  type GroupInput,
  GroupInputSchema,
  NewGroupInputSchema,
  fieldErrorsOf,
} from './service-document.ts';

/** A new title or image; an image must be uploaded (or the group's current one). */
export async function updateGroup(
  deps: Pick<CatalogueEditorDeps, 'db' | 'catalogue'>,
  slug: string,
  raw: unknown,
): Promise<GroupSaveResult> {
  const parsed = GroupInputSchema.safeParse(raw);
  if (!parsed.success) return invalid(fieldErrorsOf(parsed.error));
  const input: GroupInput = parsed.data;
  return inCatalogueWrite(deps, async (trx): Promise<GroupSaveResult> => {
    const group = await trx
      .selectFrom('service_groups')
      .select(['id', 'title', 'image'])
      .where('slug', '=', slug)
      .executeTakeFirst();
    if (!group) return { ok: false, status: 404, message: CATALOGUE_MESSAGES.groupNotFound };
    if (input.image !== '' && input.image !== group.image && !isUploadPath(input.image))
      return invalid([{ field: 'image', message: CATALOGUE_MESSAGES.imageNotUploaded }]);
    await trx
      .updateTable('service_groups')
      .set({ title: input.title, image: input.image })
      .where('id', '=', group.id)
      .execute();
    return {
      ok: true,
      before: { title: group.title, image: group.image },
      after: { title: input.title, image: input.image },
    };
  });
}

/** A new group, last in the order; hidden from the store until one of its services is published. */
export async function createGroup(
  deps: Pick<CatalogueEditorDeps, 'db' | 'catalogue'>,
  raw: unknown,
): Promise<GroupCreateResult> {
  const parsed = NewGroupInputSchema.safeParse(raw);
  if (!parsed.success) return invalid(fieldErrorsOf(parsed.error));
  const input = parsed.data;
  return inCatalogueWrite(deps, async (trx): Promise<GroupCreateResult> => {
    const errors: FieldError[] = [];
    if (await slugTaken(trx, input.slug)) errors.push({ field: 'slug', message: CATALOGUE_MESSAGES.slugTaken });
    if (input.image === '') errors.push({ field: 'image', message: CATALOGUE_MESSAGES.groupImageRequired });
    else if (!isUploadPath(input.image)) {
      // An image the catalogue already shows (a seeded group's) may be reused; anything else is uploaded.
      const used = await trx
        .selectFrom('service_groups')
        .select('id')
        .where('image', '=', input.image)
        .executeTakeFirst();
      if (!used) errors.push({ field: 'image', message: CATALOGUE_MESSAGES.imageNotUploaded });
    }
    if (errors.length > 0) return invalid(errors);
    const last = await trx
      .selectFrom('service_groups')
      .select((eb) => eb.fn.max('position').as('position'))
      .executeTakeFirst();
    await trx
      .insertInto('service_groups')
      .values({ slug: input.slug, title: input.title, image: input.image, position: nextPosition(last) })
      .execute();
    return { ok: true, group: input };
  });
}

/** Only a group without any service (drafts count): deleting cascades to services in the schema. */
export async function deleteGroup(
  deps: Pick<CatalogueEditorDeps, 'db' | 'catalogue'>,
  slug: string,
): Promise<GroupDeleteResult> {
  // PostgreSQL runs writes side by side; SQLite runs one write transaction at a time.
  const lockRow = isPostgres(deps.db);
  return inCatalogueWrite(deps, async (trx): Promise<GroupDeleteResult> => {
    // Locked on PostgreSQL: a service being added to this group holds a key-share lock on the
    // row until it commits, so the count below sees it; without the lock the delete would
    // cascade to a service created in the meantime.
    let query = trx.selectFrom('service_groups').select(['id', 'title', 'image']).where('slug', '=', slug);
    if (lockRow) query = query.forUpdate();
    const group = await query.executeTakeFirst();
    if (!group) return { ok: false, status: 404, message: CATALOGUE_MESSAGES.groupNotFound };
    const { services } = await trx
      .selectFrom('services')
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('services'))
      .where('group_id', '=', group.id)
      .executeTakeFirstOrThrow();
    if (Number(services) > 0)
      return { ok: false, status: 409, message: CATALOGUE_MESSAGES.groupNotEmpty(Number(services)) };
    await trx.deleteFrom('service_groups').where('id', '=', group.id).execute();
    return { ok: true, before: { title: group.title, image: group.image } };
  });
}
