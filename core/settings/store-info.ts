/**
 * Store settings the customer-facing texts quote (contact and legal pages, FAQ, footer): the
 * support e-mail, the optional phone and office address, and the refund window. They come from
 * the environment (server/config.ts) so a store owner changes each in one place.
 *
 * The refund window is a promise about code, not a marketing figure: an order that ends
 * undelivered (Canceled, or Partial for the undelivered share) is refunded by the `order.refund`
 * job, which the supplier status sync starts (core/fulfilment). `refundIssuedWithinMs` is the
 * longest that chain can take before its last try, and the configuration refuses a window
 * shorter than it, so the pages never promise what the code does not do.
 */
import { DEFAULT_MAX_ATTEMPTS } from '../jobs/job-definition.ts';
import { BACKOFF_CAP_MS, backoffMs } from '../jobs/retry.ts';

/** Spec section 9: "Refund within 48 hours if undelivered". */
export const DEFAULT_REFUND_WINDOW_HOURS = 48;
/** Spec section 9: personal data is kept no longer than 2 years (core/retention/purge.ts). */
export const DATA_RETENTION_YEARS = 2;
/** Spec section 9 and decision 004: the refill guarantee on follower drops. */
export const REFILL_GUARANTEE_DAYS = 30;
/** Spec section 9: the money-back guarantee, read as a window to claim an undelivered order (decision 025). */
export const MONEY_BACK_DAYS = 30;

export interface StoreInfo {
  /** Where customers write; shown on the contact and legal pages. */
  supportEmail: string;
  /** Shown only when configured: never a made-up number. */
  supportPhone: string | null;
  /** Shown only when configured. */
  officeAddress: string | null;
  /** Hours within which an undelivered order's refund is issued to the payment provider. */
  refundWindowHours: number;
  /**
   * Days after completion within which a customer can request a refill from /client
   * (REFILL_WINDOW_DAYS, default REFILL_GUARANTEE_DAYS; decision 040). Optional for callers that
   * build a StoreInfo by hand: absent means the default.
   */
  refillWindowDays?: number;
}

/** `support@` and the store's own host name (no port): the default support address. */
export function defaultSupportEmail(publicUrl: string): string {
  return `support@${new URL(publicUrl).hostname}`;
}

export interface RefundChain {
  /** How often the supplier's statuses are read (SUPPLIER_SYNC_SECONDS): when an order's end is seen. */
  supplierSyncMs: number;
  /** A job claimed by an instance that died waits this long before another takes it (JOB_LEASE_SECONDS). */
  jobLeaseMs: number;
  /** The refund job's attempts (`REFUND_JOB.maxAttempts`, else the queue's default). */
  refundJobMaxAttempts?: number | undefined;
}

/**
 * The longest time from the supplier finishing an order undelivered to the refund job's last
 * try: one sync interval to notice, then every attempt (each possibly lost with its worker and
 * taken over after a lease) with the largest backoff the jitter allows between them.
 */
export function refundIssuedWithinMs(chain: RefundChain): number {
  const attempts = chain.refundJobMaxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  let backoffTotal = 0;
  for (let attempt = 1; attempt < attempts; attempt += 1) {
    backoffTotal += Math.min(
      BACKOFF_CAP_MS,
      backoffMs(attempt, () => 1),
    );
  }
  return chain.supplierSyncMs + backoffTotal + attempts * chain.jobLeaseMs;
}

/** The smallest whole number of hours a store may promise for refunds with this configuration. */
export function shortestHonestRefundWindowHours(chain: RefundChain): number {
  return Math.ceil(refundIssuedWithinMs(chain) / 3_600_000);
}
