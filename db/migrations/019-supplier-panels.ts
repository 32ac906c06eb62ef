import { type MigrationDb, idColumn } from './helpers.ts';

/**
 * More than one supplier panel, and each panel's imported service list (decision 045).
 *
 * - `supplier_panels`: row 1 is the environment panel (kind 'environment'): its URL and key come
 *   from SMM_PANEL_URL / SMM_PANEL_KEY, or it is the built-in simulated panel, so `url` and
 *   `key_sealed` stay null. Stored panels (kind 'stored') keep their URL and their API key sealed
 *   with SUPPLIER_KEY_ENCRYPTION_KEY (AES-GCM, core/secrets); the plain key is never stored.
 *   `currency` is copied from the panel's last `balance` reply. `low_balance_alerted_at` is set
 *   by a compare-and-set when the low-balance e-mail goes out and cleared when the balance is
 *   back above the threshold, so two instances never mail twice for one drop.
 * - `supplier_services`: a panel's `services` reply, upserted by "Import services". Services the
 *   panel stopped offering keep their row with `vanished_at` set, so a tier mapped to one can be
 *   shown as a warning instead of silently losing its name.
 * - `price_tiers.supplier_panel_id` and `orders.supplier_panel_id` (default 1: every existing
 *   tier and order belongs to the environment panel). The order copies its tier's panel at
 *   creation, so it is fulfilled, polled, refilled and cancelled on the panel it was sold with
 *   even after the tier is remapped. No foreign key: SQLite cannot add a REFERENCES column with
 *   a non-null default; removing a panel that a tier or an unfinished order uses is refused by
 *   core/fulfilment/panels-admin.ts instead.
 */
export async function up(db: MigrationDb): Promise<void> {
  await idColumn(db, db.schema.createTable('supplier_panels'))
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('url', 'text')
    .addColumn('key_sealed', 'text')
    .addColumn('currency', 'text')
    .addColumn('low_balance_threshold_e4', 'bigint')
    .addColumn('low_balance_alerted_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  const now = new Date().toISOString();
  // No explicit id: on the fresh table both dialects hand out 1, and PostgreSQL's identity
  // sequence then moves on to 2 (an explicit id would leave it at 1 and the next insert clash).
  await db
    .insertInto('supplier_panels')
    .values({ name: 'Main panel', kind: 'environment', created_at: now, updated_at: now })
    .execute();

  await db.schema
    .createTable('supplier_services')
    .addColumn('panel_id', 'integer', (c) => c.notNull().references('supplier_panels.id').onDelete('cascade'))
    .addColumn('service', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('rate_e4', 'bigint', (c) => c.notNull())
    .addColumn('min', 'integer', (c) => c.notNull())
    .addColumn('max', 'integer', (c) => c.notNull())
    .addColumn('refill', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cancel', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('imported_at', 'text', (c) => c.notNull())
    // Set when an import no longer finds the service on the panel; cleared if it comes back.
    .addColumn('vanished_at', 'text')
    .addPrimaryKeyConstraint('supplier_services_pk', ['panel_id', 'service'])
    .execute();
  await db.schema
    .createIndex('supplier_services_by_category')
    .on('supplier_services')
    .columns(['panel_id', 'category', 'name'])
    .execute();

  await db.schema
    .alterTable('price_tiers')
    .addColumn('supplier_panel_id', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .alterTable('orders')
    .addColumn('supplier_panel_id', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  // "Is this panel used by an unfinished order?" (refusing a removal) reads this index.
  await db.schema.createIndex('orders_supplier_panel').on('orders').column('supplier_panel_id').execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropIndex('orders_supplier_panel').execute();
  await db.schema.alterTable('orders').dropColumn('supplier_panel_id').execute();
  await db.schema.alterTable('price_tiers').dropColumn('supplier_panel_id').execute();
  await db.schema.dropTable('supplier_services').execute();
  await db.schema.dropTable('supplier_panels').execute();
}
