/**
 * Checkout: an order priced on the server from the catalogue (never from the client's amount),
 * opened with the payment provider, and the reply the order page needs to take the payment.
 * A repeated submission of the same form (double click, retry) gets the same order back.
 */
import { randomBytes } from 'node:crypto';
import { chargeAmountE4 } from '../catalogue/pricing.ts';
import { e4ToCents, e4ToNumber, formatMoney, numberToE4 } from '../money/money.ts';
import { type PaymentProvider, PaymentProviderError } from '../payments/provider.ts';
import { parseTarget, storedTargetOf } from '../verification/parse.ts';
import { PROCESSING_FEE_LABEL } from './charges.ts';
import type { CreatedOrder } from './contracts.ts';
import { findPackage } from './form-detail.ts';
import type { OrderServiceDeps } from './order-deps.ts';
import { OrderError } from './order-error.ts';
import { recordOrderEvent } from './timeline.ts';
import { ORDER_CURRENCY } from './types.ts';
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

export function createdOrderReply(
  provider: PaymentProvider,
  order: {
    provider_order_id: string;
    email: string;
    service_name: string;
    price_e4: number;
    list_price_e4: number | null;
    amount_e4: number;
    currency: string;
  },
): CreatedOrder {
  const amountCents = e4ToCents(order.amount_e4);
  const feeE4 = order.amount_e4 - order.price_e4;
  const listPriceE4 = order.list_price_e4 !== null && order.list_price_e4 > order.price_e4 ? order.list_price_e4 : null;
  return {
    currency: order.currency,
    serviceName: order.service_name,
    razorpay_order_id: order.provider_order_id,
    email: order.email,
    amountCents,
    packagePriceCents: amountCents - e4ToCents(feeE4),
    ...(listPriceE4 !== null ? { listPriceCents: e4ToCents(listPriceE4) } : {}),
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

export async function createOrder(deps: OrderServiceDeps, input: CreateOrderInput): Promise<CreatedOrder> {
  const { db, catalogue, provider } = deps;
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
      return createdOrderReply(provider, existing);
    throw new OrderError('This order id was already used for another order. Please reload the page.', 409);
  }

  const check = await deps.checkTarget(service.targetKind, typed);
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

  const at = deps.now().toISOString();
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
    if (winner) return createdOrderReply(provider, winner);
    throw error;
  }
  return createdOrderReply(provider, row);
}
