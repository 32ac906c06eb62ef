/**
 * The catalogue editor's reads: every group with its services as the catalogue page lists them,
 * and one service in full. Drafts included: the public reads (./catalogue.ts) never show them.
 */
import { e4ToNumber } from '../money/money.ts';
import type { CatalogueEditorDeps, EditorDb } from './editor-deps.ts';
import type { AdminGroupRow } from './editor-types.ts';
import { formatE4 } from './markup.ts';
import type { ServiceDocument } from './service-document.ts';
import { termsOf } from './snapshot.ts';
import type { PlanType, TargetKind } from './types.ts';

/** Every group in order, each service with its plans' price ranges. */
export async function listEditorGroups({ db }: Pick<CatalogueEditorDeps, 'db'>): Promise<AdminGroupRow[]> {
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
        kind: service.kind,
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
}

/** One service with its plans and tiers as the editor shows it (drafts included). */
export async function loadServiceDocument(db: EditorDb, slug: string): Promise<ServiceDocument | null> {
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
    kind: service.kind,
    ...termsOf(service),
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
  // One field per tier and property ("100 Followers (Standard): price"), so changing one price
  // logs that price alone, not every tier of its plan.
  const tierFields: Record<string, unknown> = {};
  for (const plan of plans) {
    for (const tier of plan.tiers) {
      const name = `${tier.text || `${tier.qty}`} (${plan.type})`;
      tierFields[`${name}: price`] = `${plan.currency}${tier.price}`;
      tierFields[`${name}: discount`] = `${tier.discount}%`;
      tierFields[`${name}: supplier service`] = `panel ${tier.supplierPanelId}, service ${tier.supplierServiceId}`;
    }
  }
  return {
    ...fields,
    plans: plans.map(({ tiers: _tiers, ...plan }) => plan),
    ...tierFields,
  };
}
