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
import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../../db/dialect.ts';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import { bumpContentVersion, createContentVersion, readContentVersion } from '../content-version.ts';
import { assertValidCatalogue, writeCatalogue } from './catalogue-writes.ts';
import { type SubscriptionOffer, subscriptionOffersOf } from './offers.ts';
import { type SaleConfig, salePercentFor, salePhase } from './sale.ts';
import { type Snapshot, type SupplierTarget, loadSnapshot, withSalePrices } from './snapshot.ts';
import type { CatalogueInput, GroupDetailView, ServiceGroupView, ServiceView } from './types.ts';

export interface Catalogue {
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
  /** The subscriptions that can be bought now, for the pages that may claim them (./offers.ts). */
  subscriptionOffers(): Promise<SubscriptionOffer[]>;
  /** Every published service slug (boot checks a sale's service list against it). */
  serviceSlugs(): Promise<string[]>;
  /** Reads the database's content version now (boot, before the first page is cached). */
  contentVersion(): Promise<number>;
  /** Records a content version a write on this instance committed (./editor.ts). */
  wrote(version: number): void;
}

export interface CatalogueOptions {
  /** The configured sale (decision 031); its prices are applied on every read while it runs. */
  sale?: SaleConfig | null;
  clock?: Clock;
}

export function createCatalogue(db: Kysely<Database>, options: CatalogueOptions = {}): Catalogue {
  let snapshot: Promise<Snapshot> | null = null;
  /** The version of the snapshot in `snapshot` once it has loaded; -1 while loading. */
  let snapshotVersion = -1;
  const contentVersion = createContentVersion(() => readContentVersion(db, 'catalogue_content'));
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
          return bumpContentVersion(trx, 'catalogue_content');
        }),
      );
    },
    async seedIfEmpty(input) {
      assertValidCatalogue(input);
      const seeded = await db.transaction().execute(async (trx) => {
        // PostgreSQL: a second instance waits here until the first has committed its seed, then
        // finds it. (SQLite is one process, and its driver runs one transaction at a time.)
        if (isPostgres(trx)) {
          await sql`lock table service_groups in exclusive mode`.execute(trx);
        }
        if (await trx.selectFrom('service_groups').select('id').limit(1).executeTakeFirst()) return null;
        await writeCatalogue(trx, input);
        return bumpContentVersion(trx, 'catalogue_content');
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
    // Without a sale the phase is fixed: no clock read for every cached page.
    version: () => contentVersion.known() * 3 + (sale ? salePhase(sale, clock().getTime()) : salePhase(null, 0)),
    async subscriptionOffers() {
      const snap = await load();
      return subscriptionOffersOf([...snap.groupDetails.values()].flatMap((detail) => detail.services));
    },
    async serviceSlugs() {
      return [...(await load()).serviceToGroup.keys()];
    },
    contentVersion: contentVersion.read,
    wrote,
  };
}
