/**
 * Ending a running subscription (automatic likes) or drip-feed (daily followers) before its
 * period is over, asked by the customer from /client or by the store from the order detail
 * (decision 057). The panel is asked to cancel; who asked is recorded and becomes the end reason
 * once the panel confirms the end, which the status sync (or the status asked right after the
 * cancel) applies like any other: the order turns final, its lane frees, and the refund by the
 * rule follows from that status change. A panel that refuses leaves the subscription running and
 * the order flagged for the owner with the panel's words.
 */
import type { Selectable } from 'kysely';
import type { OrdersTable } from '../../db/schema.ts';
import { formatMoney, e4ToNumber } from '../money/money.ts';
import { isFinalStatus } from '../orders/status.ts';
import { recordOrderEvent } from '../orders/timeline.ts';
import { flagCancelRefused } from '../orders/transitions/index.ts';
import { providerOrderIdFrom } from '../orders/types.ts';
import {
  SUBSCRIPTION_CANCEL_MESSAGES as MESSAGES,
  type SubscriptionCancelResult,
  type SubscriptionCancelledBy,
} from '../subscriptions/contracts.ts';
import { refundOwedForOrderE4, subscriptionOf } from '../orders/subscription-delivery.ts';
import { clearEndRequest, markEndRequested } from '../subscriptions/records.ts';
import { cancelAtSupplier } from './admin-actions.ts';
import type { FulfilmentDeps } from './deps.ts';
import { isRefillTokenValid } from './refills/tokens.ts';
import { SmmPanelError } from './smm-panel-client.ts';
import { clearCancelRequest, liveSupplierOrderOf, markCancelRequested } from './supplier-orders.ts';
import { askAndApplyStatus } from './sync.ts';

/** A refusal the API answers with its status and message (read by server/api/errors.ts). */
export class SubscriptionCancelError extends Error {
  readonly expose = true;
  constructor(
    message: string,
    readonly statusCode: 403 | 404 | 409,
  ) {
    super(message);
    this.name = 'SubscriptionCancelError';
  }
}

export interface SubscriptionCancelDeps extends FulfilmentDeps {
  /** Signs the /client per-order tokens (the refill token's key: the same proof). */
  tokenKey: string;
}

type OrderRow = Selectable<OrdersTable>;

/** What the ended subscription gets back, in words, by the rule (the refund job makes it). */
async function endedMessage(deps: FulfilmentDeps, orderId: number): Promise<string> {
  const order = await deps.db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
  const dueE4 = await refundOwedForOrderE4(deps.db, order, order.remains);
  if (dueE4 <= 0)
    return 'The subscription has ended. Nothing is left to refund: it was all served or its time had run out.';
  const amount = formatMoney(e4ToNumber(dueE4), order.currency);
  return `The subscription has ended. ${amount}, the part that was not served, will be refunded.`;
}

/** True when the order's subscription has ended (the supplier confirmed it). */
async function hasEnded(deps: FulfilmentDeps, orderId: number): Promise<boolean> {
  return (await subscriptionOf(deps.db, orderId))?.ended_at != null;
}

/** Asks the panel for the status now (most panels cancel at once); the sync asks again otherwise. */
async function askNow(deps: FulfilmentDeps, supplierOrderRowId: number): Promise<void> {
  try {
    await askAndApplyStatus(deps, supplierOrderRowId);
  } catch (error) {
    if (!(error instanceof SmmPanelError)) throw error;
  }
}

async function reply(deps: FulfilmentDeps, orderId: number, notYet: string): Promise<SubscriptionCancelResult> {
  return (await hasEnded(deps, orderId))
    ? { ended: true, message: await endedMessage(deps, orderId) }
    : { ended: false, message: notYet };
}

/**
 * Cancels the order's running subscription at the supplier. 409 when it is not a subscription
 * or not running (not sent yet, queued, ended, final).
 */
export async function cancelSubscription(
  deps: FulfilmentDeps,
  order: OrderRow,
  by: SubscriptionCancelledBy,
): Promise<SubscriptionCancelResult> {
  if (order.kind === 'package') throw new SubscriptionCancelError(MESSAGES.notSubscription, 409);
  const subscription = await subscriptionOf(deps.db, order.id);
  const live = await liveSupplierOrderOf(deps.db, order.id);
  if (!subscription || subscription.ended_at !== null || !live || isFinalStatus(order.order_status))
    throw new SubscriptionCancelError(MESSAGES.notRunning, 409);
  const at = deps.now().toISOString();
  const marked = await deps.db.transaction().execute(async (trx) => {
    if (!(await markCancelRequested(trx, live.id, at))) return false;
    await markEndRequested(trx, order.id, by);
    await recordOrderEvent(
      trx,
      order.id,
      'supplier.cancel_requested',
      { supplierOrderId: live.supplier_order_id, by },
      at,
    );
    return true;
  });
  if (!marked) {
    // Asked before (a second click, or the other side): the panel's answer may be in by now.
    await askNow(deps, live.id);
    return reply(deps, order.id, MESSAGES.pending);
  }
  const supplier = await deps.panels.get(order.supplier_panel_id);
  let refusal: string | null;
  try {
    refusal = await cancelAtSupplier(supplier, live.supplier_order_id);
  } catch (error) {
    // The panel could not be reached: nothing was cancelled, and asking again later can work.
    await clearCancelRequest(deps.db, live.id, at);
    await clearEndRequest(deps.db, order.id, by);
    if (!(error instanceof SmmPanelError)) throw error;
    return { ended: false, message: MESSAGES.unreachable };
  }
  if (refusal !== null) {
    const done = deps.now().toISOString();
    await clearCancelRequest(deps.db, live.id, at);
    await clearEndRequest(deps.db, order.id, by);
    await flagCancelRefused(
      deps.db,
      { orderId: order.id, supplierOrderId: live.supplier_order_id, reason: refusal, by },
      done,
    );
    return { ended: false, message: MESSAGES.refused(refusal) };
  }
  await askNow(deps, live.id);
  return reply(deps, order.id, MESSAGES.askedNotConfirmed);
}

async function orderByPublicId(deps: FulfilmentDeps, publicId: string): Promise<OrderRow | undefined> {
  return deps.db
    .selectFrom('orders')
    .selectAll()
    .where('provider_order_id', '=', providerOrderIdFrom(publicId.trim()))
    .executeTakeFirst();
}

/** The customer's cancel from /client: the token proves the order list was read with the code. */
export async function cancelSubscriptionByCustomer(
  deps: SubscriptionCancelDeps,
  publicOrderId: string,
  token: string,
): Promise<SubscriptionCancelResult> {
  const order = await orderByPublicId(deps, publicOrderId);
  // A bad token and an unknown order get the same answer: nothing says which orders exist.
  if (!order || !isRefillTokenValid(deps.tokenKey, deps.now().getTime(), token, order))
    throw new SubscriptionCancelError(MESSAGES.badToken, 403);
  return cancelSubscription(deps, order, 'customer');
}

/** The store's cancel from the order detail (owner or support). */
export async function cancelSubscriptionByOwner(
  deps: FulfilmentDeps,
  publicOrderId: string,
): Promise<SubscriptionCancelResult> {
  const order = await orderByPublicId(deps, publicOrderId);
  if (!order) throw new SubscriptionCancelError(MESSAGES.notFound, 404);
  return cancelSubscription(deps, order, 'owner');
}

/** The two cancels over one set of deps, for the API. */
export function bindSubscriptionCancels(deps: SubscriptionCancelDeps) {
  return {
    byCustomer: (publicOrderId: string, token: string) => cancelSubscriptionByCustomer(deps, publicOrderId, token),
    byOwner: (publicOrderId: string) => cancelSubscriptionByOwner(deps, publicOrderId),
  };
}

export type SubscriptionCancels = ReturnType<typeof bindSubscriptionCancels>;
