/**
 * Refills and supplier cancels (decision 040), over one set of deps: the rules (refills/rules.ts),
 * the customer's view and request (refills/customer.ts), the admin's actions (refills/admin.ts)
 * and the status sync (refills/sync.ts). Each is a plain function that can be imported on its
 * own; this object only binds the deps.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { SupplierPanels } from './panels.ts';
import { adminSupplierActions, cancelAtSupplierByAdmin, requestRefillByAdmin } from './refills/admin.ts';
import { customerRefillViews, requestRefillByCustomer } from './refills/customer.ts';
import type { RefillsDeps } from './refills/deps.ts';
import { DEFAULT_REFILL_WINDOW_DAYS } from './refills/rules.ts';
import { createServiceFlagsCache } from './refills/service-flags.ts';
import { syncRefillStatuses } from './refills/sync.ts';

export { RefillError, formatRefillDate, refillEligibility } from './refills/rules.ts';

export interface RefillsOptions {
  db: Kysely<Database>;
  panels: SupplierPanels;
  /** Signs the /client refill tokens (an install secret). */
  tokenKey: string;
  windowDays?: number | undefined;
  now?: (() => Date) | undefined;
}

/** The deps the refill use cases share, with the per-panel service flags cache. */
export function refillsDepsFrom(options: RefillsOptions): RefillsDeps {
  const now = options.now ?? (() => new Date());
  return {
    db: options.db,
    panels: options.panels,
    serviceFlags: createServiceFlagsCache(options.panels, now),
    tokenKey: options.tokenKey,
    windowDays: options.windowDays ?? DEFAULT_REFILL_WINDOW_DAYS,
    now,
  };
}

export function bindRefills(deps: RefillsDeps) {
  return {
    customerViews: (email: string, providerOrderIds: string[]) => customerRefillViews(deps, email, providerOrderIds),
    requestByCustomer: (providerOrderId: string, token: string) =>
      requestRefillByCustomer(deps, providerOrderId, token),
    adminActions: (providerOrderId: string) => adminSupplierActions(deps, providerOrderId),
    requestByAdmin: (providerOrderId: string, adminId: number | null) =>
      requestRefillByAdmin(deps, providerOrderId, adminId),
    cancelByAdmin: (providerOrderId: string, adminId: number | null) =>
      cancelAtSupplierByAdmin(deps, providerOrderId, adminId),
    syncStatuses: () => syncRefillStatuses(deps),
  };
}

export function createRefills(options: RefillsOptions): Refills {
  return bindRefills(refillsDepsFrom(options));
}

export type Refills = ReturnType<typeof bindRefills>;
