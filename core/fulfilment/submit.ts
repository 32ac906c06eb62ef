/**
 * Paid orders go to the supplier panel. Safe to run again: only an order waiting to be sent
 * (`none`, `retry`, `queued`) with no live supplier order is claimed; one found still
 * `submitting` was interrupted mid-call and is flagged for review, never resent (the panel has no
 * idempotency key, so a duplicate `add` costs real money).
 *
 * Before the claim the order takes its link's lane (./lanes.ts): while another live order holds
 * it, the order is `queued` and is sent when that one finishes. A subscription's period starts
 * when it reaches the supplier: its dates are recorded with the submission (decision 057).
 */
import { PermanentJobError } from '../jobs/worker.ts';
import {
  INTERRUPTED_SUBMISSION_REASON,
  claimForSubmission,
  flagForReview,
  recordSubmission,
  recordSubmissionRefused,
  releaseEmptySubmission,
} from '../orders/transitions/index.ts';
import { subscriptionOf } from '../orders/subscription-delivery.ts';
import { recordSubscriptionStart } from '../subscriptions/records.ts';
import type { FulfilmentDeps } from './deps.ts';
import { isLiveOnLane, releaseLane, takeLaneOrQueue } from './lanes.ts';
import { SmmPanelError, isAmbiguousAddError, isRetryableSupplierError } from './smm-panel-client.ts';
import { MissingTermsError, supplierRequestFor } from './supplier-request.ts';
import { factsOf, insertSupplierOrder, supplierOrdersOf } from './supplier-orders.ts';

/** Supplier refusals that can heal on their own (the owner tops up the balance). */
const RETRY_LATER = /balance|funds|try again|temporar|busy|too many/i;

/** A supplier refusal that retrying can fix: the job runs again later with backoff. */
export class RetryLaterError extends Error {}

export type SubmitOutcome = 'submitted' | 'skipped' | 'queued' | 'needs_review' | 'failed';

const WAITING_TO_BE_SENT = new Set(['none', 'retry', 'queued']);

/**
 * A run that could not claim the order: one left `submitting` is flagged; one that holds its lane
 * without being live any more (refunded or ended while it waited) passes the lane on.
 */
async function notClaimed(deps: FulfilmentDeps, orderId: number, at: string): Promise<SubmitOutcome> {
  const order = await deps.db
    .selectFrom('orders')
    .leftJoin('subscriptions', 'subscriptions.order_id', 'orders.id')
    .select(['orders.payment_status', 'orders.order_status', 'orders.fulfilment_state', 'subscriptions.ended_at'])
    .where('orders.id', '=', orderId)
    .executeTakeFirst();
  if (order?.fulfilment_state === 'submitting') {
    await flagForReview(deps.db, orderId, INTERRUPTED_SUBMISSION_REASON, at);
    return 'needs_review';
  }
  if (order && !isLiveOnLane(order)) await releaseLane(deps.db, orderId);
  return 'skipped';
}

/**
 * Submits a paid order to its panel (job `order.fulfil`, its wake-ups from the lane queue, and
 * the admin actions). Throws RetryLaterError when the panel refused for a reason that may heal.
 */
export async function submitOrder(deps: FulfilmentDeps, orderId: number): Promise<SubmitOutcome> {
  const { db, panels, now } = deps;
  // Before the claim: a panel that cannot be built (removed, key unreadable) leaves the order
  // unclaimed for the job's retry instead of stuck in `submitting`.
  const sold = await db
    .selectFrom('orders')
    .select(['id', 'supplier_panel_id', 'payment_status', 'fulfilment_state', 'lane_key'])
    .where('id', '=', orderId)
    .executeTakeFirst();
  if (!sold) return 'skipped';
  const supplier = await panels.get(sold.supplier_panel_id);
  const at = now().toISOString();
  if (sold.payment_status === 'paid' && WAITING_TO_BE_SENT.has(sold.fulfilment_state)) {
    if ((await takeLaneOrQueue(db, sold, at)) === 'queued') return 'queued';
  }
  if (!(await claimForSubmission(db, orderId, at))) return notClaimed(deps, orderId, at);

  const order = await db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
  const earlier = await supplierOrdersOf(db, orderId);
  const subscription = order.kind === 'package' ? undefined : await subscriptionOf(db, orderId);
  let request;
  try {
    request = supplierRequestFor(order, subscription, earlier.map(factsOf), now());
  } catch (error) {
    if (!(error instanceof MissingTermsError)) throw error;
    await recordSubmissionRefused(db, { orderId, message: error.message, retry: false, quantity: 0 }, at);
    await releaseLane(db, orderId);
    throw new PermanentJobError(error.message);
  }
  if (request === null) {
    await releaseEmptySubmission(db, orderId, now().toISOString());
    return 'skipped';
  }
  const { quantity, period } = request;
  try {
    const { order: supplierOrderId } = await supplier.add(request.order);
    const later = now().toISOString();
    await db.transaction().execute(async (trx) => {
      await insertSupplierOrder(trx, { orderId, supplierOrderId, quantity }, later);
      if (period) await recordSubscriptionStart(trx, orderId, period);
      await recordSubmission(
        trx,
        {
          orderId,
          supplierOrderId,
          quantity,
          from: order.order_status,
          previousSupplierOrderIds: earlier.map((s) => s.supplier_order_id),
        },
        later,
      );
    });
    return 'submitted';
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const later = now().toISOString();
    if (isAmbiguousAddError(error)) {
      await flagForReview(
        db,
        orderId,
        `The supplier did not answer clearly (${message}); the order may or may not exist there.`,
        later,
      );
      return 'needs_review';
    }
    const retry = error instanceof SmmPanelError && (isRetryableSupplierError(error) || RETRY_LATER.test(message));
    await recordSubmissionRefused(db, { orderId, message, retry, quantity }, later);
    if (retry) throw new RetryLaterError(message);
    // Refused for good: the link is free for the next order waiting on it.
    await releaseLane(db, orderId);
    return 'failed';
  }
}
