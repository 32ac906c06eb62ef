/**
 * An admin's internal note on an order: plain text for the team (what the customer said on the
 * phone, why an order was refunded by hand). One note per order, replaced on each save, kept in
 * `order_notes` (not on the order row, whose one writer is core/orders). Only the console reads
 * it: no customer reply (order status, /client, e-mails, the confirmation) selects this table.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { AuditSink } from '../audit/audit.ts';
import { findOrder } from './console-rows.ts';
import type { OrderNote } from './contracts.ts';

/** The note of an order, or null when none was written (or it was emptied). */
export async function loadOrderNote(db: Kysely<Database>, orderId: number): Promise<OrderNote | null> {
  const row = await db
    .selectFrom('order_notes')
    .select(['body', 'updated_at'])
    .where('order_id', '=', orderId)
    .executeTakeFirst();
  return row ? { text: row.body, updatedAt: row.updated_at } : null;
}

/**
 * Sets the note of the order with this public or provider id (ConsoleError 404 when unknown).
 * The text arrives trimmed and within its length (the API's schema); an empty text removes the
 * note. Tells `audit` the note before and after.
 */
export async function saveOrderNote(
  db: Kysely<Database>,
  providerOrderId: string,
  text: string,
  by: { adminId: number | null; at: string; audit?: AuditSink | undefined },
): Promise<OrderNote | null> {
  const order = await findOrder(db, providerOrderId);
  const before = await db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom('order_notes')
      .select('body')
      .where('order_id', '=', order.id)
      .executeTakeFirst();
    if (text === '') await trx.deleteFrom('order_notes').where('order_id', '=', order.id).execute();
    else
      await trx
        .insertInto('order_notes')
        .values({ order_id: order.id, body: text, updated_at: by.at, updated_by: by.adminId })
        .onConflict((oc) =>
          oc.column('order_id').doUpdateSet({ body: text, updated_at: by.at, updated_by: by.adminId }),
        )
        .execute();
    return current?.body ?? '';
  });
  by.audit?.({ before: { note: before }, after: { note: text } });
  return text === '' ? null : { text, updatedAt: by.at };
}
