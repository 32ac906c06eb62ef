/**
 * A catalogue write made straight in the database, as the catalogue editor would announce it: a
 * new content version, which the store's catalogue is told of so its next read is fresh.
 */
import type { TestApp } from './app.ts';

export async function bumpCatalogueVersion(t: TestApp): Promise<void> {
  const { version } = await t.database.db
    .selectFrom('catalogue_content')
    .select('version')
    .where('id', '=', 1)
    .executeTakeFirstOrThrow();
  await t.database.db
    .updateTable('catalogue_content')
    .set({ version: Number(version) + 1 })
    .where('id', '=', 1)
    .execute();
  t.store.catalogue.wrote(Number(version) + 1);
}
