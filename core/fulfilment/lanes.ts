/**
 * One live supplier order per link (decision 057): panels refuse refunds and recounts while two
 * orders run on one link, and drip-feeds on one link conflict. Before an order is claimed for
 * `add` it takes its lane (`supplier_lanes`, whose primary key makes the hold exclusive across
 * instances); while another live order holds the lane the paid order is `queued`, and when the
 * holder stops being live the oldest queued order of the lane is sent.
 *
 * No locks, and no lost wake-up: whether a holder is live is read from its order row, which
 * changes before anyone releases the lane. The queuer marks itself `queued`, then looks at the
 * lane again (and takes it if it went free meanwhile); the releaser runs after the holder's end
 * was committed, deletes the lane row, then looks for queued orders. Either the queuer sees the
 * end or the releaser sees the queued order; a claim is a compare-and-set, so being woken twice
 * is harmless.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { FINAL_STATUSES, isFinalStatus } from '../orders/status.ts';
import { markQueued } from '../orders/transitions/index.ts';
import { FULFIL_JOB } from './jobs.ts';
import { enqueueJob } from '../jobs/queue.ts';

type Db = Kysely<Database> | Transaction<Database>;

export interface LaneHolder {
  orderId: number;
  providerOrderId: string;
  /** Still to be sent, at the supplier, or in doubt: the lane stays busy. */
  live: boolean;
}

/** How many times a taker tries again when the lane changes hands under it. */
const TAKE_ATTEMPTS = 3;

/**
 * An order is live on its lane while it is paid and not finished: not final, not refused for
 * good, and (a subscription) not ended. A flagged order is live: it may be at the supplier.
 */
export function isLiveOnLane(order: {
  payment_status: string;
  order_status: Parameters<typeof isFinalStatus>[0];
  fulfilment_state: string;
  ended_at: string | null;
}): boolean {
  return (
    order.payment_status === 'paid' &&
    !isFinalStatus(order.order_status) &&
    order.fulfilment_state !== 'failed' &&
    order.ended_at === null
  );
}

/** Each lane with its holder and what says whether the holder is live. */
function laneHolders(db: Db) {
  return db
    .selectFrom('supplier_lanes')
    .innerJoin('orders', 'orders.id', 'supplier_lanes.order_id')
    .leftJoin('subscriptions', 'subscriptions.order_id', 'orders.id')
    .select([
      'orders.id',
      'orders.provider_order_id',
      'orders.payment_status',
      'orders.order_status',
      'orders.fulfilment_state',
      'subscriptions.ended_at',
    ]);
}

export async function laneHolderOf(db: Db, laneKey: string): Promise<LaneHolder | null> {
  const row = await laneHolders(db).where('supplier_lanes.lane_key', '=', laneKey).executeTakeFirst();
  if (!row) return null;
  return { orderId: row.id, providerOrderId: row.provider_order_id, live: isLiveOnLane(row) };
}

/**
 * Takes the order's lane: inserts the lane row, keeps it when the order already holds it, or
 * takes it over from a holder that is no longer live (a compare-and-set on that holder). Returns
 * the live holder when another order has it.
 */
export async function takeLane(
  db: Kysely<Database>,
  order: { id: number; lane_key: string | null },
  at: string,
): Promise<{ held: true } | { held: false; holder: LaneHolder | null }> {
  const laneKey = order.lane_key;
  if (laneKey === null) return { held: true };
  let holder: LaneHolder | null = null;
  for (let attempt = 0; attempt < TAKE_ATTEMPTS; attempt += 1) {
    const inserted = await db
      .insertInto('supplier_lanes')
      .values({ lane_key: laneKey, order_id: order.id, taken_at: at })
      .onConflict((oc) => oc.column('lane_key').doNothing())
      .returning('order_id')
      .executeTakeFirst();
    if (inserted) return { held: true };
    holder = await laneHolderOf(db, laneKey);
    if (holder === null) continue; // released in between: insert again
    if (holder.orderId === order.id) return { held: true };
    if (holder.live) return { held: false, holder };
    const taken = await db
      .updateTable('supplier_lanes')
      .set({ order_id: order.id, taken_at: at })
      .where('lane_key', '=', laneKey)
      .where('order_id', '=', holder.orderId)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 1) return { held: true };
  }
  return { held: false, holder };
}

/**
 * Before a paid order is claimed: 'held' when it may go to the supplier, 'queued' when it waits
 * for the live order on its link (marked `queued`, then the lane is looked at again so an end in
 * between is not missed), 'busy' when the lane is held and the order is not waiting to be sent
 * (the claim decides what that means).
 */
export async function takeLaneOrQueue(
  db: Kysely<Database>,
  order: { id: number; lane_key: string | null; fulfilment_state: string },
  at: string,
): Promise<'held' | 'queued' | 'busy'> {
  for (let attempt = 0; attempt < TAKE_ATTEMPTS; attempt += 1) {
    const taken = await takeLane(db, order, at);
    if (taken.held) return 'held';
    const waitingFor = taken.holder ?? { orderId: 0, providerOrderId: '' };
    const queued = await markQueued(db, order.id, waitingFor, at);
    if (!queued) {
      const now = await db
        .selectFrom('orders')
        .select('fulfilment_state')
        .where('id', '=', order.id)
        .executeTakeFirst();
      if (now?.fulfilment_state !== 'queued') return 'busy';
    }
    if (order.lane_key === null) return 'held';
    const again = await laneHolderOf(db, order.lane_key);
    if (again !== null && again.live && again.orderId !== order.id) return 'queued';
  }
  return 'queued';
}

/** Sends the oldest paid order waiting on the lane (its fulfil job, under a key per release). */
async function wakeOldestQueued(db: Db, laneKey: string, releasedOrderId: number): Promise<number | null> {
  const next = await db
    .selectFrom('orders')
    .select('id')
    .where('lane_key', '=', laneKey)
    .where('fulfilment_state', '=', 'queued')
    .where('payment_status', '=', 'paid')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  if (!next) return null;
  await enqueueJob(db, FULFIL_JOB, { orderId: next.id }, { dedupeKey: `fulfil:${next.id}:after:${releasedOrderId}` });
  return next.id;
}

/**
 * The order stopped being live at the supplier (final, refused for good, ended): its lane goes
 * (only if it still holds it), then the oldest order queued on it is sent; returns that order. Call it after the end
 * was committed, or in the transaction of a later step (an event's subscriber).
 */
export async function releaseLane(db: Db, orderId: number): Promise<number | null> {
  const order = await db.selectFrom('orders').select('lane_key').where('id', '=', orderId).executeTakeFirst();
  if (!order?.lane_key) return null;
  const deleted = await db
    .deleteFrom('supplier_lanes')
    .where('lane_key', '=', order.lane_key)
    .where('order_id', '=', orderId)
    .executeTakeFirst();
  // Not the holder (never took it, or another order took it over): that order releases it.
  if (Number(deleted.numDeletedRows) === 0) return null;
  return wakeOldestQueued(db, order.lane_key, orderId);
}

/**
 * A safety net run with the status sync: lanes whose holder is no longer live (it ended in a way
 * that announced nothing, such as a refund before it was sent) are released, waking their queue.
 */
export async function releaseStaleLanes(db: Kysely<Database>, limit = 100): Promise<number> {
  const rows = await laneHolders(db)
    .where((eb) =>
      eb.or([
        eb('orders.payment_status', '<>', 'paid'),
        eb('orders.order_status', 'in', [...FINAL_STATUSES]),
        eb('orders.fulfilment_state', '=', 'failed'),
        eb('subscriptions.ended_at', 'is not', null),
      ]),
    )
    .limit(limit)
    .execute();
  let released = 0;
  for (const row of rows) {
    if (isLiveOnLane(row)) continue;
    await releaseLane(db, row.id);
    released += 1;
  }
  return released;
}
