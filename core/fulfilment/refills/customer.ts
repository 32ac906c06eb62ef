/** The customer's side of refills: what /client shows for each Completed order, and the request. */
import { type CustomerRefill, REFILL_MESSAGES } from '../../orders/refill-contracts.ts';
import { type RefillsDeps, eligibilityOf, findOrderForRefill, refillsOf } from './deps.ts';
import { requestRefill } from './request.ts';
import { RefillError, refillEntryOf } from './rules.ts';
import { isRefillTokenValid, issueRefillToken } from './tokens.ts';

/** The refill section of each Completed order in a verified /client lookup, by provider order id. */
export async function customerRefillViews(
  deps: RefillsDeps,
  email: string,
  providerOrderIds: string[],
): Promise<Map<string, CustomerRefill>> {
  const views = new Map<string, CustomerRefill>();
  if (providerOrderIds.length === 0) return views;
  const orders = await deps.db
    .selectFrom('orders')
    .selectAll()
    .where('email', '=', email)
    .where('order_status', '=', 'Completed')
    .where('provider_order_id', 'in', providerOrderIds)
    .execute();
  const byOrder = await refillsOf(
    deps,
    orders.map((o) => o.id),
  );
  for (const order of orders) {
    const rows = byOrder.get(order.id) ?? [];
    const check = await eligibilityOf(deps, order, rows, true);
    const latest = rows[0];
    views.set(order.provider_order_id, {
      latest: latest ? refillEntryOf(latest) : null,
      canRequest: check.allowed,
      // "Only completed orders…" cannot happen here; the other reasons help the customer.
      reason: check.reason,
      windowEndsAt: check.windowEndsAt,
      token: check.allowed
        ? issueRefillToken(deps.tokenKey, deps.now().getTime(), order.provider_order_id, order.email)
        : null,
    });
  }
  return views;
}

/** The customer's "Request refill": the token proves the order list was read with the code. */
export async function requestRefillByCustomer(
  deps: RefillsDeps,
  providerOrderId: string,
  token: string,
): Promise<CustomerRefill> {
  const order = await findOrderForRefill(deps, providerOrderId).catch(() => {
    // Same answer as a bad token: the endpoint says nothing about which orders exist.
    throw new RefillError(REFILL_MESSAGES.badToken, 403);
  });
  if (!isRefillTokenValid(deps.tokenKey, deps.now().getTime(), token, order))
    throw new RefillError(REFILL_MESSAGES.badToken, 403);
  await requestRefill(deps, order, { kind: 'customer' });
  const view = (await customerRefillViews(deps, order.email, [order.provider_order_id])).get(order.provider_order_id);
  if (!view) throw new RefillError(REFILL_MESSAGES.notCompleted, 409);
  return view;
}
