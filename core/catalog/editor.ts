/**
 * The catalogue editor's reads and writes (issue 14, decision 044): one service at a time, each
 * save a compare-and-set on the service's revision, so a stale editor is refused (409) and never
 * overwrites someone else's change. Every write bumps the catalogue's content version in its own
 * transaction (./catalog.ts), which is what makes the public pages show it.
 *
 * Reads here include drafts; the public reads (./catalog.ts) never do.
 */
import type { Kysely, Transaction } from 'kysely';
import { isPostgres } from '../../db/dialect.ts';
import type { Database } from '../../db/schema.ts';
import { sanitizeRichText } from '../html/sanitize.ts';
import { e4ToNumber, parseAmountE4 } from '../money/money.ts';
import { isUploadPath } from '../uploads/names.ts';
import { type Catalog, bumpCatalogueVersion, insertPlans } from './catalog.ts';
import { formatE4, tierWarnings } from './markup.ts';
import {
  CATALOGUE_MESSAGES,
  type FieldError,
  type GroupInput,
  GroupInputSchema,
  type NewGroupInput,
  NewGroupInputSchema,
  type ServiceDocument,
  type ServiceInput,
  ServiceInputSchema,
  type ServiceStatus,
  type TierWarning,
  fieldErrorsOf,
} from './service-document.ts';
import type { PlanType, TargetKind } from './types.ts';

export interface AdminServiceRow {
  slug: string;
  name: string;
  status: ServiceStatus;
  revision: number;
  plans: { type: string; currency: string; minPrice: number; maxPrice: number; tiers: number }[];
}

export interface AdminGroupRow {
  slug: string;
  title: string;
  image: string;
  services: AdminServiceRow[];
}

/** A supplier panel as the tier editor offers it (core/fulfilment/supplier-catalogue.ts's `listPanels`). */
export type PanelKind = 'environment' | 'stored';

export interface PanelSummary {
  id: number;
  name: string;
  kind: PanelKind;
  /** From the panel's last `balance` reply; null until it has answered once. */
  currency: string | null;
}

/** A panel's imported service (`listImportedServices`): rate per 1000 in ten-thousandths. */
export interface ImportedService {
  service: string;
  name: string;
  category: string;
  /** Price per 1000 in ten-thousandths of the panel's currency (core/money). */
  rateE4: number;
  min: number;
  max: number;
  refill: boolean;
  cancel: boolean;
}

/**
 * The supplier side the editor reads (S's core/fulfilment/supplier-catalogue.ts, wired by the
 * server): passed in, so core/catalog does not import core/fulfilment (which imports orders, which
 * imports the catalogue).
 */
export interface SupplierDirectory {
  panels(): Promise<PanelSummary[]>;
  importedServices(panelId: number): Promise<ImportedService[]>;
  /** Vanished services too (`vanishedAt` set), for the "no longer offered" warning. */
  findService(panelId: number, service: string): Promise<(ImportedService & { vanishedAt: string | null }) | null>;
}

export type EditorFailure = { ok: false; status: 400 | 404 | 409; message: string; errors?: FieldError[] };

export type ServiceSaveResult =
  | {
      ok: true;
      document: ServiceDocument;
      /** Null when the service was created. */
      before: ServiceDocument | null;
      /** Per tier: sells below cost, quantity outside the supplier's limits… Never blocks a save. */
      warnings: TierWarning[];
    }
  | EditorFailure;

export type GroupSaveResult =
  { ok: true; before: { title: string; image: string }; after: { title: string; image: string } } | EditorFailure;

export type MoveResult = { ok: true; order: string[] } | EditorFailure;

export type GroupCreateResult = { ok: true; group: NewGroupInput } | EditorFailure;

export type GroupDeleteResult = { ok: true; before: { title: string; image: string } } | EditorFailure;

export interface CatalogueEditor {
  listGroups(): Promise<AdminGroupRow[]>;
  getService(slug: string): Promise<ServiceDocument | null>;
  createService(groupSlug: string, input: unknown): Promise<ServiceSaveResult>;
  /** Saves only when the service is still at `revision` (the one the editor opened). */
  saveService(slug: string, revision: number, input: unknown): Promise<ServiceSaveResult>;
  updateGroup(slug: string, input: unknown): Promise<GroupSaveResult>;
  /** A new group, last in the order; hidden from the store until one of its services is published. */
  createGroup(input: unknown): Promise<GroupCreateResult>;
  moveGroup(slug: string, direction: 'up' | 'down'): Promise<MoveResult>;
  /** Only a group without any service (drafts count): deleting cascades to services in the schema. */
  deleteGroup(slug: string): Promise<GroupDeleteResult>;
  moveService(slug: string, direction: 'up' | 'down'): Promise<MoveResult>;
  panels(): Promise<PanelSummary[]>;
  importedServices(panelId: number): Promise<ImportedService[]>;
}

type Db = Kysely<Database> | Transaction<Database>;

const invalid = (errors: FieldError[]): EditorFailure => ({
  ok: false,
  status: 400,
  message: errors.length === 1 && errors[0] ? errors[0].message : 'Some fields need attention.',
  errors,
});

export function createCatalogueEditor(options: {
  db: Kysely<Database>;
  catalog: Catalog;
  suppliers: SupplierDirectory;
  now?: () => Date;
}): CatalogueEditor {
  const { db, catalog, suppliers } = options;
  const now = options.now ?? (() => new Date());
  // PostgreSQL runs writes side by side: the group delete locks the group row (see deleteGroup).
  const lockRows = isPostgres(db);

  /** Runs a write with the version bump; tells the catalogue (page keys, snapshot) when it committed. */
  const write = async <T extends { ok: boolean }>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> => {
    const { result, version } = await db.transaction().execute(async (trx) => {
      const result = await work(trx);
      return { result, version: result.ok ? await bumpCatalogueVersion(trx) : null };
    });
    if (version !== null) catalog.wrote(version);
    return result;
  };

  /** Groups and services share one slug namespace: both are `/service/:slug` and `/api/services/:slug`. */
  const slugTaken = async (trx: Db, slug: string): Promise<boolean> => {
    const [service, group] = await Promise.all([
      trx.selectFrom('services').select('id').where('slug', '=', slug).executeTakeFirst(),
      trx.selectFrom('service_groups').select('id').where('slug', '=', slug).executeTakeFirst(),
    ]);
    return service !== undefined || group !== undefined;
  };

  /** Field errors the schema cannot see: a taken slug, an image not uploaded, an unknown panel. */
  const checkAgainstStore = async (
    trx: Db,
    input: ServiceInput,
    current: { id: number; slug: string; image: string; publishedAt: string | null } | null,
  ): Promise<FieldError[]> => {
    const errors: FieldError[] = [];
    if (current?.publishedAt && input.slug !== current.slug)
      errors.push({ field: 'slug', message: CATALOGUE_MESSAGES.slugLocked });
    else if (input.slug !== current?.slug && (await slugTaken(trx, input.slug)))
      errors.push({ field: 'slug', message: CATALOGUE_MESSAGES.slugTaken });
    if (input.image !== '' && input.image !== current?.image && !isUploadPath(input.image)) {
      // An image the catalogue already shows (a seeded one) may be reused; anything else is uploaded.
      const used = await trx.selectFrom('services').select('id').where('image', '=', input.image).executeTakeFirst();
      if (!used) errors.push({ field: 'image', message: CATALOGUE_MESSAGES.imageNotUploaded });
    }
    const panelIds = new Set((await trx.selectFrom('supplier_panels').select('id').execute()).map((p) => p.id));
    input.plans.forEach((plan, p) =>
      plan.tiers.forEach((tier, t) => {
        if (!panelIds.has(tier.supplierPanelId))
          errors.push({ field: `plans.${p}.tiers.${t}.supplierPanelId`, message: 'Choose a supplier panel.' });
      }),
    );
    return errors;
  };

  const warningsFor = async (input: ServiceInput): Promise<TierWarning[]> => {
    const panels = new Map((await suppliers.panels()).map((panel) => [panel.id, panel]));
    const warnings: TierWarning[] = [];
    for (const [p, plan] of input.plans.entries()) {
      for (const [t, tier] of plan.tiers.entries()) {
        const imported = await suppliers.findService(tier.supplierPanelId, tier.supplierServiceId);
        const messages = tierWarnings({
          qty: tier.qty,
          priceE4: parseAmountE4(tier.price),
          planCurrency: plan.currency,
          supplier: imported
            ? { rateE4: imported.rateE4, min: imported.min, max: imported.max, vanished: imported.vanishedAt !== null }
            : null,
          panelCurrency: panels.get(tier.supplierPanelId)?.currency ?? null,
        });
        for (const message of messages) warnings.push({ field: `plans.${p}.tiers.${t}`, message });
      }
    }
    return warnings;
  };

  const writePlans = async (trx: Transaction<Database>, serviceId: number, input: ServiceInput) => {
    await trx
      .deleteFrom('price_tiers')
      .where('plan_id', 'in', trx.selectFrom('plans').select('id').where('service_id', '=', serviceId))
      .execute();
    await trx.deleteFrom('plans').where('service_id', '=', serviceId).execute();
    await insertPlans(trx, serviceId, input.plans);
  };

  const serviceColumns = (input: ServiceInput) => ({
    slug: input.slug,
    name: input.name,
    title_html: sanitizeRichText(input.titleHtml),
    description: input.description,
    image: input.image,
    target_kind: input.targetKind,
    comment_required: input.commentRequired ? 1 : 0,
    status: input.status,
  });

  const parse = (input: unknown): { ok: true; value: ServiceInput } | EditorFailure => {
    const parsed = ServiceInputSchema.safeParse(input);
    return parsed.success ? { ok: true, value: parsed.data } : invalid(fieldErrorsOf(parsed.error));
  };

  return {
    async listGroups() {
      const [groups, services, plans, tiers] = await Promise.all([
        db.selectFrom('service_groups').selectAll().orderBy('position').execute(),
        db.selectFrom('services').selectAll().orderBy('group_id').orderBy('position').execute(),
        db.selectFrom('plans').selectAll().orderBy('service_id').orderBy('position').execute(),
        db.selectFrom('price_tiers').select(['plan_id', 'price_e4']).execute(),
      ]);
      return groups.map((group) => ({
        slug: group.slug,
        title: group.title,
        image: group.image,
        services: services
          .filter((service) => service.group_id === group.id)
          .map((service) => ({
            slug: service.slug,
            name: service.name,
            status: service.status === 'draft' ? ('draft' as const) : ('published' as const),
            revision: Number(service.revision),
            plans: plans
              .filter((plan) => plan.service_id === service.id)
              .map((plan) => {
                const prices = tiers.filter((tier) => tier.plan_id === plan.id).map((tier) => Number(tier.price_e4));
                return {
                  type: plan.type,
                  currency: plan.currency,
                  minPrice: e4ToNumber(prices.length ? Math.min(...prices) : 0),
                  maxPrice: e4ToNumber(prices.length ? Math.max(...prices) : 0),
                  tiers: prices.length,
                };
              }),
          })),
      }));
    },

    getService: (slug) => loadDocument(db, slug),

    async createService(groupSlug, raw) {
      const parsed = parse(raw);
      if (!parsed.ok) return parsed;
      const input = parsed.value;
      const result = await write(async (trx): Promise<ServiceSaveResult> => {
        const group = await trx
          .selectFrom('service_groups')
          .select('id')
          .where('slug', '=', groupSlug)
          .executeTakeFirst();
        if (!group) return { ok: false, status: 404, message: CATALOGUE_MESSAGES.groupNotFound };
        const errors = await checkAgainstStore(trx, input, null);
        if (errors.length > 0) return invalid(errors);
        const last = await trx
          .selectFrom('services')
          .select((eb) => eb.fn.max('position').as('position'))
          .where('group_id', '=', group.id)
          .executeTakeFirst();
        const { id } = await trx
          .insertInto('services')
          .values({
            ...serviceColumns(input),
            group_id: group.id,
            position: last?.position === null || last?.position === undefined ? 0 : Number(last.position) + 1,
            published_at: input.status === 'published' ? now().toISOString() : null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await writePlans(trx, id, input);
        const document = await loadDocument(trx, input.slug);
        if (!document) throw new Error('core/catalog: the created service is gone');
        return { ok: true, document, before: null, warnings: [] };
      });
      return result.ok ? { ...result, warnings: await warningsFor(input) } : result;
    },

    async saveService(slug, revision, raw) {
      const parsed = parse(raw);
      if (!parsed.ok) return parsed;
      const input = parsed.value;
      const result = await write(async (trx): Promise<ServiceSaveResult> => {
        const before = await loadDocument(trx, slug);
        const row = await trx
          .selectFrom('services')
          .select(['id', 'image', 'published_at'])
          .where('slug', '=', slug)
          .executeTakeFirst();
        if (!before || !row) return { ok: false, status: 404, message: CATALOGUE_MESSAGES.notFound };
        if (before.revision !== revision) return { ok: false, status: 409, message: CATALOGUE_MESSAGES.stale };
        const errors = await checkAgainstStore(trx, input, {
          id: row.id,
          slug,
          image: row.image,
          publishedAt: row.published_at,
        });
        if (errors.length > 0) return invalid(errors);
        // The compare-and-set: a save that committed since `before` was read leaves no row here.
        const updated = await trx
          .updateTable('services')
          .set((eb) => ({
            ...serviceColumns(input),
            revision: eb('revision', '+', 1),
            published_at: row.published_at ?? (input.status === 'published' ? now().toISOString() : null),
          }))
          .where('id', '=', row.id)
          .where('revision', '=', revision)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) === 0) return { ok: false, status: 409, message: CATALOGUE_MESSAGES.stale };
        await writePlans(trx, row.id, input);
        const document = await loadDocument(trx, input.slug);
        if (!document) throw new Error('core/catalog: the saved service is gone');
        return { ok: true, document, before, warnings: [] };
      });
      return result.ok ? { ...result, warnings: await warningsFor(input) } : result;
    },

    async updateGroup(slug, raw) {
      const parsed = GroupInputSchema.safeParse(raw);
      if (!parsed.success) return invalid(fieldErrorsOf(parsed.error));
      const input: GroupInput = parsed.data;
      return write(async (trx): Promise<GroupSaveResult> => {
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
    },

    async createGroup(raw) {
      const parsed = NewGroupInputSchema.safeParse(raw);
      if (!parsed.success) return invalid(fieldErrorsOf(parsed.error));
      const input = parsed.data;
      return write(async (trx): Promise<GroupCreateResult> => {
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
          .values({
            slug: input.slug,
            title: input.title,
            image: input.image,
            position: last?.position === null || last?.position === undefined ? 0 : Number(last.position) + 1,
          })
          .execute();
        return { ok: true, group: input };
      });
    },

    async moveGroup(slug, direction) {
      return write(async (trx): Promise<MoveResult> => {
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
    },

    async deleteGroup(slug) {
      return write(async (trx): Promise<GroupDeleteResult> => {
        // Locked on PostgreSQL: a service being added to this group holds a key-share lock on the
        // row until it commits, so the count below sees it; without the lock the delete would
        // cascade to a service created in the meantime.
        let query = trx.selectFrom('service_groups').select(['id', 'title', 'image']).where('slug', '=', slug);
        if (lockRows) query = query.forUpdate();
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
    },

    async moveService(slug, direction) {
      return write(async (trx): Promise<MoveResult> => {
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
    },

    panels: () => suppliers.panels(),
    importedServices: (panelId) => suppliers.importedServices(panelId),
  };
}

/** `rows` with the one at `index` swapped with its neighbour; as it is when already first (or last). */
function swapped<T>(rows: T[], index: number, direction: 'up' | 'down'): T[] {
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

/** One service with its plans and tiers as the editor shows it (drafts included). */
async function loadDocument(db: Db, slug: string): Promise<ServiceDocument | null> {
  const service = await db
    .selectFrom('services as s')
    .innerJoin('service_groups as g', 'g.id', 's.group_id')
    .selectAll('s')
    .select('g.slug as group_slug')
    .where('s.slug', '=', slug)
    .executeTakeFirst();
  if (!service) return null;
  const plans = await db
    .selectFrom('plans')
    .selectAll()
    .where('service_id', '=', service.id)
    .orderBy('position')
    .execute();
  const tiers = plans.length
    ? await db
        .selectFrom('price_tiers')
        .selectAll()
        .where(
          'plan_id',
          'in',
          plans.map((plan) => plan.id),
        )
        .orderBy('plan_id')
        .orderBy('position')
        .execute()
    : [];
  return {
    slug: service.slug,
    groupSlug: service.group_slug,
    name: service.name,
    titleHtml: service.title_html,
    description: service.description,
    image: service.image,
    targetKind: service.target_kind as TargetKind,
    commentRequired: service.comment_required === 1,
    status: service.status === 'draft' ? 'draft' : 'published',
    revision: Number(service.revision),
    publishedAt: service.published_at,
    plans: plans.map((plan) => ({
      type: plan.type as PlanType,
      title: plan.title,
      icon: plan.icon,
      currency: plan.currency,
      options: JSON.parse(plan.options_json) as string[],
      tiers: tiers
        .filter((tier) => tier.plan_id === plan.id)
        .map((tier) => ({
          qty: tier.qty,
          text: tier.text,
          price: formatE4(Number(tier.price_e4)),
          discount: tier.discount_percent,
          supplierPanelId: tier.supplier_panel_id,
          supplierServiceId: tier.supplier_service_id,
        })),
    })),
  };
}

/**
 * A service document as the audit log keeps it: the log cuts nesting below four levels, so each
 * plan's tiers are one line each ("100 × 2.99, 0% off, panel 1 service 1001"), by plan type.
 */
export function auditViewOf(document: ServiceDocument): Record<string, unknown> {
  const { plans, ...fields } = document;
  return {
    ...fields,
    plans: plans.map(({ tiers: _tiers, ...plan }) => plan),
    tiers: Object.fromEntries(
      plans.map((plan) => [
        plan.type,
        plan.tiers.map(
          (tier) =>
            `${tier.qty} × ${tier.price} "${tier.text}", ${tier.discount}% off, panel ${tier.supplierPanelId} service ${tier.supplierServiceId}`,
        ),
      ]),
    ),
  };
}
