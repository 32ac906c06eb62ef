/** One order for the admin: every column that matters, its timeline, the e-mails queued for it, and its money. */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { MAIL_JOB } from '../mail/send-mail-job.ts';
import { e4ToNumber } from '../money/money.ts';
import type { AdminRole } from '../auth/roles.ts';
import { refundAddressMailKey, refundMailKey } from '../notifications/order-mails.ts';
import { ORDER_STATUSES } from '../orders/status.ts';
import type { PaymentGateways } from '../payments/methods.ts';
import { findOrder, toRows } from './console-rows.ts';
import { subscriptionDetail } from './console-subscriptions.ts';
import { renewalMailKey } from '../renewals/renewals.ts';
import { formIdOf } from '../orders/submission-key.ts';
import type { OrderDetail } from './contracts.ts';
import { loadOrderNote } from './order-notes.ts';
import { loadOrderMoney } from './order-refunds.ts';

export interface OrderDetailViewer {
  /** The configured providers: how each payment can be refunded. */
  gateways?: PaymentGateways | undefined;
  /** The reading admin's role: whether the page offers a refund. */
  role?: AdminRole | undefined;
  /** The store's clock: a subscription's progress and its refund by the rule are read against it. */
  now?: Date | undefined;
}

/** The order with this provider or public id, or ConsoleError 404. */
export async function loadOrderDetail(
  db: Kysely<Database>,
  orderId: string,
  viewer: OrderDetailViewer = {},
): Promise<OrderDetail> {
  const order = await findOrder(db, orderId);
  const now = viewer.now ?? new Date();
  const [row] = await toRows(db, [order], now);
  if (!row) throw new Error('an order row is always one console row');
  const money = await loadOrderMoney(db, viewer.gateways, order, viewer.role);
  const refundMailKeys = money.refunds.flatMap((r) => [refundMailKey(r.id), refundAddressMailKey(r.id)]);
  const [events, mails] = await Promise.all([
    db.selectFrom('order_events').selectAll().where('order_id', '=', order.id).orderBy('at').orderBy('id').execute(),
    db
      .selectFrom('jobs')
      .select(['id', 'dedupe_key', 'payload_json', 'status', 'attempts', 'last_error', 'created_at', 'updated_at'])
      .where('kind', '=', MAIL_JOB)
      // The receipt, one status e-mail per status and the refunds' e-mails (core/notifications/order-mails.ts).
      .where('dedupe_key', 'in', [
        `receipt:${order.id}`,
        ...ORDER_STATUSES.map((s) => `status-mail:${order.id}:${s}`),
        ...refundMailKeys,
        renewalMailKey(order.id),
      ])
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
  ]);
  const parse = (text: string): Record<string, unknown> => {
    try {
      const value = JSON.parse(text) as unknown;
      return value && typeof value === 'object' ? (value as Record<string, unknown>) : { value };
    } catch {
      return { raw: text };
    }
  };
  const [subscription, note] = await Promise.all([subscriptionDetail(db, order, now), loadOrderNote(db, order.id)]);
  return {
    order: {
      ...row,
      id: order.id,
      provider: order.provider,
      clientOrderId: formIdOf(order.client_order_id),
      serviceSlug: order.service_slug,
      planType: order.plan_type,
      targetKind: order.target_kind,
      comment: order.comment,
      supplierServiceId: order.supplier_service_id,
      listPrice: e4ToNumber(order.price_e4),
      paymentId: order.payment_id,
      paidAt: order.paid_at,
      updatedAt: order.updated_at,
      fulfilmentAttempts: order.fulfilment_attempts,
      startCount: order.start_count,
      remains: order.remains,
      supplierCharge: order.supplier_charge_e4 === null ? null : e4ToNumber(order.supplier_charge_e4),
      statusSyncedAt: order.status_synced_at,
      refunded: e4ToNumber(order.refunded_e4),
    },
    timeline: events.map((e) => ({ at: e.at, kind: e.kind, detail: parse(e.detail_json) })),
    emails: mails.map((m) => {
      const payload = parse(m.payload_json);
      return {
        id: m.id,
        dedupeKey: m.dedupe_key,
        to: typeof payload.to === 'string' ? payload.to : null,
        subject: typeof payload.subject === 'string' ? payload.subject : null,
        status: m.status,
        attempts: m.attempts,
        lastError: m.last_error,
        createdAt: m.created_at,
        updatedAt: m.updated_at,
      };
    }),
    money,
    // Cancelling is offered only for a paid subscription that still runs.
    subscription: subscription && { ...subscription, running: subscription.running && order.payment_status === 'paid' },
    note,
  };
}
