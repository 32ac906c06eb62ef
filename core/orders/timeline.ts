/**
 * The order timeline (`order_events`): what happened to an order, in order, for the admin's
 * detail view and for troubleshooting. Every module that changes an order writes here through
 * `recordOrderEvent`, in the same transaction as the change.
 */
import type { Kysely, Transaction } from 'kysely';
import type { OrderEventKind } from '../../db/column-values.ts';
import type { Database } from '../../db/schema.ts';

/** Appends one entry; returns its id (status changes use it to name their event). */
export async function recordOrderEvent(
  db: Kysely<Database> | Transaction<Database>,
  orderId: number,
  kind: OrderEventKind,
  detail: Record<string, unknown>,
  at = new Date().toISOString(),
): Promise<number> {
  const row = await db
    .insertInto('order_events')
    .values({ order_id: orderId, at, kind, detail_json: JSON.stringify(detail) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/**
 * Appends one entry unless an entry with this key was written before (a unique index, so two
 * racing writers still write one); returns whether this call wrote it. For entries whose cause is
 * seen again and again (a flagged payment, by every reconciler pass and every repeated verify).
 */
export async function recordOrderEventOnce(
  db: Kysely<Database> | Transaction<Database>,
  orderId: number,
  kind: OrderEventKind,
  detail: Record<string, unknown>,
  key: string,
  at = new Date().toISOString(),
): Promise<boolean> {
  const inserted = await db
    .insertInto('order_events')
    .values({ order_id: orderId, at, kind, detail_json: JSON.stringify(detail), event_key: key })
    .onConflict((oc) => oc.column('event_key').doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
}
