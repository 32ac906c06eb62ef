/**
 * Package selection rules of spec section 4: selecting a service selects its first plan and
 * that plan's first tier; selecting a plan selects its first tier.
 */
import type { PlanType, PlanView, PriceTierView, ServiceView } from '../core/catalog/types.ts';

export interface Selection {
  service: string;
  plan: PlanType;
  qty: number;
}

export function selectService(service: ServiceView): Selection {
  const plan = service.plans[0];
  return { service: service.slug, plan: plan.type, qty: plan.list[0].qty };
}

export function selectPlan(service: ServiceView, type: PlanType): Selection {
  const plan = service.plans.find((p) => p.type === type) ?? service.plans[0];
  return { service: service.slug, plan: plan.type, qty: plan.list[0].qty };
}

export function resolveSelection(
  services: ServiceView[],
  selection: Selection,
): { service: ServiceView; plan: PlanView; tier: PriceTierView } {
  const service = services.find((s) => s.slug === selection.service) ?? services[0];
  const plan = service.plans.find((p) => p.type === selection.plan) ?? service.plans[0];
  const tier = plan.list.find((t) => t.qty === selection.qty) ?? plan.list[0];
  return { service, plan, tier };
}
