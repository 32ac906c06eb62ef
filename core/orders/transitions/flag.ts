/**
 * An order flagged for the owner: `needs_review` with the reason in words, and the timeline entry
 * that says what happened, in the caller's transaction. Used by the payment and refund changes
 * that money alone cannot settle (a second payment, an underpayment, a chargeback, a refund the
 * store cannot make).
 */
import type { Transaction } from 'kysely';
import type { OrderEventKind } from '../../../db/column-values.ts';
import type { Database } from '../../../db/schema.ts';
import { recordOrderEvent } from '../timeline.ts';

export async function flagOrderForOwner(
  trx: Transaction<Database>,
  orderId: number,
  reason: string,
  entry: { kind: OrderEventKind; detail: Record<string, unknown> },
  at: string,
): Promise<void> {
  await trx
    .updateTable('orders')
    .set({ needs_review: 1, review_reason: reason, updated_at: at })
    .where('id', '=', orderId)
    .execute();
  await recordOrderEvent(trx, orderId, entry.kind, entry.detail, at);
}
