/**
 * Periodic work (supplier status sync, payment reconciliation, the retention purge) runs as
 * ordinary jobs, one per time slot: every instance's worker offers the job for the current slot
 * under the dedupe key `<kind>@<slot>`, the jobs table keeps the first offer and drops the rest,
 * and whichever worker claims it runs it. So with any number of instances each periodic job runs
 * once per slot, a crashed instance's run is retried by another when its lease expires, and a
 * slot nobody was up for is skipped rather than made up later.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { enqueueJob } from './queue.ts';

export interface RecurringJob {
  /** The job kind; a handler for it must be registered with the worker. */
  kind: string;
  /** Slot length: the job runs at most once per `everyMs`, counted from the Unix epoch. */
  everyMs: number;
  /**
   * Retries within the slot. Kept low: the next slot runs the same work anyway, so a failing run
   * must not pile up retries behind it.
   */
  maxAttempts?: number | undefined;
}

/** The payload of a recurring job: the slot it stands for. */
export interface RecurringPayload {
  slot: number;
}

export function slotOf(now: Date, everyMs: number): number {
  return Math.floor(now.getTime() / everyMs);
}

export function recurringDedupeKey(kind: string, slot: number): string {
  return `${kind}@${slot}`;
}

/**
 * Offers each recurring job for the current slot unless a run of the same kind is still pending
 * or running (a slow supplier must not stack up overlapping syncs). Returns the kinds this call
 * enqueued; offers that lost to another instance are not counted.
 */
export async function offerRecurringJobs(
  db: Kysely<Database>,
  jobs: readonly RecurringJob[],
  now = new Date(),
): Promise<string[]> {
  const enqueued: string[] = [];
  for (const job of jobs) {
    const open = await db
      .selectFrom('jobs')
      .select('id')
      .where('kind', '=', job.kind)
      .where('status', 'in', ['pending', 'running'])
      .executeTakeFirst();
    if (open) continue;
    const slot = slotOf(now, job.everyMs);
    const payload: RecurringPayload = { slot };
    const result = await enqueueJob(db, {
      kind: job.kind,
      payload,
      dedupeKey: recurringDedupeKey(job.kind, slot),
      maxAttempts: job.maxAttempts ?? 3,
      now,
    });
    if (result.enqueued) enqueued.push(job.kind);
  }
  return enqueued;
}

/**
 * Tells a worker when to offer again: once per slot per kind, so an idle instance asks the
 * database about each recurring job once per slot, not on every poll.
 */
export function createRecurringSchedule(jobs: readonly RecurringJob[]) {
  for (const job of jobs) {
    if (!(job.everyMs > 0)) throw new Error(`recurring job ${job.kind}: everyMs must be positive`);
  }
  const offeredSlot = new Map<string, number>();
  return {
    /** The jobs whose current slot this instance has not offered yet. */
    due(now: Date): RecurringJob[] {
      return jobs.filter((job) => offeredSlot.get(job.kind) !== slotOf(now, job.everyMs));
    },
    /** Records that `due` jobs were offered for their current slot. */
    offered(offeredJobs: readonly RecurringJob[], now: Date): void {
      for (const job of offeredJobs) offeredSlot.set(job.kind, slotOf(now, job.everyMs));
    },
  };
}
