/**
 * Periodic work (supplier status sync, payment reconciliation, the retention purge) runs as
 * ordinary jobs, one per time slot: every instance's worker offers the job for the current slot
 * under the dedupe key `<kind>@<slot>`, the jobs table keeps the first offer and drops the rest,
 * and whichever worker claims it runs it. So with any number of instances each periodic job runs
 * once per slot, a crashed instance's run is retried by another when its lease expires, and a
 * slot nobody was up for is skipped rather than made up later.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../db/schema.ts';
import { type JobDefinition, defineJob, enqueueJob } from './queue.ts';

/** The payload of a recurring job: the slot it stands for. */
const RecurringPayload = z.object({ slot: z.number().int().nonnegative() });

export type RecurringJobDefinition<Kind extends string = string> = JobDefinition<Kind, typeof RecurringPayload>;

/**
 * A recurring kind: its payload is the slot. Retries within the slot are kept low (3): the next
 * slot runs the same work anyway, so a failing run must not pile up retries behind it.
 */
export function defineRecurringJob<const Kind extends string>(
  kind: Kind,
  maxAttempts = 3,
): RecurringJobDefinition<Kind> {
  return defineJob({ kind, payload: RecurringPayload, maxAttempts });
}

export interface RecurringJob {
  /** The job kind; a handler for it must be registered with the worker. */
  job: RecurringJobDefinition;
  /** Slot length: the job runs at most once per `everyMs`, counted from the Unix epoch. */
  everyMs: number;
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
  for (const { job, everyMs } of jobs) {
    const open = await db
      .selectFrom('jobs')
      .select('id')
      .where('kind', '=', job.kind)
      .where('status', 'in', ['pending', 'running'])
      .executeTakeFirst();
    if (open) continue;
    const slot = slotOf(now, everyMs);
    const result = await enqueueJob(db, job, { slot }, { dedupeKey: recurringDedupeKey(job.kind, slot), now });
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
    if (!(job.everyMs > 0)) throw new Error(`recurring job ${job.job.kind}: everyMs must be positive`);
  }
  const offeredSlot = new Map<string, number>();
  return {
    /** The jobs whose current slot this instance has not offered yet. */
    due(now: Date): RecurringJob[] {
      return jobs.filter((job) => offeredSlot.get(job.job.kind) !== slotOf(now, job.everyMs));
    },
    /** Records that `due` jobs were offered for their current slot. */
    offered(offeredJobs: readonly RecurringJob[], now: Date): void {
      for (const job of offeredJobs) offeredSlot.set(job.job.kind, slotOf(now, job.everyMs));
    },
  };
}
