/**
 * Paid orders → the supplier panel, and the supplier's progress → our orders (and, through the
 * `order.status_changed` event, the customer's inbox and refunds).
 *
 * The panel protocol has no idempotency key, so a duplicate `add` costs real money. Submission
 * therefore marks the order `submitting` before the call and records the supplier's order (a
 * supplier_orders row) in the same transaction as the state change after it. Finding an order
 * still `submitting` means a process died between the two: it is flagged for review and never
 * resent automatically. An order never has two live supplier orders: the claim itself refuses
 * while one is live (decision 012).
 *
 * Every supplier order is synced until it is final; the order's status and remains are derived
 * from all of them (core/orders/progress.ts). Admin reorder and apply-service run here as jobs.
 */
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, OrdersTable, SupplierOrdersTable } from '../../db/schema.ts';
import { PermanentJobError } from '../jobs/worker.ts';
import { e4ToCents, formatAmountE4, parseAmountE4 } from '../money/money.ts';
import { publishOrderEvent } from '../orders/events.ts';
import { type SupplierOrderFacts, deriveOrderProgress, refundDueE4, undeliveredQuantity } from '../orders/progress.ts';
import { type OrderStatus, type PendingAction, canChangeOrderStatus, isFinalStatus } from '../orders/status.ts';
import { recordOrderEvent } from '../orders/timeline.ts';
import type { PaymentProvider } from '../payments/provider.ts';
import { type AdminActionPayload, adminActionDedupeKey, enqueueAdminAction } from './jobs.ts';
import { SmmPanelError, isAmbiguousAddError, isRetryableSupplierError } from './smm-panel-client.ts';
import type { SupplierPanels } from './panels.ts';
import { type SupplierOrderStatus, type SupplierPanel, isSupplierStatusError } from './supplier.ts';

/** Supplier refusals that can heal on their own (the owner tops up the balance). */
const RETRY_LATER = /balance|funds|try again|temporar|busy|too many/i;

type OrderRow = Selectable<OrdersTable>;
type SupplierOrderRow = Selectable<SupplierOrdersTable>;
type Db = Kysely<Database> | Transaction<Database>;

/** A supplier refusal that retrying can fix: the job runs again later with backoff. */
export class RetryLaterError extends Error {}

export interface FulfilmentOptions {
  db: Kysely<Database>;
  /** Each order is fulfilled on its own panel (`orders.supplier_panel_id`, decision 045). */
  panels: SupplierPanels;
  provider: PaymentProvider;
  now?: (() => Date) | undefined;
}

export type SubmitOutcome = 'submitted' | 'skipped' | 'needs_review' | 'failed';

const factsOf = (row: SupplierOrderRow): SupplierOrderFacts => ({
  quantity: row.quantity,
  status: row.status,
  remains: row.remains,
  final: row.final === 1,
});

function supplierOrdersOf(db: Db, orderId: number): Promise<SupplierOrderRow[]> {
  return db.selectFrom('supplier_orders').selectAll().where('order_id', '=', orderId).orderBy('id').execute();
}

export function createFulfilment(options: FulfilmentOptions) {
  const { db, panels, provider } = options;

  const now = () => options.now?.() ?? new Date();

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

  /**
   * Brings the order's status and remains in line with its supplier orders (inside `trx`): a
   * status change is a compare-and-set on the old status with a timeline entry and an
   * `order.status_changed` event. Returns whether the status changed.
   */
  async function reconcileOrder(trx: Transaction<Database>, orderId: number, at: string, cause: object) {
    const order = await trx.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
    const supplierOrders = await supplierOrdersOf(trx, orderId);
    const progress = deriveOrderProgress(order, supplierOrders.map(factsOf));
    if (!progress) return false;
    const latest = supplierOrders.at(-1);
    const facts = {
      remains: progress.remains,
      start_count: latest?.start_count ?? null,
      supplier_charge_e4: supplierOrders.some((s) => s.charge_e4 !== null)
        ? supplierOrders.reduce((sum, s) => sum + (s.charge_e4 ?? 0), 0)
        : null,
      status_synced_at: at,
      updated_at: at,
    };
    const to = progress.status;
    const from = order.order_status;
    if (to === from || !canChangeOrderStatus(from, to)) {
      await trx.updateTable('orders').set(facts).where('id', '=', orderId).execute();
      return false;
    }
    const updated = await trx
      .updateTable('orders')
      .set({ ...facts, order_status: to })
      .where('id', '=', orderId)
      .where('order_status', '=', from)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) return false;
    const timelineId = await recordOrderEvent(
      trx,
      orderId,
      'status.changed',
      { from, to, remains: progress.remains, ...cause },
      at,
    );
    await publishOrderEvent(
      trx,
      { type: 'order.status_changed', orderId, from, to, remains: progress.remains, timelineId },
      new Date(at),
    );
    return true;
  }

  /** Ends an admin action: clears the pending mark (of this attempt only) and records the result. */
  async function finishAction(
    action: PendingAction,
    payload: AdminActionPayload,
    outcome: 'done' | 'failed',
    detail: Record<string, unknown>,
  ) {
    const at = now().toISOString();
    await db.transaction().execute(async (trx) => {
      const cleared = await trx
        .updateTable('orders')
        .set({ pending_action: null, updated_at: at })
        .where('id', '=', payload.orderId)
        .where('pending_action', '=', action)
        .where('action_attempts', '=', payload.attempt)
        .executeTakeFirst();
      if (Number(cleared.numUpdatedRows) === 0) return;
      await recordOrderEvent(
        trx,
        payload.orderId,
        outcome === 'done' ? 'admin.action_done' : 'admin.action_failed',
        { action, attempt: payload.attempt, adminId: payload.adminId, ...detail },
        at,
      );
      // Settled now: the order may be final (and owed a refund) with nothing more to send.
      await reconcileOrder(trx, payload.orderId, at, { action });
    });
  }

  /** The action's attempt is still the order's current one and still pending. */
  async function currentAction(action: PendingAction, payload: AdminActionPayload): Promise<OrderRow | null> {
    const order = await db.selectFrom('orders').selectAll().where('id', '=', payload.orderId).executeTakeFirst();
    if (!order || order.pending_action !== action || order.action_attempts !== payload.attempt) return null;
    return order;
  }

  /**
   * Sends what is undelivered as a new supplier order, for an admin action: puts the fulfilment
   * state back to `none` from exactly the state it is in, then the same claim as the first
   * submission, which refuses while a supplier order is live. An order found `submitting` is left
   * as it is: an earlier run of this job died during `add`, and `submit` flags it for review
   * instead of sending it a second time.
   */
  async function resend(order: OrderRow, action: PendingAction, payload: AdminActionPayload) {
    if (order.fulfilment_state !== 'none' && order.fulfilment_state !== 'submitting') {
      const reset = await db
        .updateTable('orders')
        .set({
          fulfilment_state: 'none',
          updated_at: now().toISOString(),
          // Resolving the review is what the admin asked for; other review reasons (a second
          // payment to refund) stay.
          ...(order.fulfilment_state === 'needs_review' ? { needs_review: 0, review_reason: null } : {}),
        })
        .where('id', '=', order.id)
        .where('fulfilment_state', '=', order.fulfilment_state)
        .where('pending_action', '=', action)
        .where('action_attempts', '=', payload.attempt)
        .executeTakeFirst();
      if (Number(reset.numUpdatedRows) === 0) {
        await finishAction(action, payload, 'failed', { reason: 'The order changed in the meantime.' });
        return;
      }
    }
    const outcome = await fulfilment.submit(order.id);
    const after = await db
      .selectFrom('orders')
      .select(['supplier_order_id', 'error_message', 'fulfilment_state'])
      .where('id', '=', order.id)
      .executeTakeFirstOrThrow();
    switch (outcome) {
      case 'submitted':
        return finishAction(action, payload, 'done', { supplierOrderId: after.supplier_order_id });
      case 'failed':
        return finishAction(action, payload, 'failed', { reason: after.error_message ?? 'The supplier refused' });
      case 'needs_review':
        return finishAction(action, payload, 'failed', {
          reason: 'The supplier did not answer clearly; the order was flagged for review.',
        });
      case 'skipped':
        return finishAction(action, payload, 'failed', { reason: 'The order changed in the meantime.' });
    }
  }

  /** Runs an admin action's job body; on its last attempt a failure still ends the action. */
  async function runAction(
    action: PendingAction,
    payload: AdminActionPayload,
    job: { attempts: number; max_attempts: number },
    body: (order: OrderRow) => Promise<void>,
  ) {
    const order = await currentAction(action, payload);
    if (!order) return;
    try {
      await body(order);
    } catch (error) {
      if (job.attempts >= job.max_attempts) {
        const reason = error instanceof Error ? error.message : String(error);
        await finishAction(action, payload, 'failed', { reason });
      }
      throw error;
    }
  }

  /** Asks one panel about its live supplier orders and applies what changed; returns how many orders changed status. */
  async function syncPanel(panelId: number, live: SupplierOrderRow[]): Promise<number> {
    const supplier = await panels.get(panelId);
    const results = await supplier.statuses(live.map((o) => o.supplier_order_id));
    let changed = 0;
    for (const supplierOrder of live) {
      const result = results.get(supplierOrder.supplier_order_id);
      if (!result || isSupplierStatusError(result)) {
        const at = now().toISOString();
        const message = result ? `Supplier: ${result.error}` : 'Supplier sent no status';
        await db.transaction().execute(async (trx) => {
          await trx
            .updateTable('supplier_orders')
            .set({ error_message: message, synced_at: at })
            .where('id', '=', supplierOrder.id)
            .execute();
          await trx
            .updateTable('orders')
            .set({ error_message: message, status_synced_at: at })
            .where('id', '=', supplierOrder.order_id)
            .execute();
        });
        continue;
      }
      if (await fulfilment.applyStatus(supplierOrder, result)) changed += 1;
    }
    return changed;
  }

  const fulfilment = {
    /**
     * Submits a paid order's undelivered quantity to the supplier (job `order.fulfil`, and the
     * admin actions). Safe to run again: only an order in state `none` or `retry` with no live
     * supplier order is sent; one left `submitting` is flagged, not resent.
     */
    async submit(orderId: number): Promise<SubmitOutcome> {
      // Before the claim: a panel that cannot be built (removed, key unreadable) leaves the order
      // unclaimed for the job's retry instead of stuck in `submitting`.
      const sold = await db
        .selectFrom('orders')
        .select('supplier_panel_id')
        .where('id', '=', orderId)
        .executeTakeFirst();
      if (!sold) return 'skipped';
      const supplier = await panels.get(sold.supplier_panel_id);
      const at = now().toISOString();
      const claimed = await db
        .updateTable('orders')
        .set((eb) => ({
          fulfilment_state: 'submitting' as const,
          fulfilment_attempts: eb('fulfilment_attempts', '+', 1),
          updated_at: at,
        }))
        .where('id', '=', orderId)
        .where('payment_status', '=', 'paid')
        .where('fulfilment_state', 'in', ['none', 'retry'])
        .where((eb) =>
          eb.not(
            eb.exists(
              eb.selectFrom('supplier_orders').select('id').where('order_id', '=', orderId).where('final', '=', 0),
            ),
          ),
        )
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
      const earlier = await supplierOrdersOf(db, orderId);
      const quantity = undeliveredQuantity(order.quantity, earlier.map(factsOf));
      if (quantity <= 0) {
        await db
          .updateTable('orders')
          .set({ fulfilment_state: 'submitted', updated_at: now().toISOString() })
          .where('id', '=', orderId)
          .where('fulfilment_state', '=', 'submitting')
          .execute();
        return 'skipped';
      }
      try {
        const { order: supplierOrderId } = await supplier.add({
          service: order.supplier_service_id,
          link: order.target,
          quantity,
          comments: order.comment
            ? order.comment
                .split(/\r?\n/)
                .map((c) => c.trim())
                .filter(Boolean)
            : undefined,
        });
        const later = now().toISOString();
        await db.transaction().execute(async (trx) => {
          await trx
            .insertInto('supplier_orders')
            .values({
              order_id: orderId,
              supplier_order_id: supplierOrderId,
              quantity,
              status: 'Processing',
              remains: quantity,
              start_count: null,
              charge_e4: null,
              final: 0,
              cancel_requested_at: null,
              error_message: null,
              created_at: later,
              synced_at: null,
            })
            .execute();
          await trx
            .updateTable('orders')
            .set({
              supplier_order_id: supplierOrderId,
              fulfilment_state: 'submitted',
              order_status: 'Processing',
              error_message: null,
              updated_at: later,
            })
            .where('id', '=', orderId)
            .where('fulfilment_state', '=', 'submitting')
            .execute();
          const timelineId = await recordOrderEvent(
            trx,
            orderId,
            'supplier.submitted',
            {
              supplierOrderId,
              quantity,
              ...(earlier.length > 0 ? { previousSupplierOrderIds: earlier.map((s) => s.supplier_order_id) } : {}),
              from: order.order_status,
              to: 'Processing',
            },
            later,
          );
          if (order.order_status !== 'Processing')
            await publishOrderEvent(
              trx,
              {
                type: 'order.status_changed',
                orderId,
                from: order.order_status,
                to: 'Processing',
                remains: quantity,
                timelineId,
              },
              new Date(later),
            );
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
          await recordOrderEvent(trx, orderId, 'supplier.error', { message, retry, quantity }, later);
        });
        if (retry) throw new RetryLaterError(message);
        return 'failed';
      }
    },

    /**
     * Asks the supplier about live supplier orders, up to 100 per call, least recently synced
     * first, and applies every change through a compare-and-set.
     */
    async syncStatuses(limit = 100): Promise<{ checked: number; changed: number }> {
      const rows = await db
        .selectFrom('supplier_orders')
        .innerJoin('orders', 'orders.id', 'supplier_orders.order_id')
        .selectAll('supplier_orders')
        .select('orders.supplier_panel_id')
        .where('supplier_orders.final', '=', 0)
        .orderBy((eb) => eb.fn.coalesce('supplier_orders.synced_at', eb.val('')))
        .orderBy('supplier_orders.id')
        .limit(Math.min(limit, 100))
        .execute();
      if (rows.length === 0) return { checked: 0, changed: 0 };

      // One `status` call per panel: the ids are the panel's own (two panels may both have 23501).
      const byPanel = new Map<number, SupplierOrderRow[]>();
      for (const { supplier_panel_id: panelId, ...supplierOrder } of rows) {
        byPanel.set(panelId, [...(byPanel.get(panelId) ?? []), supplierOrder]);
      }
      let changed = 0;
      let firstFailure: Error | null = null;
      for (const [panelId, live] of byPanel) {
        try {
          changed += await syncPanel(panelId, live);
        } catch (error) {
          // One panel down must not stop the others; the job still fails (and logs) afterwards.
          firstFailure ??= error instanceof Error ? error : new Error(String(error));
        }
      }
      if (firstFailure !== null) throw firstFailure;
      return { checked: rows.length, changed };
    },

    /**
     * Records one supplier status for one supplier order, then re-derives the order. True when
     * the order's status changed. A supplier order that turns final while a reorder waits for it
     * resumes that reorder.
     */
    async applyStatus(supplierOrder: SupplierOrderRow, result: SupplierOrderStatus): Promise<boolean> {
      const at = now().toISOString();
      // The supplier's Pending says what our Processing says; unknown spellings change nothing.
      const status: OrderStatus =
        result.status === null || result.status === 'Pending' ? supplierOrder.status : result.status;
      const final = isFinalStatus(status);
      return db.transaction().execute(async (trx) => {
        const updated = await trx
          .updateTable('supplier_orders')
          .set({
            status,
            remains: result.remains,
            start_count: result.startCount,
            charge_e4:
              result.charge && /^\d{1,12}(\.\d{1,4})?$/.test(result.charge) ? parseAmountE4(result.charge) : null,
            final: final ? 1 : 0,
            error_message: null,
            synced_at: at,
          })
          .where('id', '=', supplierOrder.id)
          .where('final', '=', 0)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) === 0) return false;
        const order = await trx
          .selectFrom('orders')
          .select(['pending_action', 'action_attempts'])
          .where('id', '=', supplierOrder.order_id)
          .executeTakeFirstOrThrow();
        if (final && supplierOrder.cancel_requested_at !== null) {
          await recordOrderEvent(
            trx,
            supplierOrder.order_id,
            'supplier.final',
            { supplierOrderId: supplierOrder.supplier_order_id, status, remains: result.remains },
            at,
          );
        }
        if (final && order.pending_action === 'reorder') {
          await enqueueAdminAction(
            trx,
            'reorder',
            { orderId: supplierOrder.order_id, attempt: order.action_attempts, adminId: null },
            'resume',
          );
        }
        return reconcileOrder(trx, supplierOrder.order_id, at, { supplierOrderId: supplierOrder.supplier_order_id });
      });
    },

    /**
     * Admin reorder (job `admin.reorder`, decision 012). A live supplier order is cancelled at
     * the panel first; if the panel refuses, the reorder is refused with its reason and nothing
     * else happens. Once every supplier order is final (seen right away or by a later sync, which
     * resumes this job), what is still undelivered is sent as a new supplier order.
     */
    async reorder(payload: AdminActionPayload, job: { attempts: number; max_attempts: number }): Promise<void> {
      await runAction('reorder', payload, job, async (order) => {
        const live = (await supplierOrdersOf(db, order.id)).find((s) => s.final === 0);
        if (live) {
          const supplier = await panels.get(order.supplier_panel_id);
          if (live.cancel_requested_at === null) {
            const refusal = await cancelAtSupplier(supplier, live.supplier_order_id);
            const at = now().toISOString();
            if (refusal !== null) {
              await db.transaction().execute(async (trx) => {
                await recordOrderEvent(
                  trx,
                  order.id,
                  'supplier.cancel_refused',
                  { supplierOrderId: live.supplier_order_id, reason: refusal },
                  at,
                );
              });
              await finishAction('reorder', payload, 'failed', {
                reason: `The supplier refused to cancel order ${live.supplier_order_id}: ${refusal}`,
              });
              return;
            }
            await db.transaction().execute(async (trx) => {
              await trx
                .updateTable('supplier_orders')
                .set({ cancel_requested_at: at })
                .where('id', '=', live.id)
                .execute();
              await recordOrderEvent(
                trx,
                order.id,
                'supplier.cancel_requested',
                { supplierOrderId: live.supplier_order_id },
                at,
              );
            });
          }
          // Ask once now: most panels cancel at once. Otherwise the sync resumes this reorder.
          const results = await supplier.statuses([live.supplier_order_id]);
          const result = results.get(live.supplier_order_id);
          if (result && !isSupplierStatusError(result)) {
            const fresh = await db
              .selectFrom('supplier_orders')
              .selectAll()
              .where('id', '=', live.id)
              .executeTakeFirstOrThrow();
            await fulfilment.applyStatus(fresh, result);
          }
          const stillLive = await db
            .selectFrom('supplier_orders')
            .select('id')
            .where('id', '=', live.id)
            .where('final', '=', 0)
            .executeTakeFirst();
          if (stillLive) return;
        }
        const current = await currentAction('reorder', payload);
        if (!current) return;
        const undelivered = undeliveredQuantity(
          current.quantity,
          (await supplierOrdersOf(db, current.id)).map(factsOf),
        );
        if (undelivered <= 0) {
          await finishAction('reorder', payload, 'done', { reason: 'Nothing remains to be delivered' });
          return;
        }
        await resend(current, 'reorder', payload);
      });
    },

    /**
     * Ends admin actions whose job failed for good without running its last attempt to the end
     * (the worker died during it: the queue then marks the job failed without calling us), so
     * the console does not show them pending forever. Runs with the status sync.
     */
    async endAbandonedActions(): Promise<number> {
      const pending = await db
        .selectFrom('orders')
        .select(['id', 'pending_action', 'action_attempts'])
        .where('pending_action', 'is not', null)
        .limit(100)
        .execute();
      let ended = 0;
      for (const order of pending) {
        const action = order.pending_action;
        if (action === null) continue;
        const key = adminActionDedupeKey(action, order.id, order.action_attempts);
        const jobs = await db
          .selectFrom('jobs')
          .select(['status', 'last_error'])
          .where('dedupe_key', 'in', [key, `${key}:resume`])
          .execute();
        const failed = jobs.find((job) => job.status === 'failed');
        if (!failed || jobs.some((job) => job.status === 'pending' || job.status === 'running')) continue;
        const payload = { orderId: order.id, attempt: order.action_attempts, adminId: null };
        await finishAction(action, payload, 'failed', {
          reason: failed.last_error ?? 'The job stopped before it finished.',
        });
        ended += 1;
      }
      return ended;
    },

    /** Admin apply-service (job `admin.apply-service`): sends the order now. */
    async applyService(payload: AdminActionPayload, job: { attempts: number; max_attempts: number }): Promise<void> {
      await runAction('apply-service', payload, job, (order) => resend(order, 'apply-service', payload));
    },

    /**
     * Refunds what was not delivered (job `order.refund`), once the order is final. The provider
     * call carries an idempotency key, so a retry after a crash returns the first refund; our
     * record is unique per order, so it is written once however often the job runs.
     */
    async refund(orderId: number): Promise<'refunded' | 'skipped'> {
      const order = await db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
      const existing = await db.selectFrom('refunds').select('id').where('order_id', '=', orderId).executeTakeFirst();
      if (existing || !isFinalStatus(order.order_status) || !order.payment_id) return 'skipped';
      // Never while anything may still be delivered.
      const live = await db
        .selectFrom('supplier_orders')
        .select('id')
        .where('order_id', '=', orderId)
        .where('final', '=', 0)
        .executeTakeFirst();
      if (live || order.pending_action !== null) return 'skipped';
      const amountE4 = refundDueE4(order, order.remains);
      if (amountE4 <= 0) return 'skipped';
      if (amountE4 + order.refunded_e4 > order.amount_e4) throw new PermanentJobError('Refund larger than the payment');

      const { refundId } = await provider.refund({
        paymentId: order.payment_id,
        amountCents: e4ToCents(amountE4),
        idempotencyKey: `boostly-refund-${order.id}`,
        notes: { order: order.provider_order_id, reason: order.order_status },
      });
      const at = now().toISOString();
      await db.transaction().execute(async (trx) => {
        const inserted = await trx
          .insertInto('refunds')
          .values({
            order_id: order.id,
            provider_refund_id: refundId,
            amount_e4: amountE4,
            reason: order.order_status,
            created_at: at,
          })
          .onConflict((oc) => oc.column('order_id').doNothing())
          .executeTakeFirst();
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return;
        await trx
          .updateTable('orders')
          .set((eb) => ({ refunded_e4: eb('refunded_e4', '+', amountE4), updated_at: at }))
          .where('id', '=', order.id)
          .execute();
        await recordOrderEvent(
          trx,
          order.id,
          'payment.refunded',
          { refundId, amount: formatAmountE4(amountE4, 2), reason: order.order_status, undelivered: order.remains },
          at,
        );
      });
      return 'refunded';
    },
  };

  /** The panel's reason for not cancelling, or null when it accepted; throws when retrying may help. */
  async function cancelAtSupplier(supplier: SupplierPanel, supplierOrderId: string): Promise<string | null> {
    try {
      const [result] = await supplier.cancel([supplierOrderId]);
      if (!result) return 'The supplier sent no answer for this order';
      return result.cancelled ? null : (result.error ?? 'Not cancelled');
    } catch (error) {
      if (error instanceof SmmPanelError && !isRetryableSupplierError(error)) return error.message;
      throw error;
    }
  }

  return fulfilment;
}

export type Fulfilment = ReturnType<typeof createFulfilment>;
