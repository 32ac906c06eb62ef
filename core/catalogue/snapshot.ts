/**
 * The catalogue as the public reads see it: one in-process snapshot of the published services,
 * loaded in one go after each change (./catalogue.ts keeps it), and the sale prices laid over it.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { readContentVersion } from '../content-version.ts';
import { sanitizeTitleHtml } from '../html/sanitize.ts';
import { e4ToNumber, numberToE4 } from '../money/money.ts';
import { bulkDiscountPercent } from './pricing.ts';
import { salePriceE4 } from './sale.ts';
import {
  DEFAULT_PERIOD_DAYS,
  DEFAULT_POSTS_PER_PERIOD,
  type ServiceKind,
  type ServiceTerms,
} from '../subscriptions/terms.ts';
import type { GroupDetailView, PlanType, ServiceGroupView, ServiceView, TargetKind } from './types.ts';

export interface Snapshot {
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

/** A service with `percent` off every tier (the list price kept in `listPrice`); as is for 0. */
export function withSalePrices(service: ServiceView, percent: number): ServiceView {
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

export async function loadSnapshot(db: Kysely<Database>): Promise<Snapshot> {
  // The version first: rows read after it are at least that new (a later write bumps it again).
  const version = await readContentVersion(db, 'catalogue_content');
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
      // Sanitised again as it is read: a title stored under an older, looser rule shows only bold and italic too.
      title: sanitizeTitleHtml(service.title_html),
      description: service.description,
      image: service.image,
      targetKind: service.target_kind as TargetKind,
      commentRequired: service.comment_required === 1,
      kind: service.kind,
      ...termsOf(service),
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

/** A subscription service's terms from its row; nothing for a package. */
export function termsOf(service: {
  kind: ServiceKind;
  period_days: number | null;
  posts_per_period: number | null;
  post_delay_minutes: number | null;
}): { terms?: ServiceTerms } {
  if (service.kind === 'package') return {};
  const periodDays = service.period_days ?? DEFAULT_PERIOD_DAYS;
  if (service.kind === 'daily_followers') return { terms: { periodDays } };
  return {
    terms: {
      periodDays,
      posts: service.posts_per_period ?? DEFAULT_POSTS_PER_PERIOD,
      delayMinutes: service.post_delay_minutes ?? 0,
    },
  };
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
