/**
 * Writing the catalogue's rows: the whole catalogue at once (the seed, `replaceCatalogue`) after
 * checking it, and one service's plans and tiers (shared with the editor's saves).
 */
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { sanitizeTitleHtml } from '../html/sanitize.ts';
import { parseAmountE4 } from '../money/money.ts';
import {
  DEFAULT_PERIOD_DAYS,
  DEFAULT_POSTS_PER_PERIOD,
  PERIOD_DAYS_MAX,
  PERIOD_DAYS_MIN,
  POSTS_PER_PERIOD_MAX,
  POST_DELAY_MINUTES,
  SERVICE_KINDS,
  SERVICE_KIND_LABELS,
  type ServiceKind,
  type ServiceTerms,
  type SubscriptionKind,
} from '../subscriptions/terms.ts';
import { type CatalogueInput, PLAN_TYPES, TARGET_KINDS, type TargetKind } from './types.ts';

export class CatalogueError extends Error {}

/** Throws a CatalogueError naming the first thing wrong with the input. */
export function assertValidCatalogue(input: CatalogueInput): void {
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
      const kindProblem = serviceKindProblem(service.kind ?? 'package', service.targetKind, service.terms);
      if (kindProblem) fail(`${service.slug}: ${kindProblem}`);
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

/** What buyers of each subscription kind enter: the account whose posts or followers it serves. */
export const SUBSCRIPTION_TARGET_KINDS: Readonly<Record<SubscriptionKind, readonly TargetKind[]>> = {
  automatic_likes: ['instagram_username', 'tiktok_username'],
  daily_followers: ['instagram_username', 'tiktok_username'],
};

/** The first thing wrong with a service's kind, target and terms together; undefined when none. */
export function serviceKindProblem(kind: ServiceKind, targetKind: TargetKind, terms: ServiceTerms | undefined) {
  if (!SERVICE_KINDS.includes(kind)) return 'unknown kind';
  if (kind === 'package') return undefined;
  if (!SUBSCRIPTION_TARGET_KINDS[kind].includes(targetKind))
    return `${SERVICE_KIND_LABELS[kind]} are sold for an Instagram or TikTok username`;
  if (!terms) return 'a subscription needs its terms';
  const whole = (value: number, min: number, max: number) => Number.isInteger(value) && value >= min && value <= max;
  if (!whole(terms.periodDays, PERIOD_DAYS_MIN, PERIOD_DAYS_MAX))
    return `the period is ${PERIOD_DAYS_MIN} to ${PERIOD_DAYS_MAX} days`;
  if (kind === 'automatic_likes') {
    if (terms.posts === undefined || !whole(terms.posts, 1, POSTS_PER_PERIOD_MAX))
      return `the posts per period are 1 to ${POSTS_PER_PERIOD_MAX}`;
    if (!(POST_DELAY_MINUTES as readonly number[]).includes(terms.delayMinutes ?? 0))
      return `the delay after a post is one of ${POST_DELAY_MINUTES.join(', ')} minutes`;
  }
  return undefined;
}

/** A service row's kind and terms columns. */
export function serviceKindColumns(kind: ServiceKind, terms: ServiceTerms | undefined) {
  return {
    kind,
    period_days: kind === 'package' ? null : (terms?.periodDays ?? DEFAULT_PERIOD_DAYS),
    posts_per_period: kind === 'automatic_likes' ? (terms?.posts ?? DEFAULT_POSTS_PER_PERIOD) : null,
    post_delay_minutes: kind === 'automatic_likes' ? (terms?.delayMinutes ?? 0) : null,
  };
}

/** Replaces the whole catalogue within the caller's transaction (the input already checked). */
export async function writeCatalogue(trx: Transaction<Database>, input: CatalogueInput): Promise<void> {
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
          title_html: sanitizeTitleHtml(service.titleHtml),
          description: service.description,
          image: service.image,
          target_kind: service.targetKind,
          comment_required: service.commentRequired ? 1 : 0,
          ...serviceKindColumns(service.kind ?? 'package', service.terms),
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
export type PlanRowsInput = (Omit<CatalogueInput['groups'][number]['services'][number]['plans'][number], 'tiers'> & {
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
