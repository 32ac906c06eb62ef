/**
 * What the core modules tell the metrics about, in our words. The server fills it with Prometheus
 * counters (server/metrics.ts); core never imports a metrics library, so tests and scripts can
 * pass `noMetrics` and the rules stay free of the vendor.
 */
export interface MetricsRecorder {
  /** A payment outcome the store acted on (`captured`, `failed`, `refunded`…), by provider. */
  recordPayment(provider: string, outcome: string): void;
  /** One call to a supplier panel, by the panel's id (never its URL), and whether it failed. */
  recordSupplierCall(panel: string, failed: boolean): void;
  /** One delivery attempt of a mail: sent, or failed (to be retried or given up). */
  recordMail(outcome: 'sent' | 'failed'): void;
  /** A job attempt that threw: retried later, or failed for good. */
  recordJobFailure(kind: string, retried: boolean): void;
  /** A page-cache lookup: served fresh, served stale while refreshing, or rendered. */
  recordPageCache(result: 'hit' | 'stale' | 'miss'): void;
}

export const noMetrics: MetricsRecorder = {
  recordPayment: () => {},
  recordSupplierCall: () => {},
  recordMail: () => {},
  recordJobFailure: () => {},
  recordPageCache: () => {},
};
