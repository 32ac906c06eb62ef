/**
 * A local stand-in for Razorpay's REST API over real HTTP on 127.0.0.1: orders, their payments,
 * Basic auth, and helpers that play the customer (pay an order, build signed webhooks).
 */
import { randomBytes } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hmacSha256Hex, paymentSignature } from '../../core/payments/signatures.ts';

interface FakeRazorpayOrder {
  id: string;
  amount: number;
  currency: string;
  receipt: string;
  notes: Record<string, string>;
  status: 'created' | 'attempted' | 'paid';
  /** Unix seconds after which Razorpay refuses payments for the order (optional). */
  expire_by?: number;
}

interface FakeRazorpayPayment {
  id: string;
  order_id: string;
  amount: number;
  currency: string;
  status: 'captured' | 'failed';
}

export async function startFakeRazorpay(options: { keyId: string; keySecret: string; webhookSecret: string }) {
  const orders = new Map<string, FakeRazorpayOrder>();
  const payments: FakeRazorpayPayment[] = [];
  const requests: { method: string; path: string; authorized: boolean }[] = [];
  /** Refunds made, and the idempotency key each answered to (a repeated key returns the first). */
  const refunds: { id: string; payment_id: string; amount: number; idempotencyKey: string }[] = [];
  let mode: 'normal' | 'down' = 'normal';
  const expectedAuth = `Basic ${Buffer.from(`${options.keyId}:${options.keySecret}`).toString('base64')}`;

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const readBody = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const authorized = req.headers.authorization === expectedAuth;
    requests.push({ method: req.method ?? '', path: url.pathname, authorized });
    if (mode === 'down') return json(res, 503, { error: { code: 'SERVER_ERROR', description: 'Service unavailable' } });
    if (!authorized)
      return json(res, 401, { error: { code: 'BAD_REQUEST_ERROR', description: 'Authentication failed' } });

    if (req.method === 'POST' && url.pathname === '/v1/orders') {
      const body = await readBody(req);
      if (!Number.isInteger(body.amount) || body.amount < 100) {
        return json(res, 400, {
          error: { code: 'BAD_REQUEST_ERROR', description: 'Order amount less than minimum amount allowed' },
        });
      }
      // Razorpay's rule: an expiry, when given, is an integer at least 15 minutes ahead.
      if (
        body.expire_by !== undefined &&
        (!Number.isInteger(body.expire_by) || body.expire_by < Math.floor(Date.now() / 1000) + 15 * 60)
      ) {
        return json(res, 400, {
          error: {
            code: 'BAD_REQUEST_ERROR',
            description: 'expire_by should be at least 15 minutes after current time',
          },
        });
      }
      const order: FakeRazorpayOrder = {
        id: `order_${randomBytes(7).toString('hex')}`,
        ...(body.expire_by !== undefined ? { expire_by: body.expire_by } : {}),
        amount: body.amount,
        currency: body.currency,
        receipt: body.receipt,
        notes: body.notes ?? {},
        status: 'created',
      };
      orders.set(order.id, order);
      return json(res, 200, { ...order, entity: 'order', amount_paid: 0, amount_due: order.amount, attempts: 0 });
    }
    const paymentsMatch = /^\/v1\/orders\/([^/]+)\/payments$/.exec(url.pathname);
    if (req.method === 'GET' && paymentsMatch) {
      const id = decodeURIComponent(paymentsMatch[1]);
      if (!orders.has(id))
        return json(res, 400, { error: { code: 'BAD_REQUEST_ERROR', description: 'The id provided does not exist' } });
      const items = payments.filter((p) => p.order_id === id).map((p) => ({ ...p, entity: 'payment' }));
      return json(res, 200, { entity: 'collection', count: items.length, items });
    }
    const refundMatch = /^\/v1\/payments\/([^/]+)\/refund$/.exec(url.pathname);
    if (req.method === 'POST' && refundMatch) {
      const paymentId = decodeURIComponent(refundMatch[1]);
      const payment = payments.find((p) => p.id === paymentId && p.status === 'captured');
      if (!payment)
        return json(res, 400, { error: { code: 'BAD_REQUEST_ERROR', description: 'The id provided does not exist' } });
      const body = await readBody(req);
      const key = String(req.headers['x-refund-idempotency'] ?? '');
      const earlier = key ? refunds.find((r) => r.idempotencyKey === key) : undefined;
      if (earlier) return json(res, 200, { entity: 'refund', ...earlier });
      const refunded = refunds.filter((r) => r.payment_id === paymentId).reduce((sum, r) => sum + r.amount, 0);
      const amount = body.amount ?? payment.amount - refunded;
      if (!Number.isInteger(amount) || amount <= 0 || refunded + amount > payment.amount) {
        return json(res, 400, {
          error: { code: 'BAD_REQUEST_ERROR', description: 'The refund amount is more than the amount left to refund' },
        });
      }
      const refund = {
        id: `rfnd_${randomBytes(7).toString('hex')}`,
        payment_id: paymentId,
        amount,
        idempotencyKey: key,
      };
      refunds.push(refund);
      return json(res, 200, { entity: 'refund', ...refund, currency: payment.currency, status: 'processed' });
    }
    return json(res, 404, {
      error: { code: 'BAD_REQUEST_ERROR', description: 'The requested URL was not found on the server.' },
    });
  };
  // Node ignores the promise a request listener returns: without the catch, a throw in the fake
  // (say, a body that is not JSON) would be an unhandled rejection and leave the request hanging.
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    orders,
    payments,
    refunds,
    requests,
    setMode(next: 'normal' | 'down') {
      mode = next;
    },
    /** The customer pays in Razorpay's window: a captured payment and the handler's signed fields. */
    pay(orderId: string, status: 'captured' | 'failed' = 'captured') {
      const order = orders.get(orderId);
      if (!order) throw new Error(`no fake order ${orderId}`);
      const payment: FakeRazorpayPayment = {
        id: `pay_${randomBytes(7).toString('hex')}`,
        order_id: orderId,
        amount: order.amount,
        currency: order.currency,
        status,
      };
      payments.push(payment);
      if (status === 'captured') order.status = 'paid';
      return {
        payment,
        handlerResult: {
          razorpay_order_id: orderId,
          razorpay_payment_id: payment.id,
          razorpay_signature: paymentSignature(options.keySecret, orderId, payment.id),
        },
      };
    },
    /** A webhook delivery as Razorpay sends it: raw JSON body and its signature header. */
    webhook(
      event: 'payment.captured' | 'payment.failed' | 'order.paid',
      payment: FakeRazorpayPayment,
      overrides: Partial<FakeRazorpayPayment> = {},
    ) {
      const entity = {
        ...payment,
        entity: 'payment',
        ...overrides,
        ...(event === 'payment.failed' ? { status: 'failed', error_description: 'Card declined' } : {}),
      };
      const body = JSON.stringify({
        entity: 'event',
        event,
        contains: event === 'order.paid' ? ['payment', 'order'] : ['payment'],
        payload: {
          payment: { entity },
          ...(event === 'order.paid'
            ? { order: { entity: { id: payment.order_id, amount_paid: entity.amount, currency: entity.currency } } }
            : {}),
        },
        created_at: Math.floor(Date.now() / 1000),
      });
      return {
        body,
        headers: {
          'content-type': 'application/json',
          'x-razorpay-signature': hmacSha256Hex(options.webhookSecret, body),
          'x-razorpay-event-id': `evt_${randomBytes(7).toString('hex')}`,
        },
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type FakeRazorpay = Awaited<ReturnType<typeof startFakeRazorpay>>;
