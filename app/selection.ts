/**
 * Package selection rules of spec section 4: selecting a service selects its first plan and
 * that plan's first tier; selecting a plan selects its first tier.
 */
import type { PlanType, PlanView, PriceTierView } from '../core/catalogue/types.ts';

/** What choosing needs of a plan and a service: the home page sends its chooser no more (routes/home.tsx). */
type ChoosablePlan = Pick<PlanView, 'type' | 'list'>;
interface ChoosableService {
  slug: string;
  plans: ChoosablePlan[];
}

export interface Selection {
  service: string;
  plan: PlanType;
  qty: number;
}

/**
 * The first item of a catalogue list that is never empty: the catalogue refuses a service
 * without plans and a plan without tiers, and answers no group without services
 * (core/catalogue/catalogue.ts). The types cannot say so, hence the check.
 */
function firstOf<T>(items: readonly T[], what: string): T {
  const [first] = items;
  if (first === undefined) throw new Error(`The catalogue sent ${what} without any entries`);
  return first;
}

function firstTier(plan: ChoosablePlan): PriceTierView {
  return firstOf(plan.list, `plan ${plan.type}`);
}

export function selectService(service: ChoosableService): Selection {
  const plan = firstOf(service.plans, `service ${service.slug}`);
  return { service: service.slug, plan: plan.type, qty: firstTier(plan).qty };
}

/** Selects the service named `slug`, or the list's first service when it has no such one. */
export function selectServiceIn(services: readonly ChoosableService[], slug?: string): Selection {
  return selectService(services.find((s) => s.slug === slug) ?? firstOf(services, 'a service group'));
}

export function selectPlan(service: ChoosableService, type: PlanType): Selection {
  const plan = service.plans.find((p) => p.type === type) ?? firstOf(service.plans, `service ${service.slug}`);
  return { service: service.slug, plan: plan.type, qty: firstTier(plan).qty };
}

export function resolveSelection<Service extends ChoosableService>(
  services: readonly Service[],
  selection: Selection,
): { service: Service; plan: Service['plans'][number]; tier: PriceTierView } {
  const service = services.find((s) => s.slug === selection.service) ?? firstOf(services, 'a service group');
  const plan =
    service.plans.find((p) => p.type === selection.plan) ?? firstOf(service.plans, `service ${service.slug}`);
  const tier = plan.list.find((t) => t.qty === selection.qty) ?? firstTier(plan);
  return { service, plan, tier };
}
