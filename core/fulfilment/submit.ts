/**
 * Paid orders go to the supplier panel. Safe to run again: only an order waiting to be sent
 * (`none`, `retry`) with no live supplier order is claimed; one found still `submitting` was
 * interrupted mid-call and is flagged for review, never resent (the panel has no idempotency key,
 * so a duplicate `add` costs real money).
 */
import { undeliveredQuantity } from '../orders/progress.ts';
import {
  INTERRUPTED_SUBMISSION_REASON,
  claimForSubmission,
  flagForReview,
  recordSubmission,
  recordSubmissionRefused,
  releaseEmptySubmission,
} from '../orders/transitions/index.ts';
import type { FulfilmentDeps } from './deps.ts';
import { SmmPanelError, isAmbiguousAddError, isRetryableSupplierError } from './smm-panel-client.ts';
import { factsOf, insertSupplierOrder, supplierOrdersOf } from './supplier-orders.ts';

/** Supplier refusals that can heal on their own (the owner tops up the balance). */
const RETRY_LATER = /balance|funds|try again|temporar|busy|too many/i;

/** A supplier refusal that retrying can fix: the job runs again later with backoff. */
export class RetryLaterError extends Error {}

export type SubmitOutcome = 'submitted' | 'skipped' | 'needs_review' | 'failed';

/** The order's comment field holds one supplier comment per line (custom comments services). */
function supplierComments(comment: string | null): string[] | undefined {
  if (!comment) return undefined;
  return comment
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

/**
 * Submits a paid order's undelivered quantity to its panel (job `order.fulfil`, and the admin
 * actions). Throws RetryLaterError when the panel refused for a reason that may heal.
 */
export async function submitOrder(deps: FulfilmentDeps, orderId: number): Promise<SubmitOutcome> {
  const { db, panels, now } = deps;
  // Before the claim: a panel that cannot be built (removed, key unreadable) leaves the order
  // unclaimed for the job's retry instead of stuck in `submitting`.
  const sold = await db.selectFrom('orders').select('supplier_panel_id').where('id', '=', orderId).executeTakeFirst();
  if (!sold) return 'skipped';
  const supplier = await panels.get(sold.supplier_panel_id);
  const at = now().toISOString();
  if (!(await claimForSubmission(db, orderId, at))) {
    const order = await db.selectFrom('orders').select('fulfilment_state').where('id', '=', orderId).executeTakeFirst();
    if (order?.fulfilment_state !== 'submitting') return 'skipped';
    await flagForReview(db, orderId, INTERRUPTED_SUBMISSION_REASON, at);
    return 'needs_review';
  }

  const order = await db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
  const earlier = await supplierOrdersOf(db, orderId);
  const quantity = undeliveredQuantity(order.quantity, earlier.map(factsOf));
  if (quantity <= 0) {
    await releaseEmptySubmission(db, orderId, now().toISOString());
    return 'skipped';
  }
  try {
    const { order: supplierOrderId } = await supplier.add({
      service: order.supplier_service_id,
      link: order.target,
      quantity,
      comments: supplierComments(order.comment),
    });
    const later = now().toISOString();
    await db.transaction().execute(async (trx) => {
      await insertSupplierOrder(trx, { orderId, supplierOrderId, quantity }, later);
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
    return 'failed';
  }
}
