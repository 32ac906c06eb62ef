import { type MigrationDb, idColumn } from './helpers.ts';

export async function up(db: MigrationDb): Promise<void> {
  await idColumn(db, db.schema.createTable('service_groups'))
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('image', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .execute();

  await idColumn(db, db.schema.createTable('services'))
    .addColumn('group_id', 'integer', (c) => c.notNull().references('service_groups.id').onDelete('cascade'))
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('title_html', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('image', 'text', (c) => c.notNull())
    .addColumn('target_kind', 'text', (c) => c.notNull())
    .addColumn('comment_required', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('position', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('services_group_position').on('services').columns(['group_id', 'position']).execute();

  await idColumn(db, db.schema.createTable('plans'))
    .addColumn('service_id', 'integer', (c) => c.notNull().references('services.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('icon', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('options_json', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addUniqueConstraint('plans_service_type', ['service_id', 'type'])
    .execute();
  await db.schema.createIndex('plans_service_position').on('plans').columns(['service_id', 'position']).execute();

  await idColumn(db, db.schema.createTable('price_tiers'))
    .addColumn('plan_id', 'integer', (c) => c.notNull().references('plans.id').onDelete('cascade'))
    .addColumn('qty', 'integer', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('price_e4', 'bigint', (c) => c.notNull())
    .addColumn('discount_percent', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('supplier_service_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addUniqueConstraint('price_tiers_plan_qty', ['plan_id', 'qty'])
    .execute();
  await db.schema.createIndex('price_tiers_plan_position').on('price_tiers').columns(['plan_id', 'position']).execute();
}

export async function down(db: MigrationDb): Promise<void> {
  for (const table of ['price_tiers', 'plans', 'services', 'service_groups']) {
    await db.schema.dropTable(table).execute();
  }
}
