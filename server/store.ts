/**
 * Boot sequence shared by the server, the CLI and the tests: open the database, migrate it,
 * seed the catalogue when it is empty, and assemble the domain services.
 */
import type { StoreServices } from '../app/context.ts';
import { type Catalog, createCatalog } from '../core/catalog/catalog.ts';
import { flashSaleEnd } from '../core/catalog/flash-sale.ts';
import { type DatabaseHandle, openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { catalogueSeed } from '../db/seed/catalogue-data.ts';
import type { Config } from './config.ts';

export interface Store {
  database: DatabaseHandle;
  catalog: Catalog;
  services: StoreServices;
  close(): Promise<void>;
}

export async function openStore(config: Config, database?: DatabaseHandle): Promise<Store> {
  const handle = database ?? openDatabase({ url: config.DATABASE_URL, sqlitePath: config.sqlitePath });
  await migrateToLatest(handle.db);
  const catalog = createCatalog(handle.db);
  if (await catalog.isEmpty()) await catalog.replaceCatalogue(catalogueSeed);

  const fixedEnd = config.FLASH_SALE_ENDS_AT ? Date.parse(config.FLASH_SALE_ENDS_AT) : null;
  const services: StoreServices = {
    catalog,
    flashSaleEndsAt: () => flashSaleEnd(Date.now(), fixedEnd),
  };
  return { database: handle, catalog, services, close: () => handle.close() };
}
