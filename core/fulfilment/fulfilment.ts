/**
 * Fulfilment's use cases over one set of deps, for the code that holds them (the jobs, the
 * refills, the tests): submit (submit.ts), the status sync (sync.ts), the admin actions
 * (admin-actions.ts) and the refund of what was not delivered (refund.ts). Each is a plain
 * function that can be imported on its own; this object only binds the deps.
 */
import type { AdminActionPayload } from './jobs.ts';
import { endAbandonedActions, runApplyService, runReorder } from './admin-actions.ts';
import type { FulfilmentDeps } from './deps.ts';
import { refundUndelivered } from './refund.ts';
import { submitOrder } from './submit.ts';
import { applySupplierStatus, syncSupplierStatuses } from './sync.ts';
import type { SupplierOrderStatus } from './supplier.ts';
import type { SupplierOrderRow } from './supplier-orders.ts';

type JobAttempts = { attempts: number; max_attempts: number };

export function createFulfilment(deps: FulfilmentDeps) {
  return {
    submit: (orderId: number) => submitOrder(deps, orderId),
    syncStatuses: (limit?: number) => syncSupplierStatuses(deps, limit),
    applyStatus: (supplierOrder: SupplierOrderRow, result: SupplierOrderStatus) =>
      applySupplierStatus(deps, supplierOrder, result),
    reorder: (payload: AdminActionPayload, job: JobAttempts) => runReorder(deps, payload, job),
    applyService: (payload: AdminActionPayload, job: JobAttempts) => runApplyService(deps, payload, job),
    endAbandonedActions: () => endAbandonedActions(deps),
    refund: (orderId: number) => refundUndelivered(deps, orderId),
  };
}

export type Fulfilment = ReturnType<typeof createFulfilment>;
