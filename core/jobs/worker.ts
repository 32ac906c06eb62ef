/**
 * The in-process job worker: polls the jobs table, claims due jobs with a lease, and runs their
 * handlers, up to `concurrency` at once. Several instances (processes or machines) may run at once.
 *
 * - A handler that throws `PermanentJobError` fails the job for good; any other error retries
 *   it with exponential backoff until `max_attempts`, or, for a kind with a retry window
 *   (`retryForMs`), until the job is that old. A registration's `onGiveUp` hears of each job
 *   that failed for good.
 * - A job whose kind has no handler fails permanently with a clear `last_error`; so does one whose
 *   stored payload its kind's schema refuses (`handleJob` parses it before the handler runs).
 * - While a handler runs its lease is renewed (heartbeat), so a slow but alive handler is not
 *   taken over by another worker.
 * - Jobs whose kinds give the same exclusive key (`JobDefinition.exclusiveKey`) run one after the
 *   other in this worker, the later one renewing its lease before it starts.
 * - The loop never throws: errors (e.g. the database is down) are logged and polling goes on.
 *   The poll timer is `unref`'d and `stop()` clears it, so the worker never keeps the process
 *   alive on its own.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { Database } from '../../db/schema.ts';
import { type JobDefinition, describePayloadIssues } from './job-definition.ts';
import { type JobRow, claimJobs, completeJob, failJob, releaseJob, renewLease } from './queue.ts';
import { type RecurringJob, createRecurringSchedule, offerRecurringJobs } from './recurring.ts';
import type { MetricsRecorder } from '../metrics/recorder.ts';
import { describeError } from './retry.ts';

/** Thrown by a handler when retrying cannot help (bad payload, address rejected, …). */
export class PermanentJobError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'PermanentJobError';
  }
}

/**
 * A job kind's handler as the worker runs it: `run` parses the stored payload with the kind's
 * schema and hands the typed result to the handler. Build one with `handleJob`.
 */
export interface JobRegistration {
  readonly kind: string;
  /** The kind's retry window (`JobDefinition.retryForMs`): no retry once the job is this old. */
  readonly retryForMs?: number | undefined;
  run(storedPayload: unknown, job: JobRow): Promise<unknown>;
  /** The job's exclusive key (`JobDefinition.exclusiveKey`), or null when it has none or its payload is invalid. */
  exclusiveKeyOf(storedPayload: unknown): string | null;
  /**
   * Called once the worker has marked a job of this kind `failed` for good (permanent error, no
   * attempts left, or past its retry window), e.g. to alert someone. Its own errors are logged.
   */
  onGiveUp?: ((job: JobRow, error: unknown) => Promise<unknown>) | undefined;
}

interface HandleJobOptions {
  /** See `JobRegistration.onGiveUp`. */
  onGiveUp?: ((job: JobRow, error: unknown) => Promise<unknown>) | undefined;
}

/**
 * Binds a handler to its job definition: the handler sees the payload as the schema's output
 * type, and a stored payload the schema refuses fails the job permanently (retrying cannot fix
 * it) with `invalid <kind> payload: <issues>` as its last error.
 */
export function handleJob<Schema extends z.ZodType>(
  definition: JobDefinition<string, Schema>,
  handler: (payload: z.output<Schema>, job: JobRow) => Promise<unknown>,
  options: HandleJobOptions = {},
): JobRegistration {
  return {
    kind: definition.kind,
    retryForMs: definition.retryForMs,
    onGiveUp: options.onGiveUp,
    async run(storedPayload, job) {
      const parsed = definition.payload.safeParse(storedPayload);
      if (!parsed.success)
        throw new PermanentJobError(`invalid ${definition.kind} payload: ${describePayloadIssues(parsed.error)}`);
      return handler(parsed.data, job);
    },
    exclusiveKeyOf(storedPayload) {
      if (!definition.exclusiveKey) return null;
      const parsed = definition.payload.safeParse(storedPayload);
      return parsed.success ? definition.exclusiveKey(parsed.data) : null;
    },
  };
}

/** The subset of pino's (and Fastify's) logger the worker uses. */
export interface JobLogger {
  /** Routine lines; a logger without it leaves them out. */
  debug?(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

interface JobWorkerOptions {
  db: Kysely<Database>;
  /** One per kind this worker runs (`handleJob(definition, handler)`). */
  handlers: readonly JobRegistration[];
  /** Unique per worker instance; default `<hostname>:<pid>:<random>`. */
  workerId?: string;
  /** Idle poll interval. */
  pollMs?: number;
  /** Lease per claim; renewed every leaseMs/3 while a handler runs. */
  leaseMs?: number;
  /** The most jobs one claim takes (one statement, one lease for all of them). */
  batch?: number;
  /**
   * Jobs that run at the same time (default 1: one after another). Most jobs wait on the network
   * (SMTP, the supplier panel) or for their turn on a busy event loop, so several at once drain
   * a backlog several times faster than one; each job still runs under its own lease and
   * compare-and-set claim.
   */
  concurrency?: number;
  logger?: JobLogger | undefined;
  /** Hears of each failed attempt, retried or not (the server counts them for alerts). */
  metrics?: Pick<MetricsRecorder, 'recordJobFailure'> | undefined;
  /**
   * Periodic jobs this worker offers once per slot while it runs (see recurring.ts); their kinds
   * need handlers like any other job.
   */
  recurring?: readonly RecurringJob[] | undefined;
  /**
   * The store's clock: recurring slots, claims, leases, backoff and retry windows are read from
   * it (tests move it through a long outage instead of waiting).
   */
  now?: (() => Date) | undefined;
}

export interface JobWorker {
  readonly workerId: string;
  /** Starts the poll loop (idempotent). */
  start(): void;
  /** Stops polling and waits for the running handler; claimed jobs not yet started are released. */
  stop(): Promise<void>;
  /** Claims and runs one batch; resolves to the number of jobs claimed. */
  runOnce(): Promise<number>;
  /** Polls now instead of at the next tick (e.g. right after enqueuing); no-op when stopped. */
  wake(): void;
}

const consoleLogger: JobLogger = {
  debug: (obj, msg) => console.debug(msg ?? '', JSON.stringify(obj)),
  info: (obj, msg) => console.info(msg ?? '', JSON.stringify(obj)),
  warn: (obj, msg) => console.warn(msg ?? '', JSON.stringify(obj)),
  error: (obj, msg) => console.error(msg ?? '', JSON.stringify(obj)),
};

function defaultWorkerId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

export function createJobWorker(options: JobWorkerOptions): JobWorker {
  const {
    db,
    handlers,
    pollMs = 1000,
    leaseMs = 60_000,
    batch = 10,
    concurrency = 1,
    logger = consoleLogger,
  } = options;
  const workerId = options.workerId ?? defaultWorkerId();
  if (!(pollMs > 0) || !(leaseMs > 0) || !(batch > 0) || !(concurrency >= 1))
    throw new Error('createJobWorker: pollMs, leaseMs, batch and concurrency must be positive');
  const recurring = options.recurring ?? [];
  const now = options.now ?? (() => new Date());
  const registrations = new Map<string, JobRegistration>();
  for (const registration of handlers) {
    if (registrations.has(registration.kind))
      throw new Error(`createJobWorker: two handlers for job kind ${registration.kind}`);
    registrations.set(registration.kind, registration);
  }
  for (const job of recurring) {
    if (!registrations.has(job.job.kind))
      throw new Error(`createJobWorker: recurring job ${job.job.kind} has no handler`);
  }
  const recurringSchedule = createRecurringSchedule(recurring);

  let started = false;
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<number> | null = null;

  async function runJob(job: JobRow): Promise<void> {
    const log = { jobId: job.id, kind: job.kind, attempt: job.attempts, workerId };
    const handler = registrations.get(job.kind);
    let failure: unknown = null;
    let permanent = false;
    const startedAt = Date.now();

    if (!handler) {
      failure = new PermanentJobError(`no handler registered for job kind "${job.kind}"`);
      permanent = true;
    } else {
      let payload: unknown;
      try {
        payload = JSON.parse(job.payload_json);
      } catch (err) {
        failure = new PermanentJobError(`payload is not valid JSON: ${describeError(err)}`);
        permanent = true;
      }
      if (!failure) {
        // Heartbeat: keep the lease while the handler is alive.
        const heartbeat = setInterval(
          () => {
            renewLease(db, job, workerId, leaseMs, now()).then(
              (held) => {
                if (!held) logger.warn(log, 'job lease lost while its handler was running');
              },
              (err) => logger.warn({ ...log, err: describeError(err) }, 'job lease renewal failed'),
            );
          },
          Math.max(1000, Math.floor(leaseMs / 3)),
        );
        heartbeat.unref();
        try {
          await handler.run(payload, job);
        } catch (err) {
          failure = err ?? new Error('handler threw a nullish value');
          permanent = err instanceof PermanentJobError;
        } finally {
          clearInterval(heartbeat);
        }
      }
    }

    const ms = Date.now() - startedAt;
    if (!failure) {
      const done = await completeJob(db, job, workerId, now());
      // Routine: one line per finished job would bury what needs reading (failures stay warnings).
      if (done) logger.debug?.({ ...log, ms }, 'job done');
      else
        logger.warn(
          { ...log, ms },
          'job finished but its claim was lost (taken over by another worker); not marked done',
        );
      return;
    }
    const retryForMs = handler?.retryForMs;
    const result = await failJob(db, job, workerId, failure, {
      retryable: !permanent,
      now: now(),
      giveUpAt: retryForMs === undefined ? undefined : new Date(Date.parse(job.created_at) + retryForMs),
    });
    if (result.updated) options.metrics?.recordJobFailure(job.kind, result.status === 'pending');
    const entry = { ...log, ms, error: describeError(failure), status: result.status, retryAt: result.runAt };
    if (!result.updated) logger.warn(entry, 'job failed but its claim was lost; not updated');
    else if (result.status === 'pending') logger.warn(entry, 'job failed; will retry');
    else {
      logger.error(entry, 'job failed permanently');
      if (handler?.onGiveUp) {
        await handler
          .onGiveUp(job, failure)
          .catch((err: unknown) => logger.error({ ...log, err: describeError(err) }, 'job give-up hook failed'));
      }
    }
  }

  /** The tail of the jobs running or waiting under each exclusive key. */
  const exclusiveTails = new Map<string, Promise<void>>();

  function exclusiveKeyOf(job: JobRow): string | null {
    const registration = registrations.get(job.kind);
    if (!registration) return null;
    try {
      return registration.exclusiveKeyOf(JSON.parse(job.payload_json));
    } catch {
      return null; // runJob fails it for its payload
    }
  }

  /** Runs a claimed job, after any job of this worker with the same exclusive key. */
  function runClaimed(job: JobRow, waited: boolean): Promise<void> {
    const key = exclusiveKeyOf(job);
    if (key === null) return runClaimedNow(job, waited);
    const before = exclusiveTails.get(key);
    const mine = (before ?? Promise.resolve()).then(() => runClaimedNow(job, waited || before !== undefined));
    exclusiveTails.set(key, mine);
    return mine.finally(() => {
      if (exclusiveTails.get(key) === mine) exclusiveTails.delete(key);
    });
  }

  async function runClaimedNow(job: JobRow, waited: boolean): Promise<void> {
    try {
      if (stopping) {
        await releaseJob(db, job, workerId, now());
        return;
      }
      // A job that waited (for others of its batch, or for a job with its exclusive key): refresh
      // the lease first and skip the job if another worker has taken it over meanwhile.
      if (waited && !(await renewLease(db, job, workerId, leaseMs, now()))) {
        logger.warn({ jobId: job.id, kind: job.kind, workerId }, 'job claim lost before it started; skipped');
        return;
      }
      await runJob(job);
    } catch (err) {
      // A database error while recording the outcome: the lease expires and the job is retried.
      logger.error({ jobId: job.id, kind: job.kind, workerId, err: describeError(err) }, 'job bookkeeping failed');
    }
  }

  /** Claims a batch and runs it, `concurrency` jobs at a time (`runOnce`: tests and scripts). */
  async function runBatch(): Promise<number> {
    const jobs = await claimJobs(db, { workerId, limit: batch, leaseMs, now: now() });
    let next = 0;
    const lane = async () => {
      for (let job = jobs[next]; job; job = jobs[next]) {
        // A job that waited while others of its batch ran refreshes its lease before it starts.
        const waited = next >= concurrency;
        next += 1;
        await runClaimed(job, waited);
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, lane));
    return jobs.length;
  }

  function runOnce(): Promise<number> {
    const previous = inFlight ?? Promise.resolve(0);
    const current = previous.then(runBatch, runBatch);
    inFlight = current;
    const clear = () => {
      if (inFlight === current) inFlight = null;
    };
    current.then(clear, clear);
    return current;
  }

  /*
   * The poll loop keeps `concurrency` jobs running at all times: whenever a lane frees up it
   * claims as many due jobs as there are free lanes, and starts each at once. Under load most
   * of a job's time is spent waiting (for SMTP, the panel, a busy event loop), so throughput is
   * the number of jobs in flight over their latency: a lane must never sit idle waiting for the
   * slowest job of a batch while work is due (a claimed batch run to its end did exactly that).
   */
  const running = new Set<Promise<void>>();
  let claiming: Promise<void> | null = null;
  /** Asked to look again while a claim was under way (a wake, a job that finished). */
  let lookAgain = false;

  function startClaimed(job: JobRow): void {
    const run = runClaimed(job, false).finally(() => {
      running.delete(run);
      // The job may have enqueued follow-ups (an order event its receipt and submission).
      fillLanes();
    });
    running.add(run);
  }

  function fillLanes(): void {
    if (!started || stopping) return;
    if (claiming) {
      lookAgain = true;
      return;
    }
    const free = Math.min(concurrency - running.size, batch);
    if (free <= 0) return;
    lookAgain = false;
    claiming = (async () => {
      let full = false;
      try {
        const jobs = await claimJobs(db, { workerId, limit: free, leaseMs, now: now() });
        for (const job of jobs) startClaimed(job);
        full = jobs.length === free;
      } catch (err) {
        logger.error({ workerId, err: describeError(err) }, 'job worker poll failed');
      } finally {
        claiming = null;
      }
      // A full claim may have left more due jobs behind; an empty one waits for the next poll,
      // a wake or a finished job.
      if (full || lookAgain) fillLanes();
    })();
  }

  async function offerDueRecurringJobs(): Promise<void> {
    const at = now();
    const due = recurringSchedule.due(at);
    if (due.length === 0) return;
    await offerRecurringJobs(db, due, at);
    recurringSchedule.offered(due, at);
  }

  function schedule(delay: number): void {
    if (!started) return;
    if (timer) clearTimeout(timer);
    // tick() catches and logs its own errors, so nothing is left to handle here.
    timer = setTimeout(() => void tick(), delay);
    timer.unref();
  }

  async function tick(): Promise<void> {
    timer = undefined;
    if (!started) return;
    try {
      await offerDueRecurringJobs();
    } catch (err) {
      logger.error({ workerId, err: describeError(err) }, 'offering recurring jobs failed');
    }
    fillLanes();
    schedule(pollMs);
  }

  return {
    workerId,
    start() {
      if (started) return;
      started = true;
      stopping = false;
      logger.info({ workerId, pollMs, leaseMs, batch, kinds: [...registrations.keys()] }, 'job worker started');
      schedule(0);
    },
    async stop() {
      const wasStarted = started;
      started = false;
      stopping = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      try {
        while (inFlight || claiming || running.size > 0) await Promise.allSettled([inFlight, claiming, ...running]);
      } finally {
        stopping = false;
      }
      if (wasStarted) logger.info({ workerId }, 'job worker stopped');
    },
    runOnce: () => runOnce(),
    wake() {
      fillLanes();
    },
  };
}
