/**
 * The store promises to keep personal data no longer than 2 years (spec section 1). A daily job
 * deletes orders (with their timeline and refunds), e-mails (the jobs that carried them),
 * contact messages, one-time codes and provider leftovers older than that, and logs how many of each went.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { defineRecurringJob } from '../jobs/recurring.ts';
import { MAIL_JOB } from '../mail/send-mail-job.ts';
import { deleteOrdersCreatedBefore } from '../orders/transitions/index.ts';

const RETENTION_DAYS = 730;
/** Recurring: the purge runs once per day (UTC). */
export const RETENTION_PURGE_JOB = defineRecurringJob('retention.purge');
export const PURGE_EVERY_MS = 86_400_000;
const DAY_MS = 86_400_000;

interface PurgeCounts {
  orders: number;
  mails: number;
  jobs: number;
  /** Finished runs of recurring jobs older than a day. */
  recurringRuns: number;
  codes: number;
  webhookEvents: number;
  sandboxPayments: number;
  simulatedPanelOrders: number;
  /** Messages from the contact form (core/contact). */
  contactMessages: number;
}

/**
 * Finished runs of recurring jobs (status sync, reconciliation, this purge) carry no personal
 * data and nothing a customer or an admin looks at; they are kept a day for troubleshooting.
 */
const RECURRING_RUNS_KEPT_MS = DAY_MS;

export async function purgeExpiredData(
  db: Kysely<Database>,
  now = new Date(),
  recurringKinds: readonly string[] = [],
): Promise<PurgeCounts> {
  const cutoff = new Date(now.getTime() - RETENTION_DAYS * DAY_MS).toISOString();
  const count = (result: { numDeletedRows: bigint }) => Number(result.numDeletedRows);
  return db.transaction().execute(async (trx) => {
    const orders = await deleteOrdersCreatedBefore(trx, cutoff);
    const finished = (kind: 'mail' | 'other') =>
      trx
        .deleteFrom('jobs')
        .where('created_at', '<', cutoff)
        .where('status', 'in', ['done', 'failed'])
        .where('kind', kind === 'mail' ? '=' : '!=', MAIL_JOB)
        .executeTakeFirstOrThrow();
    const recurringRuns =
      recurringKinds.length === 0
        ? 0
        : count(
            await trx
              .deleteFrom('jobs')
              .where('kind', 'in', [...recurringKinds])
              .where('status', 'in', ['done', 'failed'])
              .where('updated_at', '<', new Date(now.getTime() - RECURRING_RUNS_KEPT_MS).toISOString())
              .executeTakeFirstOrThrow(),
          );
    const mails = count(await finished('mail'));
    const jobs = count(await finished('other'));
    const codes = count(
      await trx.deleteFrom('one_time_codes').where('expires_at', '<', cutoff).executeTakeFirstOrThrow(),
    );
    const webhookEvents = count(
      await trx.deleteFrom('webhook_events').where('received_at', '<', cutoff).executeTakeFirstOrThrow(),
    );
    const sandboxPayments = count(
      await trx.deleteFrom('sandbox_payments').where('created_at', '<', cutoff).executeTakeFirstOrThrow(),
    );
    const simulatedPanelOrders = count(
      await trx.deleteFrom('simulated_panel_orders').where('created_at', '<', cutoff).executeTakeFirstOrThrow(),
    );
    const contactMessages = count(
      await trx.deleteFrom('contact_messages').where('created_at', '<', cutoff).executeTakeFirstOrThrow(),
    );
    return {
      orders,
      mails,
      jobs,
      recurringRuns,
      codes,
      webhookEvents,
      sandboxPayments,
      simulatedPanelOrders,
      contactMessages,
    };
  });
}
