/**
 * What the editor refuses about a service's kind (decision 057): a kind that does not fit what the
 * buyer enters or its terms (serviceKindProblem), a tier mapped to a supplier service of the wrong
 * type, and a kind change while orders bought under the old kind are still running.
 */
import { ORDER_STATUSES } from '../../db/column-values.ts';
import { isSubscriptionKind } from '../subscriptions/terms.ts';
import { SUBSCRIPTION_TARGET_KINDS, serviceKindProblem } from './catalogue-writes.ts';
import type { EditorDb } from './editor-deps.ts';
import type { SupplierDirectory } from './editor-types.ts';
import { CATALOGUE_MESSAGES, type FieldError, type ServiceInput, termsOfInput } from './service-document.ts';

/** The panels' type for subscriptions (matched case-insensitively: panels spell it both ways). */
const SUBSCRIPTIONS_TYPE = 'subscriptions';

const count = new Intl.NumberFormat('en-US');

/** A tier as the owner reads it in a message: "100 likes", "50 followers a day", "Quantity 1,000". */
function tierName(input: ServiceInput, qty: number): string {
  if (input.kind === 'automatic_likes') return `${count.format(qty)} likes`;
  if (input.kind === 'daily_followers') return `${count.format(qty)} followers a day`;
  return `Quantity ${count.format(qty)}`;
}

/**
 * Per tier, a refusal when its supplier service is of the wrong type: automatic likes are a
 * panel subscription (services of type Subscriptions, asked with username, posts and expiry),
 * while a package or a drip-feed asks for a quantity on a link, which a Subscriptions service
 * does not take. A service the import does not know is not judged (as for the warnings): the
 * owner may map a panel that has not been imported yet.
 */
export async function supplierTypeErrors(suppliers: SupplierDirectory, input: ServiceInput): Promise<FieldError[]> {
  const errors: FieldError[] = [];
  const plural = input.plans.length > 1;
  for (const [p, plan] of input.plans.entries()) {
    for (const [t, tier] of plan.tiers.entries()) {
      const imported = await suppliers.findService(tier.supplierPanelId, tier.supplierServiceId);
      if (!imported) continue;
      const isSubscription = imported.type.trim().toLowerCase() === SUBSCRIPTIONS_TYPE;
      const wants = input.kind === 'automatic_likes';
      if (isSubscription === wants) continue;
      const where = `${plural ? `${plan.type} plan, ` : ''}${tierName(input, tier.qty)}: supplier service ${tier.supplierServiceId}`;
      const message = wants
        ? `${where} is a ${imported.type} service (${imported.name}), not a subscription; automatic likes need a Subscriptions service.`
        : `${where} is a Subscriptions service (${imported.name}), which serves new posts; ${
            input.kind === 'daily_followers' ? 'daily followers need' : 'a one-off package needs'
          } a service that delivers a quantity to a link.`;
      errors.push({ field: `plans.${p}.tiers.${t}.supplierServiceId`, message });
    }
  }
  return errors;
}

const sentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;

/** Paid orders of the service that have not reached a final status (Completed, Partial, Canceled). */
async function runningOrders(trx: EditorDb, slug: string): Promise<number> {
  const open = ORDER_STATUSES.filter((status) => !['Completed', 'Partial', 'Canceled'].includes(status));
  const row = await trx
    .selectFrom('orders')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
    .where('service_slug', '=', slug)
    .where('payment_status', '=', 'paid')
    .where('order_status', 'in', open)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * The kind against what the buyer enters and the terms, and a change of kind. Orders keep the
 * kind and terms they were bought with, so a change cannot alter them; but while one runs, the
 * customer's order and the service's page would describe two different things under one name,
 * and the owner would be cancelling or refunding by a rule the page no longer states. So the
 * kind changes only once every paid order of the service has finished; the terms (period,
 * posts, delay) may change at any time: they apply to orders bought after the save.
 */
export async function serviceKindErrors(
  trx: EditorDb,
  input: ServiceInput,
  current: { slug: string; kind: ServiceInput['kind'] } | null,
): Promise<FieldError[]> {
  const problem = serviceKindProblem(input.kind, input.targetKind, termsOfInput(input));
  if (problem) {
    const aboutTarget =
      isSubscriptionKind(input.kind) && !SUBSCRIPTION_TARGET_KINDS[input.kind].includes(input.targetKind);
    return [{ field: aboutTarget ? 'targetKind' : 'kind', message: sentence(problem) }];
  }
  if (current && current.kind !== input.kind) {
    const running = await runningOrders(trx, current.slug);
    if (running > 0) return [{ field: 'kind', message: CATALOGUE_MESSAGES.kindLocked(running) }];
  }
  return [];
}
