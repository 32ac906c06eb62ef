/**
 * Prometheus metrics for one app instance, served at GET /metrics in the text exposition format.
 * Each app gets its own registry (never prom-client's global one): tests start many apps in one
 * process, and two must neither share counts nor collide on names. The job-queue gauges are read
 * from the jobs table at scrape time (one grouped query over the (status, run_at) index), since
 * the queue is shared by every instance and an in-memory count would only know this one's part.
 */
import type { FastifyInstance } from 'fastify';
import { type Kysely, sql } from 'kysely';
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { MetricsRecorder } from '../core/metrics/recorder.ts';
import type { DatabaseHandle } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { metricsAccess } from './metrics-access.ts';
import { RequestDurationHistogram } from './request-duration.ts';

const PREFIX = 'boostly_';
/** Pages answered before Fastify (server/page-fast-path.ts) have no Fastify route: one fixed label. */
export const FAST_PATH_ROUTE = 'page (cached)';
/** Requests no route matched; their raw URL would make the label set unbounded. */
const UNMATCHED_ROUTE = 'unmatched';

export interface AppMetrics {
  registry: Registry;
  recorder: MetricsRecorder;
  observeRequest(method: string, route: string, status: number, seconds: number): void;
}

export function createAppMetrics(database: Pick<DatabaseHandle, 'db' | 'dialect' | 'poolUse'>): AppMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: PREFIX });

  const requestDuration = new RequestDurationHistogram({
    name: `${PREFIX}http_request_duration_seconds`,
    help: 'Time to answer an HTTP request, by route pattern and status code.',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  // Counted in plain numbers (a cached page is a lookup every request) and handed over on scrape.
  const pageCacheLookups = { hit: 0, stale: 0, miss: 0 };
  new Counter({
    name: `${PREFIX}page_cache_requests_total`,
    help: 'Page-cache lookups by result (hit, stale, miss).',
    labelNames: ['result'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [result, count] of Object.entries(pageCacheLookups)) if (count > 0) this.inc({ result }, count);
    },
  });
  const payments = new Counter({
    name: `${PREFIX}payments_total`,
    help: 'Payment outcomes the store acted on, by provider and outcome.',
    labelNames: ['provider', 'outcome'] as const,
    registers: [registry],
  });
  const supplierCalls = new Counter({
    name: `${PREFIX}supplier_calls_total`,
    help: 'Calls to supplier panels, by panel id.',
    labelNames: ['panel'] as const,
    registers: [registry],
  });
  const supplierErrors = new Counter({
    name: `${PREFIX}supplier_errors_total`,
    help: 'Supplier panel calls that failed, by panel id.',
    labelNames: ['panel'] as const,
    registers: [registry],
  });
  const mails = new Counter({
    name: `${PREFIX}mail_total`,
    help: 'Mail delivery attempts by outcome (sent, failed).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const jobFailures = new Counter({
    name: `${PREFIX}jobs_failed_total`,
    help: 'Job attempts that threw, by kind and whether the job will be retried.',
    labelNames: ['kind', 'retried'] as const,
    registers: [registry],
  });
  const queue = sharedQueueRead(database.db);
  new Gauge({
    name: `${PREFIX}jobs_queued`,
    help: 'Jobs waiting or running in the shared queue, by kind and status.',
    labelNames: ['kind', 'status'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of await queue()) this.set({ kind: row.kind, status: row.status }, Number(row.count));
    },
  });
  new Gauge({
    name: `${PREFIX}jobs_oldest_age_seconds`,
    help: 'Age of the oldest job (since its run_at), by kind and status.',
    labelNames: ['kind', 'status'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const now = Date.now();
      for (const row of await queue()) {
        const oldest = Date.parse(row.oldest);
        if (Number.isFinite(oldest))
          this.set({ kind: row.kind, status: row.status }, Math.max(0, (now - oldest) / 1000));
      }
    },
  });
  new Gauge({
    name: `${PREFIX}db_pool_connections`,
    help: 'Database connections by state (total, idle, waiting clients); SQLite has one connection.',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const use = database.poolUse?.() ?? { total: 1, idle: 0, waiting: 0 };
      this.set({ state: 'total' }, use.total);
      this.set({ state: 'idle' }, use.idle);
      this.set({ state: 'waiting' }, use.waiting);
    },
  });

  return {
    registry,
    observeRequest(method, route, status, seconds) {
      requestDuration.observe(method, route, status, seconds);
    },
    recorder: {
      recordPayment: (provider, outcome) => payments.inc({ provider, outcome }),
      recordSupplierCall: (panel, failed) => {
        supplierCalls.inc({ panel });
        if (failed) supplierErrors.inc({ panel });
      },
      recordMail: (outcome) => mails.inc({ outcome }),
      recordJobFailure: (kind, retried) => jobFailures.inc({ kind, retried: String(retried) }),
      recordPageCache: (result) => {
        pageCacheLookups[result] += 1;
      },
    },
  };
}

/**
 * Both queue gauges collect in the same scrape (prom-client starts every collect at once): they
 * share the one query in flight, and the next scrape reads afresh.
 */
function sharedQueueRead(db: Kysely<Database>) {
  let inFlight: ReturnType<typeof readQueue> | null = null;
  return () => {
    inFlight ??= readQueue(db).finally(() => {
      inFlight = null;
    });
    return inFlight;
  };
}

/** Only the live part of the queue (done and failed rows pile up and are not queue depth). */
async function readQueue(db: Kysely<Database>) {
  return db
    .selectFrom('jobs')
    .where('status', 'in', ['pending', 'running'])
    .groupBy(['kind', 'status'])
    .select(['kind', 'status', sql<number>`count(*)`.as('count'), sql<string>`min(run_at)`.as('oldest')])
    .execute();
}

/** The route label: Fastify's pattern, never the raw URL. */
export function routeLabel(routeUrl: string | undefined): string {
  return routeUrl ?? UNMATCHED_ROUTE;
}

export function registerMetricsRoute(app: FastifyInstance, metrics: AppMetrics, token: string | undefined): void {
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const access = metricsAccess({
      token,
      authorization: request.headers.authorization,
      socketAddress: request.socket.remoteAddress,
    });
    if (access === 'unauthorized') {
      return reply
        .status(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        .type('text/plain')
        .send('unauthorized\n');
    }
    if (access === 'forbidden') return reply.status(403).type('text/plain').send('forbidden\n');
    const body = await metrics.registry.metrics();
    return reply.type(metrics.registry.contentType).send(body);
  });
}
