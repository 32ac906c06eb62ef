/**
 * Money given back. A refund is recorded once per order (the `refunds` row is unique per order),
 * and the order's `refunded_e4` grows by exactly that amount in the same transaction, so a retried
 * refund job, or two racing ones, add it once.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { formatAmountE4 } from '../../money/money.ts';
import type { OrderStatus } from '../status.ts';
import { recordOrderEvent } from '../timeline.ts';

export interface RefundFacts {
  orderId: number;
  /** The payment provider's id for the refund. */
  providerRefundId: string;
  amountE4: number;
  /** The order status that made it due (Partial, Canceled). */
  reason: OrderStatus;
  /** Units not delivered, for the timeline. */
  undelivered: number | null;
}

/** Records a refund the provider made; false when this order's refund was already recorded. */
export async function recordRefund(db: Kysely<Database>, facts: RefundFacts, at: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('refunds')
      .values({
        order_id: facts.orderId,
        provider_refund_id: facts.providerRefundId,
        amount_e4: facts.amountE4,
        reason: facts.reason,
        created_at: at,
      })
      .onConflict((oc) => oc.column('order_id').doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return false;
    await trx
      .updateTable('orders')
      .set((eb) => ({ refunded_e4: eb('refunded_e4', '+', facts.amountE4), updated_at: at }))
      .where('id', '=', facts.orderId)
      .execute();
    await recordOrderEvent(
      trx,
      facts.orderId,
      'payment.refunded',
      {
        refundId: facts.providerRefundId,
        amount: formatAmountE4(facts.amountE4, 2),
        reason: facts.reason,
        undelivered: facts.undelivered,
      },
      at,
    );
    return true;
  });
}
