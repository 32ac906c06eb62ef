/** The fulfilment job kinds, apart from their handlers so the payment transition can enqueue them. */
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { enqueueJob } from '../jobs/queue.ts';

export const FULFIL_JOB = 'order.fulfil';
export const REFUND_JOB = 'order.refund';
/** Recurring: asks the supplier about open orders (every SUPPLIER_SYNC_SECONDS). */
export const SUPPLIER_SYNC_JOB = 'fulfilment.sync';

/** Enqueued in the paid transition's transaction: one submission per order, ever. */
export function enqueueFulfilment(trx: Transaction<Database>, orderId: number) {
  return enqueueJob(trx, { kind: FULFIL_JOB, payload: { orderId }, dedupeKey: `fulfil:${orderId}` });
}
