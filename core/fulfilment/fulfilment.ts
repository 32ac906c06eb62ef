/**
 * Paid orders → the supplier panel, and the supplier's progress → our orders, the customer's
 * inbox and refunds.
 *
 * The panel protocol has no idempotency key, so a duplicate `add` costs real money. Submission
 * therefore marks the order `submitting` before the call and records the supplier's order id in
 * the same transaction as the status change after it. Finding an order still `submitting` means
 * a process died between the two: it is flagged for review and never resent automatically.
 */
import type { Kysely, Selectable } from 'kysely';
import type { Database, OrdersTable } from '../../db/schema.ts';
import { enqueueJob } from '../jobs/queue.ts';
import { PermanentJobError } from '../jobs/worker.ts';
import { enqueueMail } from '../mail/send-mail-job.ts';
import { renderStatusUpdate } from '../mail/templates/status-update.ts';
import { e4ToCents, formatAmountE4, parseAmountE4 } from '../money/money.ts';
import { type OrderStatus, publicOrderId } from '../orders/types.ts';
import type { PaymentProvider } from '../payments/provider.ts';
import { recordOrderEvent } from '../payments/transitions.ts';
import { REFUND_JOB } from './jobs.ts';
import { SmmPanelError, isAmbiguousAddError, isRetryableSupplierError } from './smm-panel-client.ts';
import { FINAL_STATUSES } from './statuses.ts';
import { type SupplierOrderStatus, type SupplierPanel, isSupplierStatusError } from './supplier.ts';

/** Statuses the customer hears about by e-mail. */
const NOTIFIED: OrderStatus[] = ['In Progress', 'Completed', 'Partial', 'Canceled'];

/** Supplier refusals that can heal on their own (the owner tops up the balance). */
const RETRY_LATER = /balance|funds|try again|temporar|busy|too many/i;

type OrderRow = Selectable<OrdersTable>;

/** A supplier refusal that retrying can fix: the job runs again later with backoff. */
export class RetryLaterError extends Error {}

export interface FulfilmentOptions {
  db: Kysely<Database>;
  supplier: SupplierPanel;
  provider: PaymentProvider;
  publicUrl: string;
  now?: () => Date;
}

/** What a Partial or Canceled order gets back, in e4: everything, or the undelivered share. */
export function refundAmountE4(
  order: { amount_e4: number; quantity: number },
  status: OrderStatus,
  remains: number | null,
): number {
  if (status === 'Canceled') return order.amount_e4;
  if (status !== 'Partial' || !remains || remains <= 0) return 0;
  const undelivered = Math.min(remains, order.quantity);
  // Whole cents, rounded down: never refund more than the undelivered share.
  return Math.floor((e4ToCents(order.amount_e4) * undelivered) / order.quantity) * 100;
}

export function createFulfilment(options: FulfilmentOptions) {
  const { db, supplier, provider } = options;
  const now = () => options.now?.() ?? new Date();
  const trackingUrl = (order: OrderRow) =>
    new URL(`/order-confirm/${publicOrderId(order.provider_order_id)}`, options.publicUrl).toString();

  async function flagForReview(orderId: number, reason: string, at: string) {
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('orders')
        .set({ fulfilment_state: 'needs_review', needs_review: 1, review_reason: reason, updated_at: at })
        .where('id', '=', orderId)
        .execute();
      await recordOrderEvent(trx, orderId, 'supplier.needs_review', { reason }, at);
    });
  }

  return {
    /**
     * Submits one paid order to the supplier (job `order.fulfil`). Safe to run again: only an
     * order in state `none` or `retry` is sent; one left `submitting` is flagged, not resent.
     * `quantity` overrides the ordered quantity (an admin reorder of a Partial sends the remains).
     */
    async submit(
      orderId: number,
      options: { quantity?: number } = {},
    ): Promise<'submitted' | 'skipped' | 'needs_review' | 'failed'> {
      const at = now().toISOString();
      const claimed = await db
        .updateTable('orders')
        .set((eb) => ({
          fulfilment_state: 'submitting',
          fulfilment_attempts: eb('fulfilment_attempts', '+', 1),
          updated_at: at,
        }))
        .where('id', '=', orderId)
        .where('payment_status', '=', 'paid')
        .where('fulfilment_state', 'in', ['none', 'retry'])
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) === 0) {
        const order = await db
          .selectFrom('orders')
          .select(['fulfilment_state'])
          .where('id', '=', orderId)
          .executeTakeFirst();
        if (order?.fulfilment_state !== 'submitting') return 'skipped';
        await flagForReview(
          orderId,
          'The store stopped between sending this order to the supplier and recording the answer. Check the supplier panel before applying the service again.',
          at,
        );
        return 'needs_review';
      }

      const order = await db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
      try {
        const { order: supplierOrderId } = await supplier.add({
          service: order.supplier_service_id,
          link: order.target,
          quantity: options.quantity ?? order.quantity,
          comments: order.comment
            ? order.comment
                .split(/\r?\n/)
                .map((c) => c.trim())
                .filter(Boolean)
            : undefined,
        });
        await db.transaction().execute(async (trx) => {
          await trx
            .updateTable('orders')
            .set({
              supplier_order_id: supplierOrderId,
              fulfilment_state: 'submitted',
              order_status: 'Processing',
              error_message: null,
              updated_at: now().toISOString(),
            })
            .where('id', '=', orderId)
            .where('fulfilment_state', '=', 'submitting')
            .execute();
          await recordOrderEvent(trx, orderId, 'supplier.submitted', {
            supplierOrderId,
            from: order.order_status,
            to: 'Processing',
          });
        });
        return 'submitted';
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        const later = now().toISOString();
        if (isAmbiguousAddError(error)) {
          await flagForReview(
            orderId,
            `The supplier did not answer clearly (${message}); the order may or may not exist there.`,
            later,
          );
          return 'needs_review';
        }
        const retry = error instanceof SmmPanelError && (isRetryableSupplierError(error) || RETRY_LATER.test(message));
        await db.transaction().execute(async (trx) => {
          await trx
            .updateTable('orders')
            .set({ fulfilment_state: retry ? 'retry' : 'failed', error_message: message, updated_at: later })
            .where('id', '=', orderId)
            .where('fulfilment_state', '=', 'submitting')
            .execute();
          await recordOrderEvent(trx, orderId, 'supplier.error', { message, retry }, later);
        });
        if (retry) throw new RetryLaterError(message);
        return 'failed';
      }
    },

    /**
     * Asks the supplier about open orders, up to 100 per call, least recently synced first, and
     * applies every change through a compare-and-set on the old status.
     */
    async syncStatuses(limit = 100): Promise<{ checked: number; changed: number }> {
      const open = await db
        .selectFrom('orders')
        .selectAll()
        .where('fulfilment_state', '=', 'submitted')
        .where('supplier_order_id', 'is not', null)
        .where('order_status', 'not in', FINAL_STATUSES)
        .orderBy((eb) => eb.fn.coalesce('status_synced_at', eb.val('')))
        .orderBy('id')
        .limit(Math.min(limit, 100))
        .execute();
      if (open.length === 0) return { checked: 0, changed: 0 };

      const results = await supplier.statuses(open.map((o) => o.supplier_order_id as string));
      let changed = 0;
      for (const order of open) {
        const result = results.get(order.supplier_order_id as string);
        const at = now().toISOString();
        if (!result || isSupplierStatusError(result)) {
          await db
            .updateTable('orders')
            .set({
              error_message: result ? `Supplier: ${result.error}` : 'Supplier sent no status',
              status_synced_at: at,
            })
            .where('id', '=', order.id)
            .execute();
          continue;
        }
        if (await this.applyStatus(order, result)) changed += 1;
      }
      return { checked: open.length, changed };
    },

    /** Records one supplier status; true when the order's status changed (and only then notifies and refunds). */
    async applyStatus(order: OrderRow, result: SupplierOrderStatus): Promise<boolean> {
      const at = now().toISOString();
      const facts = {
        start_count: result.startCount,
        remains: result.remains,
        supplier_charge_e4:
          result.charge && /^\d{1,12}(\.\d{1,4})?$/.test(result.charge) ? parseAmountE4(result.charge) : null,
        status_synced_at: at,
        updated_at: at,
      };
      // Our Processing means "with the supplier, not started yet": the supplier's Pending says the
      // same thing, and must not look like a step backwards.
      const next = result.status === 'Pending' && order.order_status === 'Processing' ? 'Processing' : result.status;
      if (!next || next === order.order_status) {
        await db.updateTable('orders').set(facts).where('id', '=', order.id).execute();
        return false;
      }
      return db.transaction().execute(async (trx) => {
        const updated = await trx
          .updateTable('orders')
          .set({ ...facts, order_status: next })
          .where('id', '=', order.id)
          .where('order_status', '=', order.order_status)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) === 0) return false;
        await recordOrderEvent(
          trx,
          order.id,
          'status.changed',
          { from: order.order_status, to: next, remains: result.remains },
          at,
        );

        const refundE4 = refundAmountE4(order, next, result.remains);
        if (refundE4 > 0 && order.payment_id) {
          await enqueueJob(trx, {
            kind: REFUND_JOB,
            payload: { orderId: order.id, status: next },
            dedupeKey: `refund:${order.id}`,
          });
        }
        if (NOTIFIED.includes(next)) {
          const mail = renderStatusUpdate({
            orderNumber: publicOrderId(order.provider_order_id),
            serviceName: order.service_name,
            target: order.target,
            quantity: order.quantity,
            status: next as 'In Progress' | 'Completed' | 'Partial' | 'Canceled',
            remains: result.remains,
            refund: refundE4 > 0 ? `$${formatAmountE4(refundE4, 2)}` : null,
            trackingUrl: trackingUrl(order),
            email: order.email,
          });
          await enqueueMail(trx, { to: order.email, ...mail }, { dedupeKey: `status-mail:${order.id}:${next}` });
        }
        return true;
      });
    },

    /**
     * Refunds what was not delivered (job `order.refund`). The provider call carries an
     * idempotency key, so a retry after a crash returns the first refund; our record is unique
     * per order, so it is written once however often the status is seen.
     */
    async refund(orderId: number): Promise<'refunded' | 'skipped'> {
      const order = await db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
      const existing = await db.selectFrom('refunds').select('id').where('order_id', '=', orderId).executeTakeFirst();
      if (existing) return 'skipped';
      const status = order.order_status as OrderStatus;
      const amountE4 = refundAmountE4(order, status, order.remains);
      if (amountE4 <= 0 || !order.payment_id) return 'skipped';
      if (amountE4 > order.amount_e4) throw new PermanentJobError('Refund larger than the payment');

      const { refundId } = await provider.refund({
        paymentId: order.payment_id,
        amountCents: e4ToCents(amountE4),
        idempotencyKey: `boostly-refund-${order.id}`,
        notes: { order: order.provider_order_id, reason: status },
      });
      const at = now().toISOString();
      await db.transaction().execute(async (trx) => {
        const inserted = await trx
          .insertInto('refunds')
          .values({
            order_id: order.id,
            provider_refund_id: refundId,
            amount_e4: amountE4,
            reason: status,
            created_at: at,
          })
          .onConflict((oc) => oc.column('order_id').doNothing())
          .executeTakeFirst();
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return;
        await trx
          .updateTable('orders')
          .set({ refunded_e4: amountE4, updated_at: at })
          .where('id', '=', order.id)
          .execute();
        await recordOrderEvent(
          trx,
          order.id,
          'payment.refunded',
          { refundId, amount: formatAmountE4(amountE4, 2), reason: status },
          at,
        );
      });
      return 'refunded';
    },
  };
}

export type Fulfilment = ReturnType<typeof createFulfilment>;
