/**
 * The fulfilment job kinds, apart from their handlers so the code that enqueues them (the event
 * subscribers, the admin actions) does not load the supplier client.
 */
import type { Kysely, Transaction } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../db/schema.ts';
import { defineJob, enqueueJob } from '../jobs/queue.ts';
import { defineRecurringJob } from '../jobs/recurring.ts';
import type { PendingAction } from '../orders/status.ts';

const OrderRef = z.object({ orderId: z.number().int().positive() });
/** The jobs that claim one order at its supplier run one at a time per order in a worker. */
const oneAtATimePerOrder = ({ orderId }: { orderId: number }) => `order:${orderId}`;

/** Sends a paid order to the supplier (once per order: `fulfil:<order>`). */
export const FULFIL_JOB = defineJob({ kind: 'order.fulfil', payload: OrderRef, exclusiveKey: oneAtATimePerOrder });
/** Refunds a finished order's undelivered share (once per order: `refund:<order>`). */
export const REFUND_JOB = defineJob({ kind: 'order.refund', payload: OrderRef, exclusiveKey: oneAtATimePerOrder });
/** Recurring: asks the supplier about live supplier orders (every SUPPLIER_SYNC_SECONDS). */
export const SUPPLIER_SYNC_JOB = defineRecurringJob('fulfilment.sync');
/** Recurring: asks the supplier about open refills (every SUPPLIER_SYNC_SECONDS; decision 040). */
export const REFILL_SYNC_JOB = defineRecurringJob('refills.sync');
/** Recurring: asks panels with a low-balance threshold for their balance (every LOW_BALANCE_CHECK_SECONDS; decision 045). */
export const LOW_BALANCE_JOB = defineRecurringJob('suppliers.low-balance');

const AdminAction = z.object({
  orderId: z.number().int().positive(),
  /** The order's action_attempts when the admin asked: a stale run (another attempt since) does nothing. */
  attempt: z.number().int().positive(),
  adminId: z.number().int().nullable(),
});
export type AdminActionPayload = z.infer<typeof AdminAction>;

/** An admin reorder: cancel the live supplier order, then send what is undelivered (decision 012). */
export const REORDER_JOB = defineJob({ kind: 'admin.reorder', payload: AdminAction, exclusiveKey: oneAtATimePerOrder });
/** An admin apply-service: send an order that is not at the supplier (or flagged for review) now. */
export const APPLY_SERVICE_JOB = defineJob({
  kind: 'admin.apply-service',
  payload: AdminAction,
  exclusiveKey: oneAtATimePerOrder,
});

const ACTION_JOBS = { reorder: REORDER_JOB, 'apply-service': APPLY_SERVICE_JOB } as const;

/** Enqueued by the `order.paid` subscriber: one submission per order, ever. */
export function enqueueFulfilment(trx: Transaction<Database>, orderId: number) {
  return enqueueJob(trx, FULFIL_JOB, { orderId }, { dedupeKey: `fulfil:${orderId}` });
}

export function enqueueRefund(trx: Transaction<Database>, orderId: number) {
  return enqueueJob(trx, REFUND_JOB, { orderId }, { dedupeKey: `refund:${orderId}` });
}

/** `admin.reorder:<order>:<attempt>`: however often the admin clicks, one job per attempt. */
export function adminActionDedupeKey(action: PendingAction, orderId: number, attempt: number): string {
  return `${ACTION_JOBS[action].kind}:${orderId}:${attempt}`;
}

/**
 * Enqueues an admin action's job. `stage` names a later run of the same attempt (a reorder
 * resumes once the supplier confirms the cancelled order final) under its own key.
 */
export function enqueueAdminAction(
  db: Kysely<Database> | Transaction<Database>,
  action: PendingAction,
  payload: AdminActionPayload,
  stage?: 'resume',
) {
  const key = adminActionDedupeKey(action, payload.orderId, payload.attempt);
  return enqueueJob(db, ACTION_JOBS[action], payload, { dedupeKey: stage ? `${key}:${stage}` : key });
}
