/**
 * Checkout: pricing an order from the catalogue, creating it with the payment provider,
 * verifying the payment, webhooks and reconciliation. Handlers call these and shape replies.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { CreatedOrderSchema, OrderStatusViewSchema } from './contracts.ts';
import type { Database } from '../../db/schema.ts';
import { defineRecurringJob } from '../jobs/recurring.ts';
import type { Catalog } from '../catalog/catalog.ts';
import { chargeAmountE4 } from '../catalog/pricing.ts';
import type { TargetKind } from '../catalog/types.ts';
import { orderPath } from '../catalog/order-path.ts';
import { e4ToCents, e4ToNumber, formatMoney, numberToE4 } from '../money/money.ts';
import { PROCESSING_FEE_LABEL } from './charges.ts';
import { type PaymentProvider, PaymentProviderError } from '../payments/provider.ts';
import { expireOrder, flagPaymentMismatch, markPaid, markPaymentFailed } from './payment-transitions.ts';
import { recordOrderEvent } from './timeline.ts';
import { parseTarget, storedTargetOf } from '../verification/parse.ts';
import { findPackage } from './form-detail.ts';
import { ORDER_CURRENCY, maskEmail, providerOrderIdFrom, publicOrderId } from './types.ts';
import { firstOrderFormError, validateOrderForm } from './validation.ts';

export type TargetCheckResult =
  | { outcome: 'verified'; canonical: string }
  | { outcome: 'invalid'; message: string }
  | { outcome: 'unavailable'; canonical: string; message: string };

/** Format and existence check of a target (core/verification). */
export type TargetCheck = (kind: TargetKind, input: string) => Promise<TargetCheckResult>;

/** A refusal meant for the buyer: the API answers with its status and message. */
export class OrderError extends Error {
  /** Read by the API's error handler. */
  readonly expose = true;
  constructor(
    message: string,
    readonly statusCode: 400 | 404 | 409 | 502,
    /** The payload field the refusal is about ('name', 'email', …): the form shows it there. */
    readonly field?: string,
  ) {
    super(message);
  }
}

export interface CreateOrderInput {
  type: string;
  slug: string;
  qty: number | string;
  name: string;
  email: string;
  amount?: number | undefined;
  currency?: string | undefined;
  /** The browser's random 6-digit id; one per form, so a double click names the same order. */
  order_id: string;
  comment?: string | undefined;
}

/** What `POST /api/order/create-order` answers with (core/orders/contracts.ts). */
export type CreatedOrder = z.infer<typeof CreatedOrderSchema>;

/** What the confirmation page shows (core/orders/contracts.ts). */
export type OrderStatusView = z.infer<typeof OrderStatusViewSchema>;

export interface OrderServiceOptions {
  db: Kysely<Database>;
  catalog: Catalog;
  provider: PaymentProvider;
  checkTarget: TargetCheck;
  publicUrl: string;
  now?: () => Date;
}

export const PAYMENT_MESSAGES = {
  invalidSignature: 'Invalid payment signature',
  orderNotFound: 'Order not found',
} as const;

/** Recurring: asks the payment provider about unpaid orders (every PAYMENT_RECONCILE_SECONDS). */
export const PAYMENT_RECONCILE_JOB = defineRecurringJob('payments.reconcile');

/** Unpaid orders with a payment attempt (failed, authorised) older than this are expired by the reconciler. */
export const ABANDONED_AFTER_MS = 24 * 60 * 60 * 1000;
/**
 * Unpaid orders the provider has no payment attempt for at all are expired sooner: nobody opened
 * the payment window, and each one kept would lengthen the reconciler's rotation (decision 014).
 */
export const UNATTEMPTED_EXPIRY_MS = 60 * 60 * 1000;
/** The reconciler leaves fresh orders to the checkout callback and webhooks. */
export const RECONCILE_AFTER_MS = 2 * 60 * 1000;
/** Orders one reconciler run asks the provider about (the rest wait for the next run, in rotation). */
export const RECONCILE_BATCH = 500;
/** Provider calls one reconciler run makes at a time. */
export const RECONCILE_CONCURRENCY = 8;

export interface ReconcileResult {
  /** Orders the provider answered about. */
  checked: number;
  paid: number;
  expired: number;
  /** Orders the provider could not be asked about this run (they go to the back of the rotation). */
  errors: number;
  /** Captured payments that disagree with their order, flagged for review by this run. */
  flagged: { orderId: number; providerOrderId: string; paymentId: string; reason: string }[];
}

/**
 * The payment window's description (Razorpay shows only the total): the service, then during a
 * sale its list price and the sale price, then the processing fee when one is added.
 * E.g. "Instagram Followers (sale: $2.99 → $2.39; incl. processing fee $1.00)".
 */
export function checkoutDescription(
  serviceName: string,
  priceE4: number,
  listPriceE4: number | null,
  feeE4: number,
  currency: string,
): string {
  const money = (e4: number) => formatMoney(e4ToNumber(e4), currency);
  const notes: string[] = [];
  if (listPriceE4 !== null && listPriceE4 > priceE4) notes.push(`sale: ${money(listPriceE4)} → ${money(priceE4)}`);
  if (feeE4 > 0) notes.push(`incl. ${PROCESSING_FEE_LABEL.toLowerCase()} ${money(feeE4)}`);
  return notes.length > 0 ? `${serviceName} (${notes.join('; ')})` : serviceName;
}

export function createOrderService(options: OrderServiceOptions) {
  const { db, catalog, provider } = options;
  const now = () => options.now?.() ?? new Date();
  const context = { now };

  async function findByProviderId(providerOrderId: string) {
    return db.selectFrom('orders').selectAll().where('provider_order_id', '=', providerOrderId).executeTakeFirst();
  }

  function reply(order: {
    provider_order_id: string;
    email: string;
    service_name: string;
    price_e4: number;
    list_price_e4: number | null;
    amount_e4: number;
    currency: string;
  }): CreatedOrder {
    const amountCents = e4ToCents(order.amount_e4);
    const feeE4 = order.amount_e4 - order.price_e4;
    const listPriceE4 =
      order.list_price_e4 !== null && order.list_price_e4 > order.price_e4 ? order.list_price_e4 : null;
    return {
      currency: order.currency,
      serviceName: order.service_name,
      razorpay_order_id: order.provider_order_id,
      email: order.email,
      amount: amountCents,
      packagePrice: amountCents - e4ToCents(feeE4),
      ...(listPriceE4 !== null ? { listPrice: e4ToCents(listPriceE4) } : {}),
      checkout: provider.checkoutFor({
        providerOrderId: order.provider_order_id,
        amountCents,
        currency: order.currency,
        email: order.email,
        // Razorpay's window shows only the total: the fee and a sale's list price are named in its
        // description (decisions 033, 038).
        description: checkoutDescription(order.service_name, order.price_e4, listPriceE4, feeE4, order.currency),
      }),
    };
  }

  return {
    /** Prices the order from the catalogue and opens a provider order; never trusts the client's amount. */
    async create(input: CreateOrderInput): Promise<CreatedOrder> {
      const lookup = await findPackage(catalog, input);
      if (!lookup.ok) throw new OrderError(lookup.message, lookup.status);
      const { service, plan, tier } = lookup.choice;

      const email = input.email.trim().toLowerCase();
      const typed = input.name.trim();
      const parsed = parseTarget(service.targetKind, typed);
      // "@Some.User" and "some.user" are one account: store and compare the normal form.
      const target = parsed ? storedTargetOf(parsed) : typed;
      const comment = input.comment?.trim() || null;
      const errors = validateOrderForm({ name: target, email, comment: comment ?? '' }, service);
      const firstError = firstOrderFormError(errors);
      if (firstError) throw new OrderError(firstError.message, 400, firstError.field);
      if (!/^\d{6}$/.test(input.order_id)) throw new OrderError('order_id must be 6 digits', 400);
      if (input.currency && input.currency.toUpperCase() !== ORDER_CURRENCY)
        throw new OrderError('Orders are paid in USD', 400);

      const priceE4 = numberToE4(tier.price);
      const amountE4 = chargeAmountE4(priceE4);
      if (input.amount !== undefined && numberToE4(input.amount) !== amountE4) {
        throw new OrderError(
          `The price of this package has changed to $${e4ToNumber(amountE4).toFixed(2)}. Please review your order.`,
          409,
        );
      }

      // A repeated submission of the same form (double click, retry) gets the same order back.
      const existing = await db
        .selectFrom('orders')
        .selectAll()
        .where('email', '=', email)
        .where('client_order_id', '=', input.order_id)
        .executeTakeFirst();
      if (existing) {
        if (existing.service_slug === service.slug && existing.quantity === tier.qty && existing.target === target)
          return reply(existing);
        throw new OrderError('This order id was already used for another order. Please reload the page.', 409);
      }

      const check = await options.checkTarget(service.targetKind, typed);
      if (check.outcome === 'invalid') throw new OrderError(check.message, 400, 'name');

      let providerOrderId: string;
      try {
        ({ providerOrderId } = await provider.createOrder({
          amountCents: e4ToCents(amountE4),
          currency: ORDER_CURRENCY,
          receipt: `bst_${input.order_id}_${randomBytes(4).toString('hex')}`,
          notes: { email, service: service.slug, quantity: String(tier.qty) },
        }));
      } catch (error) {
        if (error instanceof PaymentProviderError)
          throw new OrderError('The payment service is not available right now. Please try again in a minute.', 502);
        throw error;
      }

      const at = now().toISOString();
      const row = {
        provider: provider.name,
        provider_order_id: providerOrderId,
        client_order_id: input.order_id,
        email,
        service_slug: service.slug,
        service_name: service.name,
        plan_type: plan.type,
        quantity: tier.qty,
        target,
        target_kind: service.targetKind,
        comment,
        supplier_service_id: '',
        price_e4: priceE4,
        // The price before a sale, shown struck through in the payment window (decision 038).
        list_price_e4: tier.listPrice !== undefined ? numberToE4(tier.listPrice) : null,
        amount_e4: amountE4,
        currency: ORDER_CURRENCY,
        payment_status: 'created' as const,
        order_status: 'Pending' as const,
        payment_id: null,
        needs_review: check.outcome === 'unavailable' ? 1 : 0,
        review_reason: check.outcome === 'unavailable' ? `Target could not be verified: ${check.message}` : null,
        error_message: null,
        created_at: at,
        updated_at: at,
        paid_at: null,
      };
      // The tier's panel and service, copied: the order is fulfilled, refilled and cancelled on
      // the panel it was sold with even after the tier is remapped (decision 045).
      const supplierTarget = await catalog.supplierTarget(service.slug, plan.type, tier.qty);
      row.supplier_service_id = supplierTarget?.service ?? '';
      try {
        await db.transaction().execute(async (trx) => {
          const { id } = await trx
            .insertInto('orders')
            // Without a target the column's default: the environment panel.
            .values(supplierTarget ? { ...row, supplier_panel_id: supplierTarget.panelId } : row)
            .returning('id')
            .executeTakeFirstOrThrow();
          await recordOrderEvent(trx, id, 'order.created', { provider: provider.name, verified: check.outcome }, at);
        });
      } catch (error) {
        // Two identical submissions raced past the lookup: the unique (email, client id) keeps one.
        const winner = await db
          .selectFrom('orders')
          .selectAll()
          .where('email', '=', email)
          .where('client_order_id', '=', input.order_id)
          .executeTakeFirst();
        if (winner) return reply(winner);
        throw error;
      }
      return reply(row);
    },

    /** The checkout handler's result: the signature is checked against our own record. */
    async verifyPayment(input: { razorpay_order_id: string; razorpay_payment_id: string; razorpay_signature: string }) {
      const order = await findByProviderId(input.razorpay_order_id);
      if (!order) throw new OrderError(PAYMENT_MESSAGES.orderNotFound, 404);
      if (
        !provider.isValidPaymentSignature(order.provider_order_id, input.razorpay_payment_id, input.razorpay_signature)
      ) {
        throw new OrderError(PAYMENT_MESSAGES.invalidSignature, 400);
      }
      const result = await db
        .transaction()
        .execute((trx) =>
          markPaid(
            trx,
            { providerOrderId: order.provider_order_id, paymentId: input.razorpay_payment_id, source: 'checkout' },
            context,
          ),
        );
      if (result.outcome === 'rejected') throw new OrderError(result.reason, 400);
      return { orderId: publicOrderId(order.provider_order_id) };
    },

    /** The payment window reported a failed attempt. */
    async paymentFailed(input: {
      razorpay_order_id: string;
      reason?: string | undefined;
      razorpay_payment_id?: string | undefined;
    }) {
      const order = await findByProviderId(input.razorpay_order_id);
      if (!order) throw new OrderError(PAYMENT_MESSAGES.orderNotFound, 404);
      await db.transaction().execute((trx) =>
        markPaymentFailed(
          trx,
          {
            providerOrderId: order.provider_order_id,
            paymentId: input.razorpay_payment_id,
            reason: input.reason?.slice(0, 300) || 'Payment failed',
            source: 'checkout',
          },
          now(),
        ),
      );
      return { orderId: publicOrderId(order.provider_order_id) };
    },

    async status(orderId: string): Promise<OrderStatusView> {
      const order = await findByProviderId(providerOrderIdFrom(orderId.trim()));
      if (!order) throw new OrderError(PAYMENT_MESSAGES.orderNotFound, 404);
      const refund = await db
        .selectFrom('refunds')
        .select('created_at')
        .where('order_id', '=', order.id)
        .executeTakeFirst();
      return {
        razorPayOrderId: order.provider_order_id,
        orderId: publicOrderId(order.provider_order_id),
        email: maskEmail(order.email),
        serviceName: order.service_name,
        quantity: order.quantity,
        target: order.target,
        amount: e4ToNumber(order.amount_e4),
        price: e4ToNumber(order.price_e4),
        refunded: e4ToNumber(order.refunded_e4),
        refundedAt: refund?.created_at ?? null,
        orderPath: orderPath(order.service_slug, order.quantity, order.plan_type),
        currency: order.currency,
        orderStatus: order.order_status,
        paymentStatus: order.payment_status,
        createdAt: order.created_at,
      };
    },

    /** An order, for the sandbox window (amount and currency come from our record). */
    async payableOrder(providerOrderId: string) {
      const order = await findByProviderId(providerOrderId);
      if (!order || order.provider !== provider.name) throw new OrderError(PAYMENT_MESSAGES.orderNotFound, 404);
      return {
        providerOrderId: order.provider_order_id,
        amountCents: e4ToCents(order.amount_e4),
        currency: order.currency,
        paymentStatus: order.payment_status,
      };
    },

    /**
     * A provider webhook, already authenticated. Deduplicated by event id in the same transaction
     * as its effect, so a crash cannot drop an event that was recorded as seen.
     */
    async handleWebhookEvent(
      eventId: string,
      event: RazorpayWebhookEvent,
    ): Promise<{ duplicate: boolean; result: string }> {
      return db.transaction().execute(async (trx) => {
        const inserted = await trx
          .insertInto('webhook_events')
          .values({ provider: provider.name, event_id: eventId, received_at: now().toISOString() })
          .onConflict((oc) => oc.columns(['provider', 'event_id']).doNothing())
          .executeTakeFirst();
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return { duplicate: true, result: 'duplicate' };

        const payment = event.payload?.payment?.entity;
        if ((event.event === 'payment.captured' || event.event === 'order.paid') && payment?.order_id) {
          if (event.event === 'payment.captured' && payment.status && payment.status !== 'captured') {
            return { duplicate: false, result: 'ignored' };
          }
          const result = await markPaid(
            trx,
            {
              providerOrderId: payment.order_id,
              paymentId: payment.id,
              amountCents: payment.amount,
              currency: payment.currency,
              source: 'webhook',
            },
            context,
          );
          if (result.outcome === 'rejected') throw new WebhookRejected(result.reason);
          return { duplicate: false, result: result.outcome };
        }
        if (event.event === 'payment.failed' && payment?.order_id) {
          await markPaymentFailed(
            trx,
            {
              providerOrderId: payment.order_id,
              paymentId: payment.id,
              reason: payment.error_description ?? 'Payment failed',
              source: 'webhook',
            },
            now(),
          );
          return { duplicate: false, result: 'failed' };
        }
        return { duplicate: false, result: 'ignored' };
      });
    },

    /**
     * Asks the provider about orders still waiting for payment (the buyer may have closed the
     * window after paying), in rotation: never-checked orders first, then those checked longest
     * ago (`last_checked_at`), up to `limit` per run, `RECONCILE_CONCURRENCY` at a time. Expires
     * orders the provider has no payment attempt for after UNATTEMPTED_EXPIRY_MS, and those with
     * attempts (failed, authorised) after ABANDONED_AFTER_MS. A captured payment that disagrees
     * with the order is flagged for review (`flagged`, for the caller to log). A provider error on
     * one order is counted and the order still moves to the back of the rotation, so one bad
     * order cannot stall the rest. Windows and bounds: decision 014.
     */
    async reconcile(limit = RECONCILE_BATCH): Promise<ReconcileResult> {
      const current = now().getTime();
      const due = await db
        .selectFrom('orders')
        .select(['id', 'provider_order_id', 'created_at', 'payment_status'])
        .where('provider', '=', provider.name)
        .where('payment_status', 'in', ['created', 'fail'])
        .where('created_at', '<', new Date(current - RECONCILE_AFTER_MS).toISOString())
        .orderBy('last_checked_at', (order) => order.asc().nullsFirst())
        .orderBy('created_at')
        .orderBy('id')
        .limit(limit)
        .execute();
      const result: ReconcileResult = { checked: 0, paid: 0, expired: 0, errors: 0, flagged: [] };

      async function checkOne(order: (typeof due)[number]): Promise<void> {
        const checkedAt = now();
        let payments;
        try {
          payments = await provider.listOrderPayments(order.provider_order_id);
        } catch (error) {
          if (!(error instanceof PaymentProviderError)) throw error;
          result.errors += 1;
          await markChecked(order.id, checkedAt);
          return;
        }
        result.checked += 1;
        const captured = payments.find((p) => p.status === 'captured');
        await db.transaction().execute(async (trx) => {
          if (captured) {
            const outcome = await markPaid(
              trx,
              {
                providerOrderId: order.provider_order_id,
                paymentId: captured.id,
                amountCents: captured.amountCents,
                currency: captured.currency,
                source: 'reconciler',
              },
              context,
            );
            if (outcome.outcome === 'paid') result.paid += 1;
            if (outcome.outcome === 'rejected' && outcome.mismatch) {
              const facts = { paymentId: captured.id, reason: outcome.reason, source: 'reconciler' as const };
              if (await flagPaymentMismatch(trx, { orderId: outcome.mismatch.orderId, ...facts }, checkedAt))
                result.flagged.push({ orderId: order.id, providerOrderId: order.provider_order_id, ...facts });
            }
          } else {
            const attempted = payments.length > 0 || order.payment_status === 'fail';
            const window = attempted ? ABANDONED_AFTER_MS : UNATTEMPTED_EXPIRY_MS;
            if (Date.parse(order.created_at) < current - window && (await expireOrder(trx, order.id, checkedAt)))
              result.expired += 1;
          }
          await markChecked(order.id, checkedAt, trx);
        });
      }

      async function markChecked(orderId: number, at: Date, trx: Kysely<Database> = db): Promise<void> {
        await trx.updateTable('orders').set({ last_checked_at: at.toISOString() }).where('id', '=', orderId).execute();
      }

      // A few provider calls at a time: a backlog of hundreds is one run, not hundreds of seconds.
      let next = 0;
      const lane = async () => {
        while (next < due.length) {
          const order = due[next];
          next += 1;
          if (order) await checkOne(order);
        }
      };
      await Promise.all(Array.from({ length: Math.min(RECONCILE_CONCURRENCY, due.length) }, lane));
      return result;
    },
  };
}

export type OrderService = ReturnType<typeof createOrderService>;

export class WebhookRejected extends Error {}

export interface RazorpayWebhookEvent {
  event: string;
  payload?: {
    payment?: {
      entity?: {
        id: string;
        order_id?: string;
        amount?: number;
        currency?: string;
        status?: string;
        error_description?: string;
      };
    };
    order?: { entity?: { id: string; amount_paid?: number; currency?: string } };
  };
}
