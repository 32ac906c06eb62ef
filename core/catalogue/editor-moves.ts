/** Moving a group among the groups, or a service within its group, one place up or down. */
import { type CatalogueEditorDeps, inCatalogueWrite } from './editor-deps.ts';
import type { MoveResult } from './editor-types.ts';
import { CATALOGUE_MESSAGES } from './service-document.ts';

type Direction = 'up' | 'down';

/** `rows` with the one at `index` swapped with its neighbour; as it is when already first (or last). */
export function swapped<T>(rows: T[], index: number, direction: Direction): T[] {
  const order = [...rows];
  const other = direction === 'up' ? index - 1 : index + 1;
  const moved = order[index];
  const neighbour = order[other];
  if (moved !== undefined && neighbour !== undefined) {
    order[other] = moved;
    order[index] = neighbour;
  }
  return order;
}

export async function moveGroup(
  deps: Pick<CatalogueEditorDeps, 'db' | 'catalogue'>,
  slug: string,
  direction: Direction,
): Promise<MoveResult> {
  return inCatalogueWrite(deps, async (trx): Promise<MoveResult> => {
    const groups = await trx
      .selectFrom('service_groups')
      .select(['id', 'slug'])
      .orderBy('position')
      .orderBy('id')
      .execute();
    const index = groups.findIndex((group) => group.slug === slug);
    if (index === -1) return { ok: false, status: 404, message: CATALOGUE_MESSAGES.groupNotFound };
    const order = swapped(groups, index, direction);
    for (const [position, group] of order.entries())
      await trx.updateTable('service_groups').set({ position }).where('id', '=', group.id).execute();
    return { ok: true, order: order.map((group) => group.slug) };
  });
}

export async function moveService(
  deps: Pick<CatalogueEditorDeps, 'db' | 'catalogue'>,
  slug: string,
  direction: Direction,
): Promise<MoveResult> {
  return inCatalogueWrite(deps, async (trx): Promise<MoveResult> => {
    const service = await trx
      .selectFrom('services')
      .select(['id', 'group_id'])
      .where('slug', '=', slug)
      .executeTakeFirst();
    if (!service) return { ok: false, status: 404, message: CATALOGUE_MESSAGES.notFound };
    const siblings = await trx
      .selectFrom('services')
      .select(['id', 'slug'])
      .where('group_id', '=', service.group_id)
      .orderBy('position')
      .orderBy('id')
      .execute();
    const order = swapped(
      siblings,
      siblings.findIndex((s) => s.id === service.id),
      direction,
    );
    // Positions rewritten 0…n-1: the order is whole even if earlier positions had gaps or ties.
    for (const [position, sibling] of order.entries())
      await trx.updateTable('services').set({ position }).where('id', '=', sibling.id).execute();
    return { ok: true, order: order.map((s) => s.slug) };
  });
}
