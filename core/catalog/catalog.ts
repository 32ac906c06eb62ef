/**
 * Reads and writes the catalogue. Reads are served from an in-process snapshot: the catalogue
 * is small, read on every page and changed rarely, so one load per change beats a query per
 * request. The snapshot holds published services only (decision 044): a draft is absent from
 * every public read, and so from order creation.
 *
 * Every write (the seed, `replaceCatalogue`, the admin editor in ./editor.ts) bumps the content
 * version in `catalogue_content` in its own transaction. Each instance follows that version
 * (core/content-version.ts): the page cache keys change at once on the writing instance and
 * within about a second on the others, and a snapshot older than the known version is reloaded.
 */
import { type Kysely, PostgresAdapter, type Transaction, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { e4ToNumber, numberToE4, parseAmountE4 } from '../money/money.ts';
import type { Clock } from '../clock.ts';
import { bulkDiscountPercent } from './pricing.ts';
import { type SaleConfig, salePercentFor, salePhase, salePriceE4 } from './sale.ts';
import { sanitizeRichText } from '../html/sanitize.ts';
import { createContentVersion } from '../content-version.ts';
import {
  type CatalogueInput,
  type GroupDetailView,
  PLAN_TYPES,
  type PlanType,
  type ServiceGroupView,
  type ServiceView,
  TARGET_KINDS,
  type TargetKind,
} from './types.ts';

interface Snapshot {
  groups: ServiceGroupView[];
  /** Group slug → its services in full. */
  groupDetails: Map<string, { group: GroupDetailView['group']; services: ServiceView[] }>;
  /** Service slug → its group's slug. */
  serviceToGroup: Map<string, string>;
  /** "slug|plan type|qty" → the supplier panel and its service id for that tier. */
  supplierTargets: Map<string, SupplierTarget>;
  /** The catalogue_content version read before the rows: the snapshot is at least this new. */
  version: number;
}

/** Where one price tier is fulfilled: a supplier panel (supplier_panels.id) and its service id. */
export interface SupplierTarget {
  panelId: number;
  service: string;
}

export interface Catalog {
  listGroups(): Promise<ServiceGroupView[]>;
  /** A group slug or a service slug; null when neither exists. */
  getGroupDetail(slug: string): Promise<GroupDetailView | null>;
  getService(slug: string): Promise<ServiceView | null>;
  /** The supplier panel's service id that fulfils one price tier. */
  supplierServiceId(slug: string, planType: string, qty: number): Promise<string | null>;
  /** The supplier panel and service that fulfil one price tier; null for an unknown tier. */
  supplierTarget(slug: string, planType: string, qty: number): Promise<SupplierTarget | null>;
  replaceCatalogue(input: CatalogueInput): Promise<void>;
  /**
   * Writes `input` only if there is no catalogue yet; true when it did. Safe when several
   * instances boot at once on an empty database: exactly one of them seeds.
   */
  seedIfEmpty(input: CatalogueInput): Promise<boolean>;
  isEmpty(): Promise<boolean>;
  /** Changes whenever the catalogue changes, and when a configured sale starts or ends. */
  version(): number;
  /** Every published service slug (boot checks a sale's service list against it). */
  serviceSlugs(): Promise<string[]>;
  /** Reads the database's content version now (boot, before the first page is cached). */
  contentVersion(): Promise<number>;
  /** Records a content version a write on this instance committed (./editor.ts). */
  wrote(version: number): void;
}

interface CatalogOptions {
  /** The configured sale (decision 031); its prices are applied on every read while it runs. */
  sale?: SaleConfig | null;
  clock?: Clock;
}

export function createCatalog(db: Kysely<Database>, options: CatalogOptions = {}): Catalog {
  let snapshot: Promise<Snapshot> | null = null;
  /** The version of the snapshot in `snapshot` once it has loaded; -1 while loading. */
  let snapshotVersion = -1;
  const contentVersion = createContentVersion(() => readCatalogueVersion(db));
  const sale = options.sale ?? null;
  const clock = options.clock ?? (() => new Date());
  // The sale-priced services of one snapshot in one sale phase, kept so reads are not re-mapped.
  let priced: { snap: Snapshot; phase: number; groups: Map<string, ServiceView[]> } | null = null;

  const servicesAt = (snap: Snapshot, groupSlug: string, services: ServiceView[]): ServiceView[] => {
    if (!sale) return services;
    const now = clock().getTime();
    const phase = salePhase(sale, now);
    if (priced?.snap !== snap || priced.phase !== phase) priced = { snap, phase, groups: new Map() };
    let views = priced.groups.get(groupSlug);
    if (!views) {
      views = services.map((service) => withSalePrices(service, salePercentFor(sale, service.slug, now)));
      priced.groups.set(groupSlug, views);
    }
    return views;
  };

  const load = () => {
    // Another write (here, or on another instance) is known: this snapshot is out of date.
    if (snapshot && snapshotVersion >= 0 && contentVersion.known() > snapshotVersion) snapshot = null;
    if (!snapshot) {
      snapshotVersion = -1;
      const loading: Promise<Snapshot> = loadSnapshot(db).then(
        (snap) => {
          if (snapshot === loading) snapshotVersion = snap.version;
          contentVersion.saw(snap.version);
          return snap;
        },
        (error: unknown) => {
          if (snapshot === loading) snapshot = null; // do not cache a failure
          throw error;
        },
      );
      snapshot = loading;
    }
    return snapshot;
  };
  const wrote = (written: number) => {
    contentVersion.saw(written);
    snapshot = null;
  };

  return {
    async listGroups() {
      return (await load()).groups;
    },
    async getGroupDetail(slug) {
      const snap = await load();
      const groupSlug = snap.groupDetails.has(slug) ? slug : snap.serviceToGroup.get(slug);
      const detail = groupSlug ? snap.groupDetails.get(groupSlug) : undefined;
      const first = detail?.services[0];
      if (!detail || !first) return null;
      const selected = detail.services.some((s) => s.slug === slug) ? slug : first.slug;
      return { group: detail.group, selected, services: servicesAt(snap, detail.group.slug, detail.services) };
    },
    async getService(slug) {
      const detail = await this.getGroupDetail(slug);
      return detail?.services.find((s) => s.slug === slug) ?? null;
    },
    async supplierServiceId(slug, planType, qty) {
      return (await load()).supplierTargets.get(`${slug}|${planType}|${qty}`)?.service ?? null;
    },
    async supplierTarget(slug, planType, qty) {
      return (await load()).supplierTargets.get(`${slug}|${planType}|${qty}`) ?? null;
    },
    async replaceCatalogue(input) {
      assertValidCatalogue(input);
      wrote(
        await db.transaction().execute(async (trx) => {
          await writeCatalogue(trx, input);
          return bumpCatalogueVersion(trx);
        }),
      );
    },
    async seedIfEmpty(input) {
      assertValidCatalogue(input);
      const seeded = await db.transaction().execute(async (trx) => {
        // PostgreSQL: a second instance waits here until the first has committed its seed, then
        // finds it. (SQLite is one process, and its driver runs one transaction at a time.)
        if (trx.getExecutor().adapter instanceof PostgresAdapter) {
          await sql`lock table service_groups in exclusive mode`.execute(trx);
        }
        if (await trx.selectFrom('service_groups').select('id').limit(1).executeTakeFirst()) return null;
        await writeCatalogue(trx, input);
        return bumpCatalogueVersion(trx);
      });
      if (seeded !== null) wrote(seeded);
      return seeded !== null;
    },
    async isEmpty() {
      const row = await db.selectFrom('service_groups').select('id').limit(1).executeTakeFirst();
      return !row;
    },
    // Several numbers per catalogue version, one per sale phase: page cache keys change at the
    // sale's start and end, so no cached page shows a price from the other side of a boundary.
    version: () => contentVersion.known() * 3 + salePhase(sale, clock().getTime()),
    async serviceSlugs() {
      return [...(await load()).serviceToGroup.keys()];
    },
    contentVersion: contentVersion.read,
    wrote,
  };
}

/** A service with `percent` off every tier (the list price kept in `listPrice`); as is for 0. */
function withSalePrices(service: ServiceView, percent: number): ServiceView {
  if (percent <= 0) return service;
  return {
    ...service,
    plans: service.plans.map((plan) => ({
      ...plan,
      list: plan.list.map((tier) => ({
        ...tier,
        price: e4ToNumber(salePriceE4(numberToE4(tier.price), percent)),
        listPrice: tier.price,
      })),
    })),
  };
}

/**
 * The discount a tier may claim (decision 031): what the owner set, but never more than the true
 * saving against the plan's smallest tier at its price per unit.
 */
function honestDiscounts(tiers: { qty: number; price_e4: number; discount_percent: number }[]): Map<number, number> {
  const reference = tiers.reduce<(typeof tiers)[number] | undefined>(
    (smallest, tier) => (smallest === undefined || tier.qty < smallest.qty ? tier : smallest),
    undefined,
  );
  const discounts = new Map<number, number>();
  for (const tier of tiers) {
    const provable = reference
      ? bulkDiscountPercent(
          { qty: tier.qty, priceE4: tier.price_e4 },
          { qty: reference.qty, priceE4: reference.price_e4 },
        )
      : 0;
    discounts.set(tier.qty, Math.min(tier.discount_percent, provable));
  }
  return discounts;
}

async function readCatalogueVersion(db: Kysely<Database> | Transaction<Database>): Promise<number> {
  const row = await db.selectFrom('catalogue_content').select('version').where('id', '=', 1).executeTakeFirst();
  return row ? Number(row.version) : 0;
}

/** Bumps the catalogue's content version inside the writing transaction; returns the new one. */
export async function bumpCatalogueVersion(trx: Transaction<Database>): Promise<number> {
  const row = await trx
    .updateTable('catalogue_content')
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where('id', '=', 1)
    .returning('version')
    .executeTakeFirstOrThrow();
  return Number(row.version);
}

async function loadSnapshot(db: Kysely<Database>): Promise<Snapshot> {
  // The version first: rows read after it are at least that new (a later write bumps it again).
  const version = await readCatalogueVersion(db);
  const [groups, services, plans, tiers] = await Promise.all([
    db.selectFrom('service_groups').selectAll().orderBy('position').execute(),
    db
      .selectFrom('services')
      .selectAll()
      .where('status', '=', 'published')
      .orderBy('group_id')
      .orderBy('position')
      .execute(),
    db.selectFrom('plans').selectAll().orderBy('service_id').orderBy('position').execute(),
    db.selectFrom('price_tiers').selectAll().orderBy('plan_id').orderBy('position').execute(),
  ]);

  const tiersByPlan = groupBy(tiers, (t) => t.plan_id);
  const plansByService = groupBy(plans, (p) => p.service_id);
  const servicesByGroup = groupBy(services, (s) => s.group_id);

  const snap: Snapshot = {
    groups: [],
    groupDetails: new Map(),
    serviceToGroup: new Map(),
    supplierTargets: new Map(),
    version,
  };
  const planById = new Map(plans.map((plan) => [plan.id, plan]));
  const serviceById = new Map(services.map((service) => [service.id, service]));
  for (const tier of tiers) {
    const plan = planById.get(tier.plan_id);
    const service = plan ? serviceById.get(plan.service_id) : undefined;
    if (plan && service)
      snap.supplierTargets.set(`${service.slug}|${plan.type}|${tier.qty}`, {
        panelId: tier.supplier_panel_id,
        service: tier.supplier_service_id,
      });
  }
  for (const group of groups) {
    const rows = servicesByGroup.get(group.id) ?? [];
    // A group without a published service is hidden: no empty tab, page or sitemap entry.
    if (rows.length === 0) continue;
    const views: ServiceView[] = rows.map((service) => ({
      slug: service.slug,
      name: service.name,
      title: service.title_html,
      description: service.description,
      image: service.image,
      targetKind: service.target_kind as TargetKind,
      commentRequired: service.comment_required === 1,
      plans: (plansByService.get(service.id) ?? []).map((plan) => ({
        type: plan.type as PlanType,
        title: plan.title,
        icon: plan.icon,
        currency: plan.currency,
        option: (JSON.parse(plan.options_json) as string[]).map((name) => ({ name })),
        list: ((tiers) => {
          const discounts = honestDiscounts(tiers);
          return tiers.map((tier) => ({
            qty: tier.qty,
            text: tier.text,
            price: e4ToNumber(tier.price_e4),
            discount: discounts.get(tier.qty) ?? 0,
          }));
        })(tiersByPlan.get(plan.id) ?? []),
      })),
    }));
    const head = { slug: group.slug, title: group.title, image: group.image };
    snap.groups.push({ ...head, services: views.map(({ name, slug }) => ({ name, slug })) });
    snap.groupDetails.set(group.slug, { group: head, services: views });
    for (const view of views) snap.serviceToGroup.set(view.slug, group.slug);
  }
  return snap;
}

function groupBy<T, K>(rows: T[], key: (row: T) => K): Map<K, T[]> {
  const map = new Map<K, T[]>();
  for (const row of rows) {
    const list = map.get(key(row));
    if (list) list.push(row);
    else map.set(key(row), [row]);
  }
  return map;
}

/** Replaces the whole catalogue within the caller's transaction (the input already checked). */
async function writeCatalogue(trx: Transaction<Database>, input: CatalogueInput): Promise<void> {
  await trx.deleteFrom('price_tiers').execute();
  await trx.deleteFrom('plans').execute();
  await trx.deleteFrom('services').execute();
  await trx.deleteFrom('service_groups').execute();

  for (const [groupPosition, group] of input.groups.entries()) {
    const { id: groupId } = await trx
      .insertInto('service_groups')
      .values({ slug: group.slug, title: group.title, image: group.image, position: groupPosition })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const [servicePosition, service] of group.services.entries()) {
      const { id: serviceId } = await trx
        .insertInto('services')
        .values({
          group_id: groupId,
          slug: service.slug,
          name: service.name,
          title_html: sanitizeRichText(service.titleHtml),
          description: service.description,
          image: service.image,
          target_kind: service.targetKind,
          comment_required: service.commentRequired ? 1 : 0,
          position: servicePosition,
          status: 'published',
          published_at: new Date().toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await insertPlans(trx, serviceId, service.plans);
    }
  }
}

/** The plans and tiers of one service, as the seed and the editor write them. */
type PlanRowsInput = (Omit<CatalogueInput['groups'][number]['services'][number]['plans'][number], 'tiers'> & {
  tiers: (CatalogueInput['groups'][number]['services'][number]['plans'][number]['tiers'][number] & {
    /** The panel the tier is fulfilled on (decision 045); the environment panel when omitted. */
    supplierPanelId?: number;
  })[];
})[];

/**
 * Inserts a service's plans and tiers in order (positions from the list order), within the
 * caller's transaction; the input is already checked and the service has no plans left.
 */
export async function insertPlans(trx: Transaction<Database>, serviceId: number, plans: PlanRowsInput): Promise<void> {
  for (const [planPosition, plan] of plans.entries()) {
    const { id: planId } = await trx
      .insertInto('plans')
      .values({
        service_id: serviceId,
        type: plan.type,
        title: plan.title,
        icon: plan.icon,
        currency: plan.currency,
        options_json: JSON.stringify(plan.options),
        position: planPosition,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('price_tiers')
      .values(
        plan.tiers.map((tier, tierPosition) => ({
          plan_id: planId,
          qty: tier.qty,
          text: tier.text,
          price_e4: parseAmountE4(tier.price),
          discount_percent: tier.discount,
          ...(tier.supplierPanelId === undefined ? {} : { supplier_panel_id: tier.supplierPanelId }),
          supplier_service_id: tier.supplierServiceId,
          position: tierPosition,
        })),
      )
      .execute();
  }
}

export class CatalogueError extends Error {}

function assertValidCatalogue(input: CatalogueInput): void {
  const fail = (message: string): never => {
    throw new CatalogueError(message);
  };
  const slugs = new Set<string>();
  for (const group of input.groups) {
    if (slugs.has(group.slug)) fail(`Duplicate slug ${group.slug}`);
    slugs.add(group.slug);
    for (const service of group.services) {
      if (slugs.has(service.slug)) fail(`Duplicate slug ${service.slug}`);
      slugs.add(service.slug);
      if (!TARGET_KINDS.includes(service.targetKind)) fail(`${service.slug}: unknown target kind`);
      if (service.plans.length === 0) fail(`${service.slug}: a service needs at least one plan`);
      for (const plan of service.plans) {
        if (!PLAN_TYPES.includes(plan.type)) fail(`${service.slug}: unknown plan type ${plan.type}`);
        if (plan.tiers.length === 0) fail(`${service.slug}/${plan.type}: a plan needs at least one tier`);
        for (const tier of plan.tiers) {
          if (!Number.isInteger(tier.qty) || tier.qty <= 0)
            fail(`${service.slug}: quantity must be a positive integer`);
          if (!Number.isInteger(tier.discount) || tier.discount < 0 || tier.discount > 99) {
            fail(`${service.slug}: discount must be a whole percent from 0 to 99`);
          }
          parseAmountE4(tier.price);
        }
      }
    }
  }
}
