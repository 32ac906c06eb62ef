/**
 * A refill request, by the customer or an admin. One open refill per order: the row is inserted
 * before the panel is asked, and the unique partial index over open rows (final = 0) lets only
 * one insert win, whoever sends it. The row then moves by compare-and-set: requesting → the
 * panel's answer. Every move is on the order's timeline.
 */
import { isUniqueViolation } from '../../../db/dialect.ts';
import { REFILL_MESSAGES } from '../../orders/refill-contracts.ts';
import { recordOrderEvent } from '../../orders/timeline.ts';
import { SmmPanelError } from '../smm-panel-client.ts';
import { type OrderRow, type RefillsDeps, eligibilityOf, refillsOf } from './deps.ts';
import { RefillError, type RefillRow } from './rules.ts';

export type RefillRequester = { kind: 'customer' } | { kind: 'admin'; adminId: number | null };

/** Inserts the open row (the race is decided here), asks the panel, records its answer. */
export async function requestRefill(
  deps: RefillsDeps,
  order: OrderRow,
  who: RefillRequester,
): Promise<{ accepted: boolean; answer: string; row: RefillRow }> {
  const { db, now } = deps;
  const rows = (await refillsOf(deps, [order.id])).get(order.id) ?? [];
  const check = await eligibilityOf(deps, order, rows, who.kind === 'customer');
  if (!check.allowed) throw new RefillError(check.reason ?? REFILL_MESSAGES.notCompleted, 409);
  const supplierOrderId = order.supplier_order_id as string;
  // The order's own panel, resolved before the open row exists (a removed panel leaves none behind).
  const supplier = await deps.panels.get(order.supplier_panel_id);

  const at = now().toISOString();
  let refillId: number;
  try {
    refillId = await db.transaction().execute(async (trx) => {
      const { id } = await trx
        .insertInto('refills')
        .values({
          order_id: order.id,
          supplier_order_id: supplierOrderId,
          supplier_refill_id: null,
          state: 'requesting',
          raw_status: null,
          requested_by: who.kind,
          admin_id: who.kind === 'admin' ? who.adminId : null,
          error_message: null,
          created_at: at,
          updated_at: at,
          polled_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await recordOrderEvent(
        trx,
        order.id,
        'refill.requested',
        { by: who.kind, ...(who.kind === 'admin' ? { adminId: who.adminId } : {}), supplierOrderId },
        at,
      );
      return Number(id);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new RefillError(REFILL_MESSAGES.alreadyOpen, 409);
    throw error;
  }

  let outcome: { state: string; final: number; refill: string | null; note: string | null };
  try {
    const { refill } = await supplier.refill(supplierOrderId);
    outcome = { state: 'Pending', final: 0, refill, note: null };
  } catch (error) {
    if (!(error instanceof SmmPanelError)) throw error;
    const note = error.kind === 'api' ? error.message : REFILL_MESSAGES.unreachable(error.message);
    outcome = { state: 'Rejected', final: 1, refill: null, note };
  }
  const done = now().toISOString();
  const row = await db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('refills')
      .set({
        state: outcome.state,
        final: outcome.final,
        supplier_refill_id: outcome.refill,
        raw_status: outcome.refill ? 'Pending' : null,
        error_message: outcome.note,
        updated_at: done,
      })
      .where('id', '=', refillId)
      .where('state', '=', 'requesting')
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 1) {
      await recordOrderEvent(
        trx,
        order.id,
        outcome.refill ? 'refill.accepted' : 'refill.rejected',
        outcome.refill ? { refillId: outcome.refill } : { reason: outcome.note },
        done,
      );
    }
    return trx.selectFrom('refills').selectAll().where('id', '=', refillId).executeTakeFirstOrThrow();
  });
  const answer = outcome.refill ? `Refill ${outcome.refill} requested at the supplier` : (outcome.note ?? '');
  return { accepted: outcome.refill !== null, answer, row };
}
