/**
 * The access log of cached pages served on the fast path (server/page-fast-path.ts).
 *
 * A cached page costs the store about as much as writing its bytes, so one JSON line per page
 * was a large share of it: at the shipped `info` level these requests are summed up instead, one
 * line a minute ("cached pages served": how many, by path and status, and the slowest). At `debug`
 * each still gets its own line. Nothing else is summed: every request that reaches Fastify (a
 * page rendered, the API, the console) keeps its own line, and so does every error.
 */
import type { FastifyBaseLogger } from 'fastify';
import { redactLoggedUrl } from './logging.ts';

/** How often the summary is written while cached pages are being served. */
export const CACHED_PAGE_LOG_MS = 60_000;
/** Paths named in one summary; the rest are counted together, so a crawl cannot grow the line. */
const MAX_PATHS = 50;
const OTHER_PATHS = '(other paths)';

const LOGS_EACH = new Set(['debug', 'trace']);
const LOGS_SUMMARY = new Set(['info', ...LOGS_EACH]);

export class CachedPageLog {
  #requests = 0;
  #byPath = new Map<string, number>();
  #byStatus = new Map<number, number>();
  #slowestMs = 0;
  #timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly logger: () => FastifyBaseLogger,
    private readonly everyMs = CACHED_PAGE_LOG_MS,
  ) {}

  /** One cached page served (positional: this runs for every one). */
  record(method: string, url: string, status: number, ms: number, requestId: string): void {
    const log = this.logger();
    if (!LOGS_SUMMARY.has(log.level)) return;
    if (LOGS_EACH.has(log.level)) {
      log.info({ reqId: requestId, method, url, status, ms: Math.round(ms) }, 'request');
      return;
    }
    this.#requests += 1;
    const queryStart = url.indexOf('?');
    const path = queryStart === -1 ? url : url.slice(0, queryStart);
    const key = this.#byPath.has(path) || this.#byPath.size < MAX_PATHS ? path : OTHER_PATHS;
    this.#byPath.set(key, (this.#byPath.get(key) ?? 0) + 1);
    this.#byStatus.set(status, (this.#byStatus.get(status) ?? 0) + 1);
    if (ms > this.#slowestMs) this.#slowestMs = ms;
    this.#timer ??= setTimeout(() => this.flush(), this.everyMs).unref();
  }

  /** Writes the summary of what was served since the last one, if anything was. */
  flush(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#requests === 0) return;
    const byPath = [...this.#byPath].sort((a, b) => b[1] - a[1]);
    this.logger().info(
      {
        requests: this.#requests,
        paths: Object.fromEntries(byPath.map(([path, count]) => [redactLoggedUrl(path), count])),
        statuses: Object.fromEntries(this.#byStatus),
        slowestMs: Math.ceil(this.#slowestMs),
        seconds: Math.round(this.everyMs / 1000),
      },
      'cached pages served',
    );
    this.#requests = 0;
    this.#byPath.clear();
    this.#byStatus.clear();
    this.#slowestMs = 0;
  }
}
