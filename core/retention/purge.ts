/**
 * The store promises to keep personal data no longer than 2 years (spec section 1). A daily job
 * deletes orders (with their timeline and refunds), e-mails (the jobs that carried them),
 * one-time codes and provider leftovers older than that, and logs how many of each went.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export const RETENTION_DAYS = 730;
const DAY_MS = 86_400_000;

export interface PurgeCounts {
  orders: number;
  mails: number;
  jobs: number;
  codes: number;
  webhookEvents: number;
  sandboxPayments: number;
  simulatedPanelOrders: number;
}

export async function purgeExpiredData(db: Kysely<Database>, now = new Date()): Promise<PurgeCounts> {
  const cutoff = new Date(now.getTime() - RETENTION_DAYS * DAY_MS).toISOString();
  const count = (result: { numDeletedRows: bigint }) => Number(result.numDeletedRows);
  return db.transaction().execute(async (trx) => {
    // order_events and refunds go with their order (ON DELETE CASCADE).
    const orders = count(await trx.deleteFrom('orders').where('created_at', '<', cutoff).executeTakeFirstOrThrow());
    const finished = (kind: 'mail' | 'other') =>
      trx
        .deleteFrom('jobs')
        .where('created_at', '<', cutoff)
        .where('status', 'in', ['done', 'failed'])
        .where('kind', kind === 'mail' ? '=' : '!=', 'mail.send')
        .executeTakeFirstOrThrow();
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
    return { orders, mails, jobs, codes, webhookEvents, sandboxPayments, simulatedPanelOrders };
  });
}
