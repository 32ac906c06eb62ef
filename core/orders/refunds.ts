/**
 * Giving money back through the provider that took it: the owner's refunds (all or part of a
 * payment, with a reason), the automatic refund of undelivered remains, and a second payment's
 * refund. Exactly once per idempotency key, never more than was paid minus what was refunded
 * or is being refunded (the steps: transitions/refund.ts). A provider that refunds only whole
 * payments to an address the customer gives (crypto) waits for that address: the customer gets
 * an e-mailed single-use link (the `order.refund_address_needed` event).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { formatAmountE4 } from '../money/money.ts';
import type { PaymentGateways } from '../payments/methods.ts';
import { PaymentProviderError } from '../payments/provider.ts';
import {
  type RefundRequest,
  acceptRefundAddress,
  failRefund,
  reserveRefund,
  settleRefund,
} from './transitions/index.ts';

export interface RefundDeps {
  db: Kysely<Database>;
  gateways: PaymentGateways;
  now: () => Date;
}

export type { RefundRequest };

export type RefundResult =
  | { status: 'done'; refundId: number; amountE4: number }
  | { status: 'awaiting_address'; refundId: number; amountE4: number }
  /** Asked of the provider, answer not recorded (another instance is on it, or it crashed): retry with the key. */
  | { status: 'pending'; refundId: number; amountE4: number; failure?: string }
  | { status: 'failed'; refundId: number; amountE4: number; failure: string };

/** A refund that cannot be asked at all; the message is for the owner. */
export class RefundRefused extends Error {
  readonly expose = true;
  constructor(
    message: string,
    readonly statusCode: 400 | 404 | 409,
  ) {
    super(message);
  }
}

export const REFUND_MESSAGES = {
  noPayment: 'This order has no payment to refund.',
  tooMuch: 'That is more than is left to refund on this payment.',
  wholeOnly: 'Crypto payments are refunded whole: refund all that is left of this payment.',
  sameAmount:
    'This payment was already refunded by exactly this amount, and its provider would take a second one as a repeat: refund a different amount (for example all that is left).',
  providerGone: 'The payment provider that took this payment is no longer configured.',
  linkInvalid: 'This refund link is not valid any more. Please contact us.',
} as const;

/** Hash of a refund link's token: the database never holds the token itself. */
export function refundTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Asks for a refund (or finds the one this key asked for before) and carries it as far as it can go now. */
export async function requestRefund(deps: RefundDeps, request: RefundRequest): Promise<RefundResult> {
  const { db, gateways, now } = deps;
  const payment = await db
    .selectFrom('order_payments')
    .select(['id', 'provider'])
    .where('order_id', '=', request.orderId)
    .where((eb) =>
      request.orderPaymentId !== undefined ? eb('id', '=', request.orderPaymentId) : eb('role', '=', 'applied'),
    )
    .executeTakeFirst();
  if (!payment) throw new RefundRefused(REFUND_MESSAGES.noPayment, 404);
  const provider = gateways.provider(payment.provider);
  if (!provider) throw new RefundRefused(REFUND_MESSAGES.providerGone, 409);
  if (provider.refunds === 'distinct-amounts' && (await sameAmountRefunded(db, payment.id, request))) {
    throw new RefundRefused(REFUND_MESSAGES.sameAmount, 409);
  }
  const toAddress = provider.refunds === 'whole-to-address';
  const token = toAddress ? randomBytes(24).toString('base64url') : undefined;
  const at = now().toISOString();
  const reserved = await reserveRefund(
    db,
    {
      ...request,
      orderPaymentId: payment.id,
      wholeOnly: toAddress,
      addressLink: token ? { token, tokenHash: refundTokenHash(token) } : undefined,
    },
    at,
  );
  if (reserved.outcome === 'refused') {
    const message = {
      'no-payment': REFUND_MESSAGES.noPayment,
      'too-much': REFUND_MESSAGES.tooMuch,
      'whole-only': REFUND_MESSAGES.wholeOnly,
    }[reserved.reason];
    throw new RefundRefused(message, reserved.reason === 'no-payment' ? 404 : 409);
  }
  const { refund } = reserved;
  if (refund.status === 'pending') return sendRefund(deps, refund.id);
  return resultOf(refund);
}

/** Another refund (not this key's) of exactly this amount on the same payment, made or under way. */
async function sameAmountRefunded(
  db: Kysely<Database>,
  orderPaymentId: number,
  request: RefundRequest,
): Promise<boolean> {
  const twin = await db
    .selectFrom('refunds')
    .select('id')
    .where('order_payment_id', '=', orderPaymentId)
    .where('amount_e4', '=', request.amountE4)
    .where('status', 'in', ['pending', 'done'])
    .where('idempotency_key', '!=', request.idempotencyKey)
    .executeTakeFirst();
  return twin !== undefined;
}

function resultOf(refund: { id: number; status: string; amount_e4: number; failure: string | null }): RefundResult {
  const base = { refundId: refund.id, amountE4: refund.amount_e4 };
  if (refund.status === 'done') return { status: 'done', ...base };
  if (refund.status === 'awaiting_address') return { status: 'awaiting_address', ...base };
  if (refund.status === 'failed') return { status: 'failed', ...base, failure: refund.failure ?? 'Refused' };
  return { status: 'pending', ...base };
}

/**
 * Asks the provider for a reserved refund, with the refund's idempotency key, and records its
 * answer. Safe to call again for a refund left pending by a crash: the provider answers with the
 * same refund.
 */
export async function sendRefund(deps: RefundDeps, refundId: number): Promise<RefundResult> {
  const { db, gateways, now } = deps;
  const refund = await db
    .selectFrom('refunds')
    .leftJoin('order_payments', 'order_payments.id', 'refunds.order_payment_id')
    .leftJoin('payment_attempts', 'payment_attempts.id', 'order_payments.attempt_id')
    .select([
      'refunds.id',
      'refunds.status',
      'refunds.amount_e4',
      'refunds.failure',
      'refunds.provider',
      'refunds.idempotency_key',
      'refunds.payout_address',
      'order_payments.payment_id',
      'payment_attempts.reference',
    ])
    .where('refunds.id', '=', refundId)
    .executeTakeFirstOrThrow();
  if (refund.status !== 'pending') return resultOf(refund);
  const provider = gateways.provider(refund.provider);
  if (!provider || !refund.payment_id || !refund.reference) {
    await failRefund(db, refund.id, REFUND_MESSAGES.providerGone, now().toISOString());
    return { status: 'failed', refundId: refund.id, amountE4: refund.amount_e4, failure: REFUND_MESSAGES.providerGone };
  }
  try {
    const made = await provider.refund({
      reference: refund.reference,
      paymentId: refund.payment_id,
      amountCents: Math.round(refund.amount_e4 / 100),
      idempotencyKey: refund.idempotency_key,
      address: refund.payout_address ?? undefined,
    });
    await settleRefund(db, refund.id, made.refundId, now().toISOString());
    return { status: 'done', refundId: refund.id, amountE4: refund.amount_e4 };
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
    // Unreachable or failing on its side: the refund stays pending, asked again with the same key.
    if (error.status === undefined || error.status >= 500 || error.status === 429)
      return { status: 'pending', refundId: refund.id, amountE4: refund.amount_e4, failure: error.message };
    await failRefund(db, refund.id, error.message, now().toISOString());
    return { status: 'failed', refundId: refund.id, amountE4: refund.amount_e4, failure: error.message };
  }
}

/** The refund a customer's link names, for its page: what is refunded, or undefined when the link is spent. */
export async function refundAwaitingAddress(db: Kysely<Database>, token: string) {
  const refund = await db
    .selectFrom('refunds')
    .innerJoin('orders', 'orders.id', 'refunds.order_id')
    .select(['refunds.id', 'refunds.amount_e4', 'orders.currency', 'orders.service_name', 'orders.provider_order_id'])
    .where('refunds.address_token_hash', '=', refundTokenHash(token))
    .where('refunds.status', '=', 'awaiting_address')
    .executeTakeFirst();
  return refund && { ...refund, amountText: formatAmountE4(refund.amount_e4, 2) };
}

/** The customer gave the wallet address through their link: the refund goes to the provider now. */
export async function giveRefundAddress(deps: RefundDeps, token: string, address: string): Promise<RefundResult> {
  const refund = await refundAwaitingAddress(deps.db, token);
  if (!refund || !(await acceptRefundAddress(deps.db, refund.id, address)))
    throw new RefundRefused(REFUND_MESSAGES.linkInvalid, 404);
  return sendRefund(deps, refund.id);
}
