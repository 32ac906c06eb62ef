/**
 * The admin's actions on one order: reorder and apply-service (decision 012). Neither calls the
 * supplier inside the request: each checks the order model's rule (core/orders/status.ts), marks
 * the order through core/orders (`pending_action`, a new attempt number, the request on the
 * timeline) and enqueues the job (`admin.reorder:<order>:<attempt>`) in one transaction,
 * and answers at once. The job (core/fulfilment) does the work and puts the result on the
 * timeline; the console row shows `pendingAction` until then.
 */
import type { Kysely } from 'kysely';
import type { AuditSink } from '../audit/audit.ts';
import type { Database } from '../../db/schema.ts';
import { enqueueAdminAction } from '../fulfilment/jobs.ts';
import { type PendingAction, applyServiceRefusal, reorderRefusal } from '../orders/status.ts';
import { markActionRequested } from '../orders/transitions/index.ts';
import { CONSOLE_MESSAGES, ConsoleError } from './console-errors.ts';
import { findOrder } from './console-rows.ts';
import type { OrderActionAccepted } from './contracts.ts';

export interface ActionOptions {
  /** The admin who asked (recorded in the timeline). */
  adminId?: number | null | undefined;
  /** Told what the action marked on the order (the audit log's before/after). */
  audit?: AuditSink | undefined;
}

export interface OrderActionsOptions {
  db: Kysely<Database>;
  now?: (() => Date) | undefined;
}

export function createOrderActions(options: OrderActionsOptions) {
  const { db } = options;
  const now = () => options.now?.() ?? new Date();

  async function request(
    action: PendingAction,
    providerOrderId: string,
    adminId: number | null,
    audit: AuditSink | undefined,
  ): Promise<OrderActionAccepted> {
    const order = await findOrder(db, providerOrderId);
    const refusal = action === 'reorder' ? reorderRefusal(order) : applyServiceRefusal(order);
    if (refusal !== null) {
      // A second click on the same action: the first click's job is the answer.
      if (order.pending_action === action) return { state: 'pending', action, attempt: order.action_attempts };
      throw new ConsoleError(refusal, 409);
    }
    const at = now().toISOString();
    const attempt = await db.transaction().execute(async (trx) => {
      const marked = await markActionRequested(trx, order, action, adminId, at);
      if (marked !== null) await enqueueAdminAction(trx, action, { orderId: order.id, attempt: marked, adminId });
      return marked;
    });
    if (attempt !== null) {
      // "Before" is the row the compare-and-set matched, so it is exactly what was replaced.
      audit?.({
        before: { pendingAction: null, actionAttempts: order.action_attempts },
        after: { pendingAction: action, actionAttempts: attempt },
      });
      return { state: 'pending', action, attempt };
    }
    const current = await findOrder(db, providerOrderId);
    if (current.pending_action === action) return { state: 'pending', action, attempt: current.action_attempts };
    throw new ConsoleError(CONSOLE_MESSAGES.changed, 409);
  }

  return {
    /**
     * Reorders a paid order the supplier has not finished: a live supplier order is cancelled at
     * the panel first and only what is still undelivered is sent again; an order that never
     * reached the supplier is sent. Refused (409, with the reason) for unpaid, finished
     * (Completed, Partial, Canceled) or refunded orders and while another action runs.
     */
    reorder: (providerOrderId: string, actionOptions: ActionOptions = {}): Promise<OrderActionAccepted> =>
      request('reorder', providerOrderId, actionOptions.adminId ?? null, actionOptions.audit),

    /**
     * Sends a paid order that is not at the supplier yet (never sent, refused, waiting for a
     * retry) or one flagged for review, now, instead of waiting for the worker.
     */
    applyService: (providerOrderId: string, actionOptions: ActionOptions = {}): Promise<OrderActionAccepted> =>
      request('apply-service', providerOrderId, actionOptions.adminId ?? null, actionOptions.audit),
  };
}
