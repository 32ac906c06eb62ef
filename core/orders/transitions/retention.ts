/**
 * The end of an order's life: the store keeps personal data no longer than its retention period,
 * so orders older than that are deleted (their timeline and refunds go with them, ON DELETE
 * CASCADE). Called by the daily purge, inside its transaction.
 */
import type { Transaction } from 'kysely';
import type { Database } from '../../../db/schema.ts';

/** Deletes every order created before `cutoff` (ISO time); returns how many went. */
export async function deleteOrdersCreatedBefore(trx: Transaction<Database>, cutoff: string): Promise<number> {
  const result = await trx.deleteFrom('orders').where('created_at', '<', cutoff).executeTakeFirstOrThrow();
  return Number(result.numDeletedRows);
}
