/**
 * Checkout: an order priced on the server from the catalogue (never from the client's amount),
 * opened with the payment provider, and the reply the order page needs to take the payment.
 * A repeated submission of the same form (double click, retry) gets the same order back.
 */
import { randomBytes } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { OrdersTable, PaymentAttemptsTable } from '../../db/schema.ts';
import { chargeAmountE4 } from '../catalogue/pricing.ts';
import { e4ToCents, e4ToNumber, formatMoney, numberToE4 } from '../money/money.ts';
import { adjustedAmountE4 } from '../payments/methods.ts';
import { PaymentProviderError } from '../payments/provider.ts';
import { laneKeyOf } from '../subscriptions/lanes.ts';
import { renewableOrderId } from '../subscriptions/renewal-tokens.ts';
import { isSubscriptionKind, subscriptionPlanOf } from '../subscriptions/terms.ts';
import { parseTarget, storedTargetOf } from '../verification/parse.ts';
import { PROCESSING_FEE_LABEL } from './charges.ts';
import { CheckoutInstructionsSchema, type CreatedOrder } from './contracts.ts';
import { findPackage } from './form-detail.ts';
import { type OrderServiceDeps, checkoutMethods } from './order-deps.ts';
import { OrderError, PAYMENT_MESSAGES } from './order-error.ts';
import { ABANDONED_AFTER_MS } from './reconcile.ts';
import { PAYABLE_STATUSES } from './status.ts';
import { submissionKey } from './submission-key.ts';
import { recordOrderEvent } from './timeline.ts';
import { addPaymentAttempt, choosePaymentAttempt } from './transitions/index.ts';
import { ORDER_CURRENCY, publicOrderId } from './types.ts';
import { firstOrderFormError, validateOrderForm } from './validation.ts';

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
  /** A method id of the checkout, or `card`; omitted: the default card method. */
  paymentMethod?: string | undefined;
  /**
   * The renewal link's token (core/renewals/renewals.ts): a valid, unused token of a
   * subscription to the same service and target links this order as its renewal. Anything else
   * is ignored: the order is then an ordinary one.
   */
  renewalToken?: string | undefined;
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
  adjustmentE4 = 0,
): string {
  const money = (e4: number) => formatMoney(e4ToNumber(e4), currency);
  const notes: string[] = [];
  if (listPriceE4 !== null && listPriceE4 > priceE4) notes.push(`sale: ${money(listPriceE4)} → ${money(priceE4)}`);
  if (feeE4 > 0) notes.push(`incl. ${PROCESSING_FEE_LABEL.toLowerCase()} ${money(feeE4)}`);
  if (adjustmentE4 < 0) notes.push(`payment method discount ${money(-adjustmentE4)}`);
  if (adjustmentE4 > 0) notes.push(`incl. payment method surcharge ${money(adjustmentE4)}`);
  return notes.length > 0 ? `${serviceName} (${notes.join('; ')})` : serviceName;
}

type StoredOrder = Pick<
  Selectable<OrdersTable>,
  'provider_order_id' | 'email' | 'service_name' | 'price_e4' | 'list_price_e4' | 'currency' | 'created_at'
>;
type StoredAttempt = Pick<Selectable<PaymentAttemptsTable>, 'method' | 'amount_e4' | 'adjustment_e4' | 'checkout_json'>;

export function createdOrderReply(order: StoredOrder, attempt: StoredAttempt): CreatedOrder {
  const amountCents = e4ToCents(attempt.amount_e4);
  const listPriceE4 = order.list_price_e4 !== null && order.list_price_e4 > order.price_e4 ? order.list_price_e4 : null;
  const checkout = CheckoutInstructionsSchema.parse(JSON.parse(attempt.checkout_json));
  return {
    currency: order.currency,
    serviceName: order.service_name,
    razorpay_order_id: order.provider_order_id,
    orderId: publicOrderId(order.provider_order_id),
    email: order.email,
    amountCents,
    paymentMethod: attempt.method,
    adjustmentCents: e4ToCents(attempt.adjustment_e4),
    packagePriceCents: e4ToCents(order.price_e4),
    ...(listPriceE4 !== null ? { listPriceCents: e4ToCents(listPriceE4) } : {}),
    ...('redirectUrl' in checkout ? { redirectUrl: checkout.redirectUrl } : {}),
    checkout,
  };
}

/** A new order's reference: `order_` + 14 letters and digits (its public id), ours whatever the provider. */
function newOrderReference(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  const bytes = randomBytes(14);
  return `order_${Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('')}`;
}

/** The method the buyer asked for, priced: the base charge with the owner's adjustment. */
async function pricedMethod(deps: OrderServiceDeps, requested: string | undefined, baseE4: number) {
  const method = deps.gateways.resolve(requested);
  const provider = method ? deps.gateways.providerFor(method) : undefined;
  if (!method || !provider) throw new OrderError(PAYMENT_MESSAGES.methodUnavailable, 400, 'paymentMethod');
  const { adjustments } = await checkoutMethods(deps);
  return { method, provider, ...adjustedAmountE4(baseE4, adjustments[method]) };
}

type PricedMethod = Awaited<ReturnType<typeof pricedMethod>>;

/** Opens the payment with the method's provider. */
async function startPayment(deps: OrderServiceDeps, order: StoredOrder, priced: PricedMethod) {
  const publicId = publicOrderId(order.provider_order_id);
  const base = deps.publicUrl.replace(/\/$/, '');
  const listPriceE4 = order.list_price_e4 !== null && order.list_price_e4 > order.price_e4 ? order.list_price_e4 : null;
  try {
    return await priced.provider.start({
      attemptRef: publicId,
      method: priced.method,
      amountCents: e4ToCents(priced.amountE4),
      currency: order.currency,
      email: order.email,
      // A payment window shows only the total: the fee, a sale's list price and the method's
      // price change are named in its description (decisions 033, 038, 055).
      description: checkoutDescription(
        order.service_name,
        order.price_e4,
        listPriceE4,
        priced.amountE4 - priced.adjustmentE4 - order.price_e4,
        order.currency,
        priced.adjustmentE4,
      ),
      returnUrl: `${base}/order-confirm/${publicId}`,
      webhookUrl: `${base}/api/payments/${priced.provider.id}/webhook`,
      expiresAt: new Date(Date.parse(order.created_at) + ABANDONED_AFTER_MS),
    });
  } catch (error) {
    if (error instanceof PaymentProviderError)
      throw new OrderError('The payment service is not available right now. Please try again in a minute.', 502);
    throw error;
  }
}

/**
 * A repeated submission of a form that already made an order: the same order back, with the
 * attempt for the method asked this time (a buyer who closed the card window and chose crypto
 * pays the same order). A paid order is not opened again.
 */
async function reopenOrder(
  deps: OrderServiceDeps,
  existing: Selectable<OrdersTable>,
  requestedMethod: string | undefined,
): Promise<CreatedOrder> {
  // Whatever method is asked, a paid order is not offered for payment again: its
  // earlier attempts would still hand the browser a window for money already taken.
  if (existing.payment_status === 'expired') throw new OrderError(PAYMENT_MESSAGES.expired, 409);
  if (!PAYABLE_STATUSES.includes(existing.payment_status)) throw new OrderError(PAYMENT_MESSAGES.alreadyPaid, 409);
  const priced = await pricedMethod(deps, requestedMethod, existing.amount_e4 - existing.adjustment_e4);
  const attemptOf = () =>
    deps.db
      .selectFrom('payment_attempts')
      .selectAll()
      .where('order_id', '=', existing.id)
      .where('method', '=', priced.method)
      .executeTakeFirst();
  let attempt = await attemptOf();
  if (!attempt) {
    const started = await startPayment(deps, existing, priced);
    await addPaymentAttempt(deps.db, {
      order_id: existing.id,
      provider: priced.provider.id,
      method: priced.method,
      reference: started.reference,
      amount_e4: priced.amountE4,
      adjustment_e4: priced.adjustmentE4,
      checkout_json: JSON.stringify(started.checkout),
      created_at: deps.now().toISOString(),
    });
    attempt = await attemptOf();
    if (!attempt) throw new OrderError(PAYMENT_MESSAGES.orderNotFound, 404);
  }
  if (existing.payment_method !== attempt.method) await choosePaymentAttempt(deps.db, attempt, deps.now());
  return createdOrderReply(existing, attempt);
}

export async function createOrder(deps: OrderServiceDeps, input: CreateOrderInput): Promise<CreatedOrder> {
  const { db, catalogue } = deps;
  const lookup = await findPackage(catalogue, input);
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
  const baseE4 = chargeAmountE4(priceE4);
  const priced = await pricedMethod(deps, input.paymentMethod, baseE4);
  // The page's price, with or without the method's change: anything else means the price moved.
  if (input.amount !== undefined && ![baseE4, priced.amountE4].includes(numberToE4(input.amount))) {
    throw new OrderError(
      `The price of this package has changed to $${e4ToNumber(priced.amountE4).toFixed(2)}. Please review your order.`,
      409,
    );
  }

  // A repeated submission of the same form (double click, retry) gets the same order back; the
  // same form id asking for something else is a fresh order (submission-key.ts says why).
  const clientOrderKey = submissionKey({
    formId: input.order_id,
    serviceSlug: service.slug,
    planType: plan.type,
    quantity: tier.qty,
    target,
  });
  const findExisting = async () => {
    const rows = await db
      .selectFrom('orders')
      .selectAll()
      .where('email', '=', email)
      .where('client_order_id', 'in', [clientOrderKey, input.order_id])
      .execute();
    return rows.find(
      (row) =>
        row.client_order_id === clientOrderKey ||
        (row.service_slug === service.slug && row.quantity === tier.qty && row.target === target),
    );
  };
  const existing = await findExisting();
  if (existing) return reopenOrder(deps, existing, input.paymentMethod);

  const check = await deps.checkTarget(service.targetKind, typed);
  if (check.outcome === 'invalid') throw new OrderError(check.message, 400, 'name');

  const at = deps.now().toISOString();
  const row = {
    provider: priced.provider.id,
    provider_order_id: newOrderReference(),
    client_order_id: clientOrderKey,
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
    amount_e4: priced.amountE4,
    adjustment_e4: priced.adjustmentE4,
    payment_method: priced.method,
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
    kind: service.kind,
    lane_key: laneKeyOf(service.kind, service.targetKind, target),
  };
  // A subscription's terms are the service's when it was bought; its dates are set when it
  // reaches the supplier (decision 057).
  const subscription =
    isSubscriptionKind(service.kind) && service.terms
      ? subscriptionPlanOf(service.kind, service.terms, tier.qty)
      : null;
  const renewalOf = subscription ? await renewableOrderId(db, input.renewalToken, row, deps.now()) : null;
  const started = await startPayment(deps, row, priced);
  const attempt = {
    provider: priced.provider.id,
    method: priced.method,
    reference: started.reference,
    amount_e4: priced.amountE4,
    adjustment_e4: priced.adjustmentE4,
    checkout_json: JSON.stringify(started.checkout),
    created_at: at,
  };
  // The tier's panel and service, copied: the order is fulfilled, refilled and cancelled on
  // the panel it was sold with even after the tier is remapped (decision 045).
  const supplierTarget = await catalogue.supplierTarget(service.slug, plan.type, tier.qty);
  row.supplier_service_id = supplierTarget?.service ?? '';
  try {
    await db.transaction().execute(async (trx) => {
      const { id } = await trx
        .insertInto('orders')
        // Without a target the column's default: the environment panel.
        .values(supplierTarget ? { ...row, supplier_panel_id: supplierTarget.panelId } : row)
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('payment_attempts')
        .values({ ...attempt, order_id: id })
        .execute();
      if (subscription)
        await trx
          .insertInto('subscriptions')
          .values({
            order_id: id,
            kind: subscription.kind,
            per_unit: subscription.perUnit,
            posts: subscription.posts,
            delay_minutes: subscription.delayMinutes,
            runs: subscription.runs,
            interval_minutes: subscription.intervalMinutes,
            period_days: subscription.periodDays,
            // The renewed order learns of it only once this one is paid (renewalSubscriber).
            renewal_of_order_id: renewalOf,
          })
          .execute();
      await recordOrderEvent(
        trx,
        id,
        'order.created',
        { provider: priced.provider.id, method: priced.method, verified: check.outcome },
        at,
      );
    });
  } catch (error) {
    // Two identical submissions raced past the lookup: the unique (email, client id) keeps one.
    const winner = await findExisting();
    if (winner) return reopenOrder(deps, winner, input.paymentMethod);
    throw error;
  }
  return createdOrderReply(row, attempt);
}
