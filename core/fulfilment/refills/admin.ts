/**
 * The admin's supplier actions on one order: a refill (any time after completion) and "Cancel at
 * supplier" for a running supplier order. An accepted cancel goes the way of decision 012: the
 * supplier order is marked cancel-requested, its final status (seen now or by the status sync)
 * re-derives the order, and the refund job pays back what was not delivered.
 */
import { REFILL_MESSAGES, type SupplierActionResult, type SupplierActions } from '../../orders/refill-contracts.ts';
import { recordOrderEvent } from '../../orders/timeline.ts';
import { SmmPanelError, isRetryableSupplierError } from '../smm-panel-client.ts';
import {
  type SupplierOrderRow,
  clearCancelRequest,
  liveSupplierOrderOf,
  markCancelRequested,
} from '../supplier-orders.ts';
import { askAndApplyStatus } from '../sync.ts';
import { type OrderRow, type RefillsDeps, eligibilityOf, findOrderForRefill, refillsOf } from './deps.ts';
import { requestRefill } from './request.ts';
import { RefillError, refillEntryOf } from './rules.ts';

async function cancelCheck(
  deps: RefillsDeps,
  order: OrderRow,
): Promise<{ allowed: true; live: SupplierOrderRow } | { allowed: false; reason: string }> {
  if (order.payment_status !== 'paid') return { allowed: false, reason: REFILL_MESSAGES.notPaid };
  const live = await liveSupplierOrderOf(deps.db, order.id);
  if (!live) return { allowed: false, reason: REFILL_MESSAGES.cancelRefused };
  if (live.cancel_requested_at !== null) return { allowed: false, reason: REFILL_MESSAGES.cancelPending };
  if (order.pending_action !== null) return { allowed: false, reason: REFILL_MESSAGES.cancelActionPending };
  const flags = await deps.serviceFlags(order);
  // Unknown flags (panel list unreadable): let the panel decide.
  if (flags && !flags.cancel) return { allowed: false, reason: REFILL_MESSAGES.cancelNotSupported };
  return { allowed: true, live };
}

async function actionsFor(deps: RefillsDeps, order: OrderRow): Promise<SupplierActions> {
  const rows = (await refillsOf(deps, [order.id])).get(order.id) ?? [];
  const refill = await eligibilityOf(deps, order, rows, false);
  const cancel = await cancelCheck(deps, order);
  return {
    refill: { allowed: refill.allowed, reason: refill.reason },
    cancel: cancel.allowed ? { allowed: true, reason: null } : { allowed: false, reason: cancel.reason },
    refills: rows.map(refillEntryOf),
  };
}

/** What the admin's order page offers: refill and cancel, each with its reason when refused. */
export async function adminSupplierActions(deps: RefillsDeps, providerOrderId: string): Promise<SupplierActions> {
  return actionsFor(deps, await findOrderForRefill(deps, providerOrderId));
}

export async function requestRefillByAdmin(
  deps: RefillsDeps,
  providerOrderId: string,
  adminId: number | null,
): Promise<SupplierActionResult> {
  const order = await findOrderForRefill(deps, providerOrderId);
  const { accepted, answer } = await requestRefill(deps, order, { kind: 'admin', adminId });
  return { accepted, answer, actions: await actionsFor(deps, order) };
}

/**
 * "Cancel at supplier": compare-and-set on the live supplier order's cancel mark (two admins, two
 * clicks: one call to the panel), then the panel's answer. Accepted: the final status is asked for
 * at once and applied (the refund of what was not delivered follows); the status sync does it
 * later otherwise.
 */
export async function cancelAtSupplierByAdmin(
  deps: RefillsDeps,
  providerOrderId: string,
  adminId: number | null,
): Promise<SupplierActionResult> {
  const order = await findOrderForRefill(deps, providerOrderId);
  const check = await cancelCheck(deps, order);
  if (!check.allowed) throw new RefillError(check.reason, 409);
  const { live } = check;
  const supplier = await deps.panels.get(order.supplier_panel_id);
  const at = deps.now().toISOString();
  if (!(await markCancelRequested(deps.db, live.id, at))) throw new RefillError(REFILL_MESSAGES.cancelPending, 409);

  let refusal: string | null;
  try {
    const [result] = await supplier.cancel([live.supplier_order_id]);
    refusal = !result
      ? 'The supplier sent no answer for this order'
      : result.cancelled
        ? null
        : (result.error ?? 'Not cancelled');
  } catch (error) {
    if (!(error instanceof SmmPanelError)) throw error;
    refusal = isRetryableSupplierError(error) ? REFILL_MESSAGES.unreachable(error.message) : error.message;
  }
  const done = deps.now().toISOString();
  if (refusal !== null) {
    await deps.db.transaction().execute(async (trx) => {
      await clearCancelRequest(trx, live.id, at);
      await recordOrderEvent(
        trx,
        order.id,
        'supplier.cancel_refused',
        { supplierOrderId: live.supplier_order_id, reason: refusal, by: 'admin', adminId },
        done,
      );
    });
    return { accepted: false, answer: refusal, actions: await actionsFor(deps, order) };
  }
  await recordOrderEvent(
    deps.db,
    order.id,
    'supplier.cancel_requested',
    { supplierOrderId: live.supplier_order_id, by: 'admin', adminId },
    done,
  );
  try {
    await askAndApplyStatus(deps, live.id);
  } catch (error) {
    if (!(error instanceof SmmPanelError)) throw error; // the sync asks again
  }
  return {
    accepted: true,
    answer: `The supplier accepted the cancel of order ${live.supplier_order_id}`,
    actions: await actionsFor(deps, await findOrderForRefill(deps, order.provider_order_id)),
  };
}
