/**
 * How a failed job is retried: the backoff before its next attempt, and the one line its error
 * leaves in `last_error`.
 */

export const BACKOFF_BASE_MS = 5_000;
export const BACKOFF_CAP_MS = 60 * 60 * 1000;
const MAX_ERROR_LENGTH = 2_000;

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

/** One line for `last_error`: name, code and SMTP response code when present, message. */
export function describeError(error: unknown): string {
  let text: string;
  if (error instanceof Error) {
    const details = error as Error & { code?: unknown; responseCode?: unknown };
    const tags = [details.code, details.responseCode].filter((v) => typeof v === 'string' || typeof v === 'number');
    text = `${error.name}${tags.length ? ` [${tags.join(' ')}]` : ''}: ${error.message}`;
  } else {
    try {
      text = typeof error === 'string' ? error : (JSON.stringify(error) ?? String(error));
    } catch {
      text = String(error);
    }
  }
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH - 1)}…` : text;
}
