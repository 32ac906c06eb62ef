/**
 * A paid order through the real API, as a buyer makes one: create it, pay it at the fake
 * Razorpay, verify the payment. Suites that need paid orders (fulfilment, reorder) share it.
 */
import { expect } from 'vitest';
import type { FakeRazorpay } from '../fakes/razorpay.ts';
import type { TestApp } from './app.ts';

interface PaidOrderRequest {
  /** Unique per order within the suite: it picks the browser's 6-digit id and a client address. */
  sequence: number;
  /** The target username; the e-mail is `<name>@example.com`. */
  name: string;
  /** The package: plan type, service slug and quantity. */
  type: string;
  slug: string;
  qty: number;
  /** The second octet of the buyers' addresses, so suites do not share a rate-limit bucket. */
  subnet: number;
}

/** Returns the order's row id. */
export async function placePaidOrder(t: TestApp, razorpay: FakeRazorpay, request: PaidOrderRequest): Promise<number> {
  const { sequence, name } = request;
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/order',
    remoteAddress: `10.${request.subnet}.${Math.floor(sequence / 250) % 250}.${sequence % 250}`,
    payload: {
      type: request.type,
      slug: request.slug,
      qty: request.qty,
      name,
      email: `${name}@example.com`,
      order_id: String(sequence).padStart(6, '0'),
    },
  });
  expect(created.statusCode).toBe(200);
  const { razorpay_order_id, checkout } = created.json<{
    data: { razorpay_order_id: string; checkout: { order_id: string } };
  }>().data;
  // Razorpay knows the payment attempt by its own order id; the store's order has its own reference.
  const { handlerResult } = razorpay.pay(checkout.order_id);
  const verified = await t.app.inject({
    method: 'POST',
    url: '/api/order/verify-payment',
    payload: handlerResult,
    remoteAddress: `10.8.0.${request.subnet}`,
  });
  expect(verified.statusCode).toBe(200);
  const { id } = await t.database.db
    .selectFrom('orders')
    .select('id')
    .where('provider_order_id', '=', razorpay_order_id)
    .executeTakeFirstOrThrow();
  return id;
}
