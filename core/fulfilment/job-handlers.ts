/**
 * The worker's handlers for fulfilment's jobs: each hands its parsed payload to one use case and
 * logs what an operator would want to see. Registered at boot (server/store.ts).
 */
import { type JobLogger, type JobRegistration, handleJob } from '../jobs/worker.ts';
import { endAbandonedActions, runApplyService, runReorder } from './admin-actions.ts';
import type { FulfilmentDeps } from './deps.ts';
import { APPLY_SERVICE_JOB, FULFIL_JOB, REFILL_SYNC_JOB, REFUND_JOB, REORDER_JOB, SUPPLIER_SYNC_JOB } from './jobs.ts';
import type { RefillsDeps } from './refills/deps.ts';
import { syncRefillStatuses } from './refills/sync.ts';
import { releaseStaleLanes } from './lanes.ts';
import { refundUndelivered } from './refund.ts';
import { submitOrder } from './submit.ts';
import { syncSupplierStatuses } from './sync.ts';

export function fulfilmentJobHandlers(
  deps: FulfilmentDeps,
  refills: RefillsDeps,
  logger?: JobLogger,
): JobRegistration[] {
  return [
    handleJob(FULFIL_JOB, ({ orderId }) => submitOrder(deps, orderId)),
    handleJob(REFUND_JOB, ({ orderId }) => refundUndelivered(deps, orderId)),
    handleJob(REORDER_JOB, (payload, job) => runReorder(deps, payload, job)),
    handleJob(APPLY_SERVICE_JOB, (payload, job) => runApplyService(deps, payload, job)),
    handleJob(SUPPLIER_SYNC_JOB, async () => {
      const result = await syncSupplierStatuses(deps);
      if (result.changed) logger?.info(result, 'supplier statuses synced');
      const released = await releaseStaleLanes(deps.db);
      if (released) logger?.info({ released }, 'links freed from orders that ended without saying so');
      const ended = await endAbandonedActions(deps);
      if (ended) logger?.warn({ ended }, 'admin actions ended after their job failed for good');
    }),
    handleJob(REFILL_SYNC_JOB, async () => {
      const result = await syncRefillStatuses(refills);
      if (result.changed || result.abandoned) logger?.info(result, 'refill statuses synced');
    }),
  ];
}
