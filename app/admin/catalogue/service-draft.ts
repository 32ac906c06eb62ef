/**
 * The service editor's draft (decision 044) as a pure reducer: every change the form makes to the
 * service it is editing, and the field paths its messages are named by ("plans.0.tiers.2.price",
 * the API's `errors: [{ field, message }]`). No React: tests/unit/service-draft.test.ts runs it.
 */
import type { PlanType } from '../../../core/catalogue/types.ts';
import type { ServiceDocument, ServiceInput } from '../../../core/catalogue/service-document.ts';
import { DEFAULT_PERIOD_DAYS, DEFAULT_POSTS_PER_PERIOD, type ServiceKind } from '../../../core/subscriptions/terms.ts';

export type Plan = ServiceInput['plans'][number];
export type Tier = Plan['tiers'][number];

export const emptyTier = (): Tier => ({
  qty: 100,
  text: '',
  price: '',
  discount: 0,
  supplierPanelId: 1,
  supplierServiceId: '',
});

export const emptyPlan = (type: PlanType): Plan => ({
  type,
  title: `${type} plan`,
  icon: `/images/plans/${type.toLowerCase()}.svg`,
  currency: '$',
  options: [],
  tiers: [emptyTier()],
});

export const NEW_SERVICE: ServiceInput = {
  slug: '',
  name: '',
  titleHtml: '',
  description: '',
  image: '',
  targetKind: 'instagram_username',
  commentRequired: false,
  status: 'draft',
  kind: 'package',
  plans: [emptyPlan('Standard')],
};

export type Terms = NonNullable<ServiceInput['terms']>;

/**
 * The terms a kind starts with when the owner chooses it: the ones already in the draft where
 * they apply, the store's defaults (a 30-day period, 30 posts, no delay) otherwise.
 */
export function termsForKind(kind: ServiceKind, terms: ServiceInput['terms']): ServiceInput['terms'] {
  if (kind === 'package') return undefined;
  const periodDays = terms?.periodDays ?? DEFAULT_PERIOD_DAYS;
  if (kind === 'daily_followers') return { periodDays };
  return { periodDays, posts: terms?.posts ?? DEFAULT_POSTS_PER_PERIOD, delayMinutes: terms?.delayMinutes ?? 0 };
}

/** A subscription is bought for a username: a link-based choice moves to the same network's username. */
function targetForKind(kind: ServiceKind, target: ServiceInput['targetKind']): ServiceInput['targetKind'] {
  if (kind === 'package' || target.endsWith('_username')) return target;
  return target.startsWith('tiktok') ? 'tiktok_username' : 'instagram_username';
}

/** What the editor edits of a stored service: its input fields, without what the store keeps. */
export function inputOf(document: ServiceDocument): ServiceInput {
  const { groupSlug: _group, revision: _revision, publishedAt: _published, ...input } = document;
  return input;
}

/** The service's own fields, other than its plans, that a change sets one at a time. */
export type ServiceFieldKey = Exclude<keyof ServiceInput, 'plans' | 'kind' | 'terms'>;

export type ServiceDraftAction =
  | { [Key in ServiceFieldKey]: { type: 'field'; key: Key; value: ServiceInput[Key] } }[ServiceFieldKey]
  /** What the service sells: its terms follow (defaults for a new subscription kind, none for a package). */
  | { type: 'kind'; kind: ServiceKind }
  | { type: 'terms'; change: Partial<Terms> }
  | { type: 'plan'; plan: number; change: Partial<Omit<Plan, 'type' | 'tiers'>> }
  | { type: 'planAdded'; planType: PlanType }
  | { type: 'planRemoved'; plan: number }
  | { type: 'planMoved'; plan: number; direction: 'up' | 'down' }
  | { type: 'tier'; plan: number; tier: number; change: Partial<Tier> }
  | { type: 'tierAdded'; plan: number }
  | { type: 'tierRemoved'; plan: number; tier: number }
  /** The markup tool priced the plan's tiers. */
  | { type: 'tiersPriced'; plan: number; tiers: Tier[] }
  /** A save answered the stored service: the draft starts again from it. */
  | { type: 'saved'; service: ServiceInput };

const replaceAt = <Item>(items: readonly Item[], index: number, change: (item: Item) => Item): Item[] =>
  items.map((item, at) => (at === index ? change(item) : item));

export function serviceDraftReducer(service: ServiceInput, action: ServiceDraftAction): ServiceInput {
  switch (action.type) {
    case 'field':
      return { ...service, [action.key]: action.value };
    case 'kind': {
      const { terms: _terms, ...rest } = service;
      const terms = termsForKind(action.kind, service.terms);
      return {
        ...rest,
        kind: action.kind,
        targetKind: targetForKind(action.kind, service.targetKind),
        ...(terms ? { terms } : {}),
      };
    }
    case 'terms':
      if (!service.terms) return service;
      return { ...service, terms: { ...service.terms, ...action.change } };
    case 'plan':
      return { ...service, plans: replaceAt(service.plans, action.plan, (plan) => ({ ...plan, ...action.change })) };
    case 'planAdded':
      // Each plan type once per service (the schema refuses a second).
      if (service.plans.some((plan) => plan.type === action.planType)) return service;
      return { ...service, plans: [...service.plans, emptyPlan(action.planType)] };
    case 'planRemoved':
      // A service keeps at least one plan.
      if (service.plans.length <= 1) return service;
      return { ...service, plans: service.plans.filter((_, at) => at !== action.plan) };
    case 'planMoved': {
      // The store shows plans in the list's order: the save writes each plan's position from it.
      const other = action.direction === 'up' ? action.plan - 1 : action.plan + 1;
      const moved = service.plans[action.plan];
      const neighbour = service.plans[other];
      if (!moved || !neighbour) return service;
      const plans = [...service.plans];
      plans[other] = moved;
      plans[action.plan] = neighbour;
      return { ...service, plans };
    }
    case 'tier':
      return {
        ...service,
        plans: replaceAt(service.plans, action.plan, (plan) => ({
          ...plan,
          tiers: replaceAt(plan.tiers, action.tier, (tier) => ({ ...tier, ...action.change })),
        })),
      };
    case 'tierAdded':
      return {
        ...service,
        plans: replaceAt(service.plans, action.plan, (plan) => ({ ...plan, tiers: [...plan.tiers, emptyTier()] })),
      };
    case 'tierRemoved':
      // A plan keeps at least one tier.
      if ((service.plans[action.plan]?.tiers.length ?? 0) <= 1) return service;
      return {
        ...service,
        plans: replaceAt(service.plans, action.plan, (plan) => ({
          ...plan,
          tiers: plan.tiers.filter((_, at) => at !== action.tier),
        })),
      };
    case 'tiersPriced':
      return { ...service, plans: replaceAt(service.plans, action.plan, (plan) => ({ ...plan, tiers: action.tiers })) };
    case 'saved':
      return action.service;
  }
}

const TIER_FIELDS = ['qty', 'text', 'price', 'discount', 'supplierPanelId', 'supplierServiceId'] as const;
const PLAN_FIELDS = ['type', 'title', 'icon', 'currency', 'options', 'tiers'] as const;
const SERVICE_FIELDS = [
  'name',
  'slug',
  'titleHtml',
  'description',
  'image',
  'kind',
  'targetKind',
  'status',
  'terms.periodDays',
  'terms.posts',
  'terms.delayMinutes',
  'plans',
] as const;

/**
 * Every place the editor shows a message, in the form's order: the paths the schema and the API
 * name fields by. A message for any other path is shown in the form's banner.
 */
export function draftFieldPaths(service: ServiceInput): string[] {
  const paths: string[] = [...SERVICE_FIELDS];
  service.plans.forEach((plan, p) => {
    for (const field of PLAN_FIELDS) paths.push(`plans.${p}.${field}`);
    plan.tiers.forEach((_, t) => {
      for (const field of TIER_FIELDS) paths.push(`plans.${p}.tiers.${t}.${field}`);
    });
  });
  return paths;
}
