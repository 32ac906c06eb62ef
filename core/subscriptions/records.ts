/**
 * The writes fulfilment makes to a `subscriptions` row (decision 057): its dates when it reaches
 * the supplier, what the panel reports while it runs, who asked for its end, and its end. Each is
 * a compare-and-set on the state it expects, called in the transaction of the order change it
 * goes with. (The renewal reminders write their own columns.)
 */
import type { Kysely, Transaction } from 'kysely';
import type { SubscriptionEndReason } from '../../db/column-values.ts';
import type { Database } from '../../db/schema.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** The period starts when the subscription reaches the supplier; set once. */
export async function recordSubscriptionStart(
  trx: Transaction<Database>,
  orderId: number,
  period: { startsAt: string; endsAt: string },
): Promise<void> {
  await trx
    .updateTable('subscriptions')
    .set({ starts_at: period.startsAt, ends_at: period.endsAt })
    .where('order_id', '=', orderId)
    .where('starts_at', 'is', null)
    .execute();
}

/** What the panel last said: posts served, runs done, its status word. Kept after the end too. */
export async function recordPanelReport(
  trx: Transaction<Database>,
  orderId: number,
  report: { postsServed: number | null; runsDone: number | null; panelStatus: string | null },
): Promise<void> {
  await trx
    .updateTable('subscriptions')
    .set((eb) => ({
      // A panel that stops saying a figure does not erase the last one it gave.
      posts_served: report.postsServed ?? eb.ref('posts_served'),
      runs_done: report.runsDone ?? eb.ref('runs_done'),
      panel_status: report.panelStatus ?? eb.ref('panel_status'),
    }))
    .where('order_id', '=', orderId)
    .execute();
}

/**
 * The subscription ended: once. The reason is who asked for the end when someone did (recorded
 * by `markEndRequested`), else `reason` (the period ran out, or the panel ended it).
 */
export async function recordSubscriptionEnd(
  trx: Transaction<Database>,
  orderId: number,
  endedAt: string,
  reason: SubscriptionEndReason,
): Promise<boolean> {
  const ended = await trx
    .updateTable('subscriptions')
    .set((eb) => ({ ended_at: endedAt, end_reason: eb.fn.coalesce('end_reason', eb.val(reason)) }))
    .where('order_id', '=', orderId)
    .where('ended_at', 'is', null)
    .executeTakeFirst();
  return Number(ended.numUpdatedRows) === 1;
}

/**
 * The customer or the owner asked to end a running subscription: who asked is its end reason
 * once the supplier confirms the end. False when it has ended or someone already asked.
 */
export async function markEndRequested(db: Db, orderId: number, by: 'customer' | 'owner'): Promise<boolean> {
  const marked = await db
    .updateTable('subscriptions')
    .set({ end_reason: by })
    .where('order_id', '=', orderId)
    .where('ended_at', 'is', null)
    .where('end_reason', 'is', null)
    .executeTakeFirst();
  return Number(marked.numUpdatedRows) === 1;
}

/** The supplier refused the cancel: the request this caller set goes again. */
export async function clearEndRequest(db: Db, orderId: number, by: 'customer' | 'owner'): Promise<void> {
  await db
    .updateTable('subscriptions')
    .set({ end_reason: null })
    .where('order_id', '=', orderId)
    .where('ended_at', 'is', null)
    .where('end_reason', '=', by)
    .execute();
}
