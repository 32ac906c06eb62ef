/**
 * The jobs behind the admin's reorder and apply-service (decision 012). The console marks the
 * order and enqueues the job (core/admin/orders-actions.ts); these run it and end it, with the
 * result on the timeline. Each run first checks that its attempt is still the order's current
 * one, so a stale or repeated job does nothing.
 */
import type { Selectable } from 'kysely';
import type { OrdersTable } from '../../db/schema.ts';
import { undeliveredQuantity } from '../orders/progress.ts';
import type { PendingAction } from '../orders/status.ts';
import { recordOrderEvent } from '../orders/timeline.ts';
import { finishAdminAction, reopenForResend } from '../orders/transitions/index.ts';
import { deliveryQuantityOfOrder } from '../orders/subscription-delivery.ts';
import type { FulfilmentDeps } from './deps.ts';
import { type AdminActionPayload, adminActionDedupeKey } from './jobs.ts';
import { SmmPanelError, isRetryableSupplierError } from './smm-panel-client.ts';
import { submitOrder } from './submit.ts';
import type { SupplierPanel } from './supplier.ts';
import { askAndApplyStatus } from './sync.ts';
import {
  factsOf,
  liveSupplierOrderOf,
  markCancelRequested,
  rederiveOrder,
  supplierOrdersOf,
} from './supplier-orders.ts';

type OrderRow = Selectable<OrdersTable>;
/** The job row's counters: on its last attempt a failure still ends the action. */
type JobAttempts = { attempts: number; max_attempts: number };

const CHANGED_MEANWHILE = 'The order changed in the meantime.';

/** Ends an action's attempt with its result, then re-derives the order (it may be settled now). */
async function finish(
  deps: FulfilmentDeps,
  action: PendingAction,
  payload: AdminActionPayload,
  outcome: 'done' | 'failed',
  detail: Record<string, unknown>,
): Promise<void> {
  const at = deps.now().toISOString();
  const attempt = { orderId: payload.orderId, action, attempt: payload.attempt, adminId: payload.adminId };
  await deps.db.transaction().execute(async (trx) => {
    if (!(await finishAdminAction(trx, attempt, outcome, detail, at))) return;
    // Settled now: the order may be final (and owed a refund) with nothing more to send.
    await rederiveOrder(trx, payload.orderId, at, { action });
  });
}

/** The order, when the action's attempt is still its current one and still pending. */
async function currentAction(
  deps: FulfilmentDeps,
  action: PendingAction,
  payload: AdminActionPayload,
): Promise<OrderRow | null> {
  const order = await deps.db.selectFrom('orders').selectAll().where('id', '=', payload.orderId).executeTakeFirst();
  if (!order || order.pending_action !== action || order.action_attempts !== payload.attempt) return null;
  return order;
}

/**
 * Sends what is undelivered as a new supplier order: the fulfilment state goes back to `none`,
 * then the same claim as the first submission, which refuses while a supplier order is live. An
 * order found `submitting` is left as it is: an earlier run died during `add`, and submitOrder
 * flags it for review instead of sending it a second time.
 */
async function resend(deps: FulfilmentDeps, order: OrderRow, action: PendingAction, payload: AdminActionPayload) {
  if (order.fulfilment_state !== 'none' && order.fulfilment_state !== 'submitting') {
    const reopened = await reopenForResend(
      deps.db,
      order,
      { action, attempt: payload.attempt },
      deps.now().toISOString(),
    );
    if (!reopened) return finish(deps, action, payload, 'failed', { reason: CHANGED_MEANWHILE });
  }
  const outcome = await submitOrder(deps, order.id);
  const after = await deps.db
    .selectFrom('orders')
    .select(['supplier_order_id', 'error_message'])
    .where('id', '=', order.id)
    .executeTakeFirstOrThrow();
  switch (outcome) {
    case 'submitted':
      return finish(deps, action, payload, 'done', { supplierOrderId: after.supplier_order_id });
    case 'failed':
      return finish(deps, action, payload, 'failed', { reason: after.error_message ?? 'The supplier refused' });
    case 'needs_review':
      return finish(deps, action, payload, 'failed', {
        reason: 'The supplier did not answer clearly; the order was flagged for review.',
      });
    case 'queued':
      // Its link is busy with another live order: it goes when that one finishes (./lanes.ts).
      return finish(deps, action, payload, 'done', {
        reason: 'Another order on the same link is running at the supplier; this one is sent when it finishes.',
      });
    case 'skipped':
      return finish(deps, action, payload, 'failed', { reason: CHANGED_MEANWHILE });
  }
}

/** Runs an action's job body; on its last attempt a failure still ends the action. */
async function runAction(
  deps: FulfilmentDeps,
  action: PendingAction,
  payload: AdminActionPayload,
  job: JobAttempts,
  body: (order: OrderRow) => Promise<void>,
): Promise<void> {
  const order = await currentAction(deps, action, payload);
  if (!order) return;
  try {
    await body(order);
  } catch (error) {
    if (job.attempts >= job.max_attempts) {
      const reason = error instanceof Error ? error.message : String(error);
      await finish(deps, action, payload, 'failed', { reason });
    }
    throw error;
  }
}

/** The panel's reason for not cancelling, or null when it accepted; throws when retrying may help. */
export async function cancelAtSupplier(supplier: SupplierPanel, supplierOrderId: string): Promise<string | null> {
  try {
    const [result] = await supplier.cancel([supplierOrderId]);
    if (!result) return 'The supplier sent no answer for this order';
    return result.cancelled ? null : (result.error ?? 'Not cancelled');
  } catch (error) {
    if (error instanceof SmmPanelError && !isRetryableSupplierError(error)) return error.message;
    throw error;
  }
}

/**
 * Admin reorder (job `admin.reorder`). A live supplier order is cancelled at the panel first; if
 * the panel refuses, the reorder is refused with its reason and nothing else happens. Once every
 * supplier order is final (seen right away or by a later sync, which resumes this job), what is
 * still undelivered is sent as a new supplier order.
 */
export async function runReorder(deps: FulfilmentDeps, payload: AdminActionPayload, job: JobAttempts): Promise<void> {
  await runAction(deps, 'reorder', payload, job, async (order) => {
    const live = await liveSupplierOrderOf(deps.db, order.id);
    if (live) {
      if (live.cancel_requested_at === null) {
        const supplier = await deps.panels.get(order.supplier_panel_id);
        const refusal = await cancelAtSupplier(supplier, live.supplier_order_id);
        const at = deps.now().toISOString();
        if (refusal !== null) {
          await recordOrderEvent(
            deps.db,
            order.id,
            'supplier.cancel_refused',
            { supplierOrderId: live.supplier_order_id, reason: refusal },
            at,
          );
          await finish(deps, 'reorder', payload, 'failed', {
            reason: `The supplier refused to cancel order ${live.supplier_order_id}: ${refusal}`,
          });
          return;
        }
        await deps.db.transaction().execute(async (trx) => {
          await markCancelRequested(trx, live.id, at);
          await recordOrderEvent(
            trx,
            order.id,
            'supplier.cancel_requested',
            { supplierOrderId: live.supplier_order_id },
            at,
          );
        });
      }
      // Ask once now: most panels cancel at once. Otherwise the sync resumes this reorder.
      await askAndApplyStatus(deps, live.id);
      const stillLive = await deps.db
        .selectFrom('supplier_orders')
        .select('id')
        .where('id', '=', live.id)
        .where('final', '=', 0)
        .executeTakeFirst();
      if (stillLive) return;
    }
    const current = await currentAction(deps, 'reorder', payload);
    if (!current) return;
    const undelivered = undeliveredQuantity(
      await deliveryQuantityOfOrder(deps.db, current),
      (await supplierOrdersOf(deps.db, current.id)).map(factsOf),
    );
    // Automatic likes have no total to count down: what is left of the period is sent again.
    if (undelivered <= 0 && current.kind !== 'automatic_likes') {
      await finish(deps, 'reorder', payload, 'done', { reason: 'Nothing remains to be delivered' });
      return;
    }
    await resend(deps, current, 'reorder', payload);
  });
}

/** Admin apply-service (job `admin.apply-service`): sends the order now. */
export async function runApplyService(
  deps: FulfilmentDeps,
  payload: AdminActionPayload,
  job: JobAttempts,
): Promise<void> {
  await runAction(deps, 'apply-service', payload, job, (order) => resend(deps, order, 'apply-service', payload));
}

/**
 * Ends admin actions whose job failed for good without running its last attempt to the end (the
 * worker died during it: the queue then marks the job failed without calling us), so the console
 * does not show them pending forever. Runs with the status sync.
 */
export async function endAbandonedActions(deps: FulfilmentDeps): Promise<number> {
  const pending = await deps.db
    .selectFrom('orders')
    .select(['id', 'pending_action', 'action_attempts'])
    .where('pending_action', 'is not', null)
    .limit(100)
    .execute();
  let ended = 0;
  for (const order of pending) {
    const action = order.pending_action;
    if (action === null) continue;
    const key = adminActionDedupeKey(action, order.id, order.action_attempts);
    const jobs = await deps.db
      .selectFrom('jobs')
      .select(['status', 'last_error'])
      .where('dedupe_key', 'in', [key, `${key}:resume`])
      .execute();
    const failed = jobs.find((job) => job.status === 'failed');
    if (!failed || jobs.some((job) => job.status === 'pending' || job.status === 'running')) continue;
    const payload = { orderId: order.id, attempt: order.action_attempts, adminId: null };
    await finish(deps, action, payload, 'failed', {
      reason: failed.last_error ?? 'The job stopped before it finished.',
    });
    ended += 1;
  }
  return ended;
}
