/**
 * How long a failed job waits before its next attempt, and how many attempts it gets by default.
 * Apart from the queue (core/jobs/queue.ts), which imports the database, because the store's
 * texts quote the refund window these numbers bound (core/settings/store-info.ts) and those
 * texts are bundled for the browser.
 */
export const DEFAULT_MAX_ATTEMPTS = 8;
export const BACKOFF_BASE_MS = 5_000;
export const BACKOFF_CAP_MS = 60 * 60 * 1000;

/**
 * Delay before the retry that follows attempt number `attempt` (1-based): 5 s, 10 s, 20 s, …
 * doubling, capped at 1 h, each multiplied by a jitter factor in [0.8, 1.2) so that jobs that
 * failed together do not retry together. The result never exceeds the cap.
 */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const n = Number.isFinite(attempt) ? Math.max(1, Math.floor(attempt)) : 1;
  const base = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.min(n - 1, 30));
  const jitter = 0.8 + 0.4 * Math.min(Math.max(random(), 0), 1);
  return Math.round(Math.min(BACKOFF_CAP_MS, base * jitter));
}
