import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCatalogue } from '../../core/catalogue/catalogue.ts';
import { CatalogueError } from '../../core/catalogue/catalogue-writes.ts';
import type { CatalogueInput } from '../../core/catalogue/types.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { type TestDatabase, dialects, openTestDatabase } from '../support/databases.ts';

const catalogueInput = (
  overrides: Partial<CatalogueInput['groups'][0]['services'][0]> = {},
  price = '1.4999',
  discount = 10,
): CatalogueInput => ({
  groups: [
    {
      slug: 'instagram',
      title: 'Instagram',
      image: '/images/groups/instagram.svg',
      services: [
        {
          slug: 'instagram-followers',
          name: 'Instagram Followers',
          titleHtml: 'Buy <strong>followers</strong><script>alert(1)</script><img src=x onerror="alert(2)">',
          description: 'Followers.',
          image: '/images/services/instagram-followers.svg',
          targetKind: 'instagram_username',
          commentRequired: false,
          plans: [
            {
              type: 'Standard',
              title: 'Standard',
              icon: '/images/plans/standard.svg',
              currency: '$',
              options: ['Gradual delivery'],
              tiers: [{ qty: 100, text: '100 Followers', price, discount, supplierServiceId: '1' }],
            },
          ],
          ...overrides,
        },
      ],
    },
  ],
});

describe.each(dialects)('catalogue store on %s', (dialect) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await openTestDatabase(dialect);
    await migrateToLatest(database.db);
  });
  afterEach(async () => {
    await database.dispose();
  });

  it('migrations are idempotent', async () => {
    expect(await migrateToLatest(database.db)).toEqual([]);
  });

  it('sanitises stored HTML and keeps money exact', async () => {
    const catalogue = createCatalogue(database.db);
    await catalogue.replaceCatalogue(catalogueInput());
    const row = await database.db.selectFrom('services').select('title_html').executeTakeFirstOrThrow();
    expect(row.title_html).toBe('Buy <strong>followers</strong>');
    const tier = await database.db
      .selectFrom('price_tiers')
      .select(['price_e4', 'discount_percent'])
      .executeTakeFirstOrThrow();
    expect(tier).toEqual({ price_e4: 14_999, discount_percent: 10 });
    const service = await catalogue.getService('instagram-followers');
    // Stored as given, but shown capped at the true bulk saving: the smallest tier has none (decision 031).
    expect(service?.plans[0].list[0]).toEqual({ qty: 100, text: '100 Followers', price: 1.4999, discount: 0 });
  });

  it('rejects invalid catalogues without touching the stored one', async () => {
    const catalogue = createCatalogue(database.db);
    await catalogue.replaceCatalogue(catalogueInput());
    await expect(catalogue.replaceCatalogue(catalogueInput({}, '1.23456'))).rejects.toThrow();
    await expect(catalogue.replaceCatalogue(catalogueInput({}, '2', 100))).rejects.toThrow(CatalogueError);
    await expect(catalogue.replaceCatalogue(catalogueInput({ plans: [] }))).rejects.toThrow(CatalogueError);
    expect((await catalogue.getService('instagram-followers'))?.plans[0].list[0].price).toBe(1.4999);
  });

  it('rolls back a write that fails halfway', async () => {
    const catalogue = createCatalogue(database.db);
    await catalogue.replaceCatalogue(catalogueInput());
    const duplicateQty = catalogueInput();
    const plan = duplicateQty.groups[0].services[0].plans[0];
    plan.tiers.push({ ...plan.tiers[0] }); // violates the unique (plan, qty) constraint in SQL
    await expect(catalogue.replaceCatalogue(duplicateQty)).rejects.toThrow();
    expect(await catalogue.listGroups()).toHaveLength(1);
    expect(await database.db.selectFrom('price_tiers').select('id').execute()).toHaveLength(1);
  });

  it('serves reads from a snapshot that a write replaces', async () => {
    const catalogue = createCatalogue(database.db);
    await catalogue.replaceCatalogue(catalogueInput());
    const before = catalogue.version();
    expect((await catalogue.getService('instagram-followers'))?.name).toBe('Instagram Followers');
    await catalogue.replaceCatalogue(catalogueInput({ name: 'IG Followers' }));
    expect(catalogue.version()).toBeGreaterThan(before);
    expect((await catalogue.getService('instagram-followers'))?.name).toBe('IG Followers');
    expect(await catalogue.getGroupDetail('nothing')).toBeNull();
  });

  it('seeds an empty catalogue once when several instances start at the same time', async () => {
    // Three instances' catalogues on one database, seeding at once (decision 013).
    const instances = [createCatalogue(database.db), createCatalogue(database.db), createCatalogue(database.db)];
    const seeded = await Promise.all(instances.map((catalogue) => catalogue.seedIfEmpty(catalogueInput())));
    expect(seeded.filter(Boolean)).toHaveLength(1);
    expect(await database.db.selectFrom('service_groups').select('slug').execute()).toEqual([{ slug: 'instagram' }]);
    // A catalogue that exists is left alone.
    expect(await instances[0].seedIfEmpty(catalogueInput({ name: 'Other' }))).toBe(false);
    expect((await instances[1].getService('instagram-followers'))?.name).toBe('Instagram Followers');
  });
});
