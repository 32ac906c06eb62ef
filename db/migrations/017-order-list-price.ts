import type { MigrationDb } from './helpers.ts';

/**
 * The price before a sale, kept on the order (decisions 031, 038): `list_price_e4` is the tier's
 * list price when a configured sale reduced `price_e4` at creation, NULL otherwise (no sale, or
 * orders created before this migration). The payment window shows it struck through beside the
 * charged sale price; the order never reads the catalogue again for it, so a sale that ends
 * between creation and payment changes nothing shown or charged.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('orders').addColumn('list_price_e4', 'bigint').execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('orders').dropColumn('list_price_e4').execute();
}
