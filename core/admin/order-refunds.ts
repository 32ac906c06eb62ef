/**
 * The owner's refunds from the order detail: what was paid for an order and what is left to give
 * back on each payment, the refunds made so far, and a refund asked through the provider that
 * took the money (core/orders/refunds.ts makes it exactly once per idempotency key and never past
 * what is left). Everything here is in the owner's words: labels, roles and states as text.
 */
import type { Kysely } from 'kysely';
import type { RefundStatus } from '../../db/column-values.ts';
import type { Database } from '../../db/schema.ts';
import type { AuditNote } from '../audit/audit.ts';
import { type AdminRole, REFUND_ROLES } from '../auth/roles.ts';
import { liveSupplierOrderOf } from '../fulfilment/supplier-orders.ts';
import { e4ToNumber, formatMoney } from '../money/money.ts';
import { type RefundDeps, type RefundResult, requestRefund } from '../orders/refunds.ts';
import { REFUND_STATE_TEXT } from '../orders/refund-rules.ts';
import { type PaymentGateways, isPaymentMethodId } from '../payments/methods.ts';
import type { PaymentMethodId } from '../payments/provider.ts';
import { findOrder } from './console-rows.ts';
import { methodLabel, providerLabel } from './payment-words.ts';
import type { AdminRefundResult, OrderMoney, OrderPaymentEntry, OrderRefundEntry } from './refund-contracts.ts';

export const PAYMENT_ROLE_TEXT: Readonly<Record<OrderPaymentEntry['kind'], string>> = {
  applied: 'Paid this order',
  second: 'Second payment: refund it',
  underpaid: 'Underpaid',
};

const DESTINATIONS: Readonly<Record<PaymentMethodId, string>> = {
  card: "the buyer's card",
  'card-3ds': "the buyer's card or wallet",
  crypto: "the buyer's crypto wallet",
};

function destinationOf(method: string): string {
  return isPaymentMethodId(method) ? DESTINATIONS[method] : 'the buyer';
}

function refundStateText(status: RefundStatus, failure: string | null): string {
  return status === 'failed' && failure ? `${REFUND_STATE_TEXT.failed}: ${failure}` : REFUND_STATE_TEXT[status];
}

/** The owner's refunds are keyed per order (`owner:<order>:<the dialog's key>`), so no key answers for another order. */
const ownerRefundKey = (orderId: number, dialogKey: string) => `owner:${orderId}:${dialogKey}`;

function dialogKeyOf(orderId: number, storedKey: string): string | null {
  const prefix = ownerRefundKey(orderId, '');
  return storedKey.startsWith(prefix) ? storedKey.slice(prefix.length) : null;
}

/**
 * How the dialog refunds a payment: any amount, or only the whole of it to an address; null when
 * its provider is gone. A provider's finer rules (one that refuses a second refund of the same
 * amount) are its refusals' to explain.
 */
function refundModeOf(gateways: PaymentGateways | undefined, provider: string): OrderPaymentEntry['refunds'] {
  const adapter = gateways?.provider(provider);
  if (!adapter) return null;
  return adapter.refunds === 'whole-to-address' ? 'whole-to-address' : 'any';
}

export function mayRefund(role: AdminRole | undefined): boolean {
  return role !== undefined && REFUND_ROLES.includes(role);
}

/** The order detail's payments, refunds and whether a refund must wait for the supplier. */
export async function loadOrderMoney(
  db: Kysely<Database>,
  gateways: PaymentGateways | undefined,
  order: { id: number; order_status: string },
  role: AdminRole | undefined,
): Promise<OrderMoney> {
  const [payments, refunds, live] = await Promise.all([
    db
      .selectFrom('order_payments')
      .leftJoin('payment_attempts', 'payment_attempts.id', 'order_payments.attempt_id')
      .select([
        'order_payments.id',
        'order_payments.provider',
        'order_payments.method',
        'order_payments.payment_id',
        'order_payments.role',
        'order_payments.amount_e4',
        'order_payments.currency',
        'order_payments.refunded_e4',
        'order_payments.refund_pending_e4',
        'order_payments.created_at',
        'payment_attempts.amount_e4 as attempt_amount_e4',
      ])
      .where('order_payments.order_id', '=', order.id)
      .orderBy('order_payments.created_at')
      .orderBy('order_payments.id')
      .execute(),
    db
      .selectFrom('refunds')
      .leftJoin('order_payments', 'order_payments.id', 'refunds.order_payment_id')
      .select([
        'refunds.id',
        'refunds.order_payment_id',
        'refunds.idempotency_key',
        'refunds.origin',
        'refunds.amount_e4',
        'refunds.reason',
        'refunds.requested_by',
        'refunds.status',
        'refunds.failure',
        'refunds.created_at',
        'refunds.settled_at',
        'order_payments.currency',
      ])
      .where('refunds.order_id', '=', order.id)
      .orderBy('refunds.created_at', 'desc')
      .orderBy('refunds.id', 'desc')
      .execute(),
    order.order_status === 'In Progress' || order.order_status === 'Processing'
      ? liveSupplierOrderOf(db, order.id)
      : undefined,
  ]);
  return {
    payments: payments.map((p): OrderPaymentEntry => {
      // An extra payment short of its attempt's price is an underpayment (it never paid the order).
      const kind =
        p.role === 'applied'
          ? 'applied'
          : p.attempt_amount_e4 !== null && p.amount_e4 < p.attempt_amount_e4
            ? 'underpaid'
            : 'second';
      return {
        id: p.id,
        providerLabel: providerLabel(p.provider),
        methodLabel: methodLabel(p.method),
        destination: destinationOf(p.method),
        amount: e4ToNumber(p.amount_e4),
        currency: p.currency,
        kind,
        roleText: PAYMENT_ROLE_TEXT[kind],
        refunded: e4ToNumber(p.refunded_e4),
        left: e4ToNumber(Math.max(0, p.amount_e4 - p.refunded_e4 - p.refund_pending_e4)),
        refunds: refundModeOf(gateways, p.provider),
        paymentId: p.payment_id,
        createdAt: p.created_at,
      };
    }),
    refunds: refunds.map((r): OrderRefundEntry => ({
      id: r.id,
      amount: e4ToNumber(r.amount_e4),
      currency: r.currency ?? 'USD',
      reason: r.reason,
      by: r.requested_by ?? 'Automatic',
      state: r.status,
      stateText: refundStateText(r.status, r.failure),
      paymentId: r.order_payment_id,
      retryKey: r.origin === 'owner' && r.status === 'pending' ? dialogKeyOf(order.id, r.idempotency_key) : null,
      createdAt: r.created_at,
      settledAt: r.settled_at,
    })),
    runningAtSupplier: live !== undefined,
    canRefund: mayRefund(role),
  };
}

export interface OwnerRefundRequest {
  amountCents: number;
  reason: string;
  idempotencyKey: string;
  orderPaymentId?: number | undefined;
}

/** What the refund came to, and its sentence for the owner. */
export interface OwnerRefundOutcome {
  result: AdminRefundResult;
  message: string;
  audit: AuditNote;
}

function sentence(result: RefundResult, amount: string, provider: string): string {
  switch (result.status) {
    case 'done':
      return `Refunded ${amount} to the buyer through ${provider}.`;
    case 'awaiting_address':
      return `The customer was e-mailed a link to give a wallet address; the ${amount} refund goes out through ${provider} when they do.`;
    case 'pending':
      return `${provider} has not confirmed the ${amount} refund yet. Try again in a minute: it stays one refund.`;
    case 'failed':
      return `${provider} refused the ${amount} refund: ${result.failure}`;
  }
}

/**
 * A refund the owner asks for on the order with this public id (ConsoleError 404 when there is
 * none; RefundRefused when the payment or the amount does not allow it). The key is the dialog's
 * (or a pending refund's `retryKey`: the same refund, asked of the provider again).
 */
export async function refundOrderByOwner(
  deps: RefundDeps,
  publicOrderId: string,
  request: OwnerRefundRequest,
  adminEmail: string | null,
): Promise<OwnerRefundOutcome> {
  const order = await findOrder(deps.db, publicOrderId);
  const result = await requestRefund(deps, {
    orderId: order.id,
    orderPaymentId: request.orderPaymentId,
    amountE4: request.amountCents * 100,
    reason: request.reason,
    origin: 'owner',
    idempotencyKey: ownerRefundKey(order.id, request.idempotencyKey),
    requestedBy: adminEmail,
  });
  const refund = await deps.db
    .selectFrom('refunds')
    .innerJoin('order_payments', 'order_payments.id', 'refunds.order_payment_id')
    .select(['order_payments.currency', 'refunds.provider', 'refunds.order_payment_id'])
    .where('refunds.id', '=', result.refundId)
    .executeTakeFirstOrThrow();
  const label = providerLabel(refund.provider);
  const amount = e4ToNumber(result.amountE4);
  const failure = result.status === 'failed' || result.status === 'pending' ? (result.failure ?? null) : null;
  return {
    result: {
      refundId: result.refundId,
      state: result.status,
      stateText: refundStateText(result.status, failure),
      amount,
      currency: refund.currency,
      failure,
    },
    message: sentence(result, formatMoney(amount, refund.currency), label),
    audit: {
      action: 'order.refund',
      targetType: 'order',
      targetId: publicOrderId,
      before: null,
      after: {
        amount: formatMoney(amount, refund.currency),
        provider: label,
        payment: refund.order_payment_id,
        reason: request.reason,
        state: REFUND_STATE_TEXT[result.status],
      },
    },
  };
}
