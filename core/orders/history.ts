/**
 * The customer's order history (spec "Client page"). Anyone can type anyone's e-mail, so the
 * visitor first proves they read that mailbox: a one-time code is e-mailed (core/auth/
 * one-time-codes.ts: hashed, 10 minutes, single use, 5 attempts, resend throttled), and only
 * `lookup` with the right code returns the rows.
 *
 * - `requestCode` always issues and sends a code, whether or not the address has orders, and
 *   never reads the orders table: the reply (and its timing) says nothing about the address.
 * - The code goes into the mail job's payload and nowhere else: it is never logged, and the
 *   codes table keeps only its HMAC.
 * - Orders whose payment status is 'expired' (checkouts abandoned for a day, never paid) are
 *   left out: they are noise to the customer. Unpaid ('created') and failed ('fail') orders
 *   stay, since the customer may be looking for exactly those.
 */
import type { Kysely } from 'kysely';
import { CODE_FAILURE_MESSAGES, type OneTimeCodes, throttledMessage } from '../auth/one-time-codes.ts';
import { enqueueMail } from '../mail/send-mail-job.ts';
import { renderOrderHistoryCode } from '../mail/templates/login-code.ts';
import { e4ToNumber } from '../money/money.ts';
import type { Database } from '../../db/schema.ts';
import { isEmail } from '../email.ts';
import type { CustomerRefill } from './refill-contracts.ts';
import { HISTORY_FORM_MESSAGES, type HistoryRow } from './contracts.ts';
import { loadSubscriptionRows, subscriptionViewOf } from './subscription-view.ts';

/** What the code proves; also the codes table's `purpose`. */
export const ORDER_HISTORY_PURPOSE = 'order-history';
/** As configured in the codes service (its default TTL). */
export const ORDER_HISTORY_CODE_MINUTES = 10;
/** At most this many orders, newest first. */
export const ORDER_HISTORY_LIMIT = 200;
/**
 * Mail retries with backoff from 5 s doubling: 6 attempts span about 2.5 minutes, well within
 * the code's 10 minutes; a later delivery would be useless.
 */
const CODE_MAIL_MAX_ATTEMPTS = 6;

export const ORDER_HISTORY_MESSAGES = {
  emailRequired: HISTORY_FORM_MESSAGES.emailRequired,
  emailInvalid: HISTORY_FORM_MESSAGES.emailInvalid,
  codeRequired: HISTORY_FORM_MESSAGES.codeRequired,
  codeSent:
    'We sent a 6-digit code to this address. Enter it to see the orders placed with it (if there are none, you will see an empty list). The code is valid for 10 minutes.',
  invalid: CODE_FAILURE_MESSAGES.invalid,
  expired: CODE_FAILURE_MESSAGES.expired,
  locked: CODE_FAILURE_MESSAGES.locked,
  missing: CODE_FAILURE_MESSAGES.missing,
} as const;

/** A refusal meant for the customer: the API answers with its status and message. */
export class HistoryError extends Error {
  /** Read by the API's error handler. */
  readonly expose = true;
  constructor(
    message: string,
    readonly statusCode: 400 | 429,
  ) {
    super(message);
    this.name = 'HistoryError';
  }
}

/** One row of the spec's order history (section 3, "Order (history row)"), as core/orders/contracts.ts declares it. */
export type OrderHistoryRow = HistoryRow;

export interface OrderHistoryOptions {
  db: Kysely<Database>;
  codes: OneTimeCodes;
  /** The store's public origin, for the link in the e-mail. */
  publicUrl: string;
  /** Adds each Completed order's refill section (core/fulfilment/refills.ts, decision 040). */
  refills?: { customerViews(email: string, providerOrderIds: string[]): Promise<Map<string, CustomerRefill>> };
  /**
   * The per-order proof a subscription's cancel and reminder buttons send (the refill token of
   * core/fulfilment/refills/tokens.ts, which core/orders cannot import); without it no buttons.
   */
  subscriptionToken?: (providerOrderId: string, email: string) => string;
  now?: () => Date;
}

export interface OrderHistory {
  /** Validates the e-mail, issues a code and queues it by e-mail; throws `HistoryError` (400, 429). */
  requestCode(email: string): Promise<void>;
  /** Checks the code and returns the address's orders, newest first; throws `HistoryError` (400). */
  lookup(email: string, code: string): Promise<OrderHistoryRow[]>;
}

function normaliseEmail(raw: unknown): string {
  const email = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
  if (!email) throw new HistoryError(ORDER_HISTORY_MESSAGES.emailRequired, 400);
  if (!isEmail(email)) throw new HistoryError(ORDER_HISTORY_MESSAGES.emailInvalid, 400);
  return email;
}

export function createOrderHistory(options: OrderHistoryOptions): OrderHistory {
  const { db, codes, publicUrl } = options;
  const now = options.now ?? (() => new Date());

  return {
    async requestCode(rawEmail) {
      const email = normaliseEmail(rawEmail);
      const issued = await codes.issue(ORDER_HISTORY_PURPOSE, email);
      if (!issued.ok) throw new HistoryError(throttledMessage(issued.retryAfterMs), 429);
      const mail = renderOrderHistoryCode({ code: issued.code, minutes: ORDER_HISTORY_CODE_MINUTES, publicUrl });
      // No dedupe key: every issued code replaces the previous one and must be delivered.
      await enqueueMail(
        db,
        { to: email, ...mail, headers: { 'Auto-Submitted': 'auto-generated' } },
        { maxAttempts: CODE_MAIL_MAX_ATTEMPTS },
      );
    },

    async lookup(rawEmail, rawCode) {
      const email = normaliseEmail(rawEmail);
      const code = typeof rawCode === 'string' ? rawCode.trim() : '';
      if (!code) throw new HistoryError(ORDER_HISTORY_MESSAGES.codeRequired, 400);
      const verified = await codes.verify(ORDER_HISTORY_PURPOSE, email, code);
      if (!verified.ok) throw new HistoryError(CODE_FAILURE_MESSAGES[verified.reason], 400);

      const rows = await db
        .selectFrom('orders')
        .select([
          'orders.id',
          'orders.kind',
          'orders.fulfilment_state',
          'orders.remains',
          'orders.provider_order_id',
          'orders.service_slug',
          'orders.target',
          'orders.service_name',
          'orders.quantity',
          'orders.price_e4',
          'orders.amount_e4',
          'orders.refunded_e4',
          // When money first went back (set by triggers, migration 018): "Refunded … on …".
          'orders.refunded_at',
          'orders.currency',
          'orders.order_status',
          'orders.payment_status',
          'orders.created_at',
          'orders.error_message',
          'orders.email',
        ])
        .where('orders.email', '=', email)
        // Abandoned checkouts (never paid, expired by the reconciler) are noise to the customer.
        .where('orders.payment_status', '!=', 'expired')
        .orderBy('orders.created_at', 'desc')
        .orderBy('orders.id', 'desc')
        .limit(ORDER_HISTORY_LIMIT)
        .execute();

      const completed = rows.filter((row) => row.order_status === 'Completed').map((row) => row.provider_order_id);
      const refills =
        completed.length > 0 && options.refills ? await options.refills.customerViews(email, completed) : null;
      const subscriptions = await loadSubscriptionRows(
        db,
        rows.filter((row) => row.kind !== 'package').map((row) => row.id),
      );
      const at = now();
      return rows.map((row) => {
        const subscription = subscriptions.get(row.id);
        return {
          razorPayOrderId: row.provider_order_id,
          serviceId: row.service_slug,
          name: row.target,
          serviceName: row.service_name,
          quantity: row.quantity,
          price: e4ToNumber(row.amount_e4),
          packagePrice: e4ToNumber(row.price_e4),
          refunded: e4ToNumber(row.refunded_e4),
          refundedAt: row.refunded_at,
          currency: row.currency,
          orderStatus: row.order_status,
          paymentStatus: row.payment_status,
          orderDate: new Date(row.created_at).toISOString(),
          errorMessage: row.error_message,
          email: row.email,
          ...(refills?.has(row.provider_order_id) ? { refill: refills.get(row.provider_order_id) } : {}),
          ...(subscription
            ? {
                subscription: subscriptionViewOf(
                  row,
                  subscription,
                  at,
                  options.subscriptionToken?.(row.provider_order_id, row.email) ?? null,
                ),
              }
            : {}),
        };
      });
    },
  };
}
