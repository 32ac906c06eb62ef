/**
 * An order row by either of its names: the store's own reference (`order_…`, the reply's
 * `razorpay_order_id`) or a provider's reference for one of its payment attempts (what a fake
 * provider knows it by: Razorpay's `order_…`, the sandbox's `sbx_…`).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export async function orderByReference(db: Kysely<Database>, reference: string) {
  const own = await db.selectFrom('orders').selectAll().where('provider_order_id', '=', reference).executeTakeFirst();
  if (own) return own;
  const attempt = await db
    .selectFrom('payment_attempts')
    .select('order_id')
    .where('reference', '=', reference)
    .executeTakeFirstOrThrow();
  return db.selectFrom('orders').selectAll().where('id', '=', attempt.order_id).executeTakeFirstOrThrow();
}
