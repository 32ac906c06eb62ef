/**
 * A local stand-in for Solidgate over real HTTP on 127.0.0.1, serving both of its hosts (the
 * payment page host's `/api/v1/init` and the hosted page, the API host's `/api/v1/status` and
 * `/api/v1/refund`): every API call must carry `merchant` and a valid `signature`, and every
 * change to an order is announced by a signed webhook to the URL the test sets (Solidgate's
 * webhook URL is set in its dashboard, not per payment). Usable from Vitest and Playwright.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isValidSolidgateSignature, solidgateSignature } from '../../core/payments/solidgate-signature.ts';

export interface FakeSolidgateTransaction {
  id: string;
  operation: 'pay' | 'refund';
  status: 'success' | 'fail';
  amount: number;
  currency: string;
  created_at: string;
}

export interface FakeSolidgateOrder {
  order_id: string;
  guid: string;
  amount: number;
  currency: string;
  order_description: string;
  customer_email: string;
  success_url: string;
  fail_url: string;
  status: 'created' | 'approved' | 'declined' | 'refunded';
  refunded_amount: number;
  transactions: FakeSolidgateTransaction[];
  /** Why a declined order was declined, as Solidgate reports it. */
  error?: { code: string; messages: string[] };
  created_at: string;
  updated_at: string;
}

export interface FakeSolidgateOptions {
  publicKey: string;
  secretKey: string;
  webhookPublicKey: string;
  webhookSecretKey: string;
  /** Where webhooks go; none are sent until it is set (here or with `setWebhookUrl`). */
  webhookUrl?: string;
}

/** A signed delivery as Solidgate sends it: the raw body and its headers. */
export interface FakeSolidgateWebhook {
  body: string;
  headers: Record<string, string>;
}

const errorBody = (code: string, ...messages: string[]) => ({ error: { code, messages } });
const NOT_FOUND = errorBody('2.01', 'Order not found');
const PAID = new Set(['approved', 'refunded']);
const text = (value: unknown) => (typeof value === 'string' ? value : '');
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function startFakeSolidgate(options: FakeSolidgateOptions) {
  const orders = new Map<string, FakeSolidgateOrder>();
  const refunds: { id: string; order_id: string; amount: number }[] = [];
  const requests: { method: string; path: string; authorized: boolean }[] = [];
  /** Every webhook sent and what the receiver answered (a number, or the delivery error). */
  const deliveries: { type: string; orderId: string; status: number | string }[] = [];
  const pending = new Set<Promise<unknown>>();
  let webhookUrl = options.webhookUrl ?? '';
  let mode: 'normal' | 'down' = 'normal';
  let baseUrl = '';

  const now = () => new Date().toISOString();
  const id = (prefix: string) => `${prefix}${randomBytes(8).toString('hex')}`;
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const html = (res: ServerResponse, status: number, body: string) => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Solidgate</title></head><body>${body}</body></html>`,
    );
  };
  const readRaw = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };
  const find = (orderId: string) => {
    const order = orders.get(orderId);
    if (!order) throw new Error(`no fake Solidgate order ${orderId}`);
    return order;
  };

  /** The shape of the status API's reply and of an order notification. */
  const orderJson = (order: FakeSolidgateOrder) => {
    const last = order.transactions.at(-1);
    return {
      order: {
        order_id: order.order_id,
        status: order.status,
        amount: order.amount,
        currency: order.currency,
        refunded_amount: order.refunded_amount,
        order_description: order.order_description,
        customer_email: order.customer_email,
        created_at: order.created_at,
        updated_at: order.updated_at,
      },
      transactions: Object.fromEntries(order.transactions.map((t) => [t.id, t])),
      ...(last ? { transaction: last } : {}),
      ...(order.error ? { error: order.error } : {}),
    };
  };

  const signed = (type: string, payload: unknown): FakeSolidgateWebhook => {
    const body = JSON.stringify(payload);
    return {
      body,
      headers: {
        'content-type': 'application/json',
        merchant: options.webhookPublicKey,
        signature: solidgateSignature(options.webhookPublicKey, options.webhookSecretKey, body),
        'solidgate-event-id': randomUUID(),
        'solidgate-event-type': type,
        'solidgate-event-created-at': now(),
      },
    };
  };

  /** Sends a signed webhook and waits for the receiver's answer (undefined: no URL set). */
  const deliver = async (orderId: string, webhook: FakeSolidgateWebhook): Promise<number | undefined> => {
    if (!webhookUrl) return undefined;
    const type = webhook.headers['solidgate-event-type'] ?? '';
    const sending = fetch(webhookUrl, {
      method: 'POST',
      headers: webhook.headers,
      body: webhook.body,
      signal: AbortSignal.timeout(5_000),
    })
      .then(async (response) => {
        // Read to the end, as a real sender does: an unread body keeps its connection to the store busy.
        await response.arrayBuffer();
        deliveries.push({ type, orderId, status: response.status });
        return response.status;
      })
      .catch((error: unknown) => {
        deliveries.push({ type, orderId, status: String(error) });
        return undefined;
      });
    pending.add(sending);
    return sending.finally(() => pending.delete(sending));
  };
  const orderWebhook = (order: FakeSolidgateOrder) => signed('card_gate.order.updated', orderJson(order));

  const settle = (order: FakeSolidgateOrder, outcome: 'approved' | 'declined') => {
    if (order.status !== 'created') return false;
    order.status = outcome;
    order.updated_at = now();
    order.transactions.push({
      id: id('pay_'),
      operation: 'pay',
      status: outcome === 'approved' ? 'success' : 'fail',
      amount: order.amount,
      currency: order.currency,
      created_at: order.updated_at,
    });
    if (outcome === 'declined') order.error = { code: '3.02', messages: ['Insufficient funds'] };
    return true;
  };

  const init = (body: { order?: Record<string, unknown> }, res: ServerResponse) => {
    const o = body.order ?? {};
    const valid =
      typeof o.order_id === 'string' &&
      o.order_id !== '' &&
      Number.isInteger(o.amount) &&
      (o.amount as number) > 0 &&
      typeof o.currency === 'string' &&
      /^[A-Z]{3}$/.test(o.currency) &&
      typeof o.success_url === 'string' &&
      typeof o.fail_url === 'string';
    if (!valid) return json(res, 422, errorBody('2.01', 'Invalid data'));
    const orderId = o.order_id as string;
    const existing = orders.get(orderId);
    if (existing && existing.status !== 'created') {
      return json(res, 422, errorBody('2.01', 'Order with this order_id has already been processed'));
    }
    const order: FakeSolidgateOrder = existing ?? {
      order_id: orderId,
      guid: randomUUID(),
      amount: o.amount as number,
      currency: o.currency as string,
      order_description: text(o.order_description),
      customer_email: text(o.customer_email),
      success_url: o.success_url as string,
      fail_url: o.fail_url as string,
      status: 'created',
      refunded_amount: 0,
      transactions: [],
      created_at: now(),
      updated_at: now(),
    };
    orders.set(orderId, order);
    return json(res, 200, { url: `${baseUrl}/payment-page/${order.guid}`, guid: order.guid });
  };

  const refund = (body: { order_id?: unknown; amount?: unknown }, res: ServerResponse) => {
    const order = typeof body.order_id === 'string' ? orders.get(body.order_id) : undefined;
    if (!order) return json(res, 404, NOT_FOUND);
    const amount = body.amount;
    if (typeof amount !== 'number' || !Number.isInteger(amount) || amount <= 0) {
      return json(res, 422, errorBody('2.01', 'Invalid amount'));
    }
    if (!PAID.has(order.status)) return json(res, 422, errorBody('2.01', 'Order is not paid'));
    // Solidgate treats a repeated refund of the same order and amount as the same refund.
    const earlier = order.transactions.find((t) => t.operation === 'refund' && t.amount === amount);
    if (earlier) return json(res, 200, { ...orderJson(order), transaction: earlier });
    if (order.refunded_amount + amount > order.amount) {
      return json(res, 422, errorBody('2.01', 'Refund amount exceeds the amount available for refund'));
    }
    const transaction: FakeSolidgateTransaction = {
      id: id('rf_'),
      operation: 'refund',
      status: 'success',
      amount,
      currency: order.currency,
      created_at: now(),
    };
    order.transactions.push(transaction);
    order.refunded_amount += amount;
    order.status = 'refunded';
    order.updated_at = transaction.created_at;
    refunds.push({ id: transaction.id, order_id: order.order_id, amount });
    void deliver(order.order_id, orderWebhook(order));
    return json(res, 200, { ...orderJson(order), transaction });
  };

  const page = async (req: IncomingMessage, res: ServerResponse, guid: string, action: string | undefined) => {
    const order = [...orders.values()].find((o) => o.guid === guid);
    if (!order) return html(res, 404, '<h1>Payment link not found</h1>');
    if (req.method === 'GET' && !action) {
      const amount = `${(order.amount / 100).toFixed(2)} ${order.currency}`;
      return html(
        res,
        200,
        `<main><h1>Pay ${escapeHtml(amount)}</h1><p>${escapeHtml(order.order_description)}</p>` +
          `<p data-status>${order.status}</p>` +
          `<form method="post" action="/payment-page/${guid}/pay"><button type="submit">Pay</button></form>` +
          `<form method="post" action="/payment-page/${guid}/decline"><button type="submit">Decline</button></form></main>`,
      );
    }
    if (req.method !== 'POST' || (action !== 'pay' && action !== 'decline')) return html(res, 405, '');
    if (settle(order, action === 'pay' ? 'approved' : 'declined')) await deliver(order.order_id, orderWebhook(order));
    res.writeHead(303, { location: order.status === 'declined' ? order.fail_url : order.success_url });
    res.end();
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const raw = await readRaw(req);
    const isApi = url.pathname.startsWith('/api/');
    const authorized =
      req.headers.merchant === options.publicKey &&
      isValidSolidgateSignature(options.publicKey, options.secretKey, raw, String(req.headers.signature ?? ''));
    requests.push({ method: req.method ?? '', path: url.pathname, authorized: isApi && authorized });
    if (mode === 'down') {
      res.writeHead(503, { 'content-type': 'text/plain' });
      return void res.end('Service Unavailable');
    }
    const pageMatch = /^\/payment-page\/([^/]+)(?:\/([a-z]+))?$/.exec(url.pathname);
    if (pageMatch) {
      return page(req, res, pageMatch[1] ?? '', pageMatch[2]);
    }
    if (!isApi || req.method !== 'POST') return json(res, 404, errorBody('0.01', 'Not found'));
    if (!authorized) return json(res, 401, errorBody('1.01', 'Authentication failed'));
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
    } catch {
      return json(res, 400, errorBody('2.01', 'Invalid data'));
    }
    if (url.pathname === '/api/v1/init') return init(body, res);
    if (url.pathname === '/api/v1/refund') return refund(body, res);
    if (url.pathname === '/api/v1/status') {
      const order = typeof body.order_id === 'string' ? orders.get(body.order_id) : undefined;
      return order ? json(res, 200, orderJson(order)) : json(res, 404, NOT_FOUND);
    }
    return json(res, 404, errorBody('0.01', 'Not found'));
  };
  // Node ignores the promise a request listener returns: without the catch, a throw in the fake
  // would be an unhandled rejection and leave the request hanging.
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: baseUrl,
    orders,
    refunds,
    requests,
    deliveries,
    setMode(next: 'normal' | 'down') {
      mode = next;
    },
    setWebhookUrl(next: string) {
      webhookUrl = next;
    },
    /** The buyer pays on the hosted page; resolves with the webhook receiver's answer. */
    async pay(orderId: string, { sendWebhook = true }: { sendWebhook?: boolean } = {}) {
      const order = find(orderId);
      if (!settle(order, 'approved') && order.status !== 'approved')
        throw new Error(`order ${orderId} is ${order.status}`);
      return sendWebhook ? deliver(orderId, orderWebhook(order)) : undefined;
    },
    /** The buyer's card is declined ("Insufficient funds"). */
    async decline(orderId: string) {
      const order = find(orderId);
      if (!settle(order, 'declined')) throw new Error(`order ${orderId} is ${order.status}`);
      return deliver(orderId, orderWebhook(order));
    },
    /** The buyer's bank opens a chargeback; sends the signed notification and returns it. */
    async chargeback(orderId: string, { amountCents }: { amountCents?: number } = {}) {
      const order = find(orderId);
      const webhook = signed('chargeback.created', {
        order: { order_id: order.order_id, amount: order.amount, currency: order.currency, status: order.status },
        chargeback: {
          id: id('cb_'),
          status: 'chargeback',
          type: 'first_chargeback',
          amount: amountCents ?? order.amount,
          currency: order.currency,
          reason_code: '10.4',
          reason_description: 'Other Fraud - Card Absent Environment',
          dispute_date: now(),
        },
      });
      return { ...webhook, status: await deliver(orderId, webhook) };
    },
    /** The order's current notification, signed, to replay or tamper with (not sent). */
    orderWebhookBody(orderId: string): FakeSolidgateWebhook {
      return orderWebhook(find(orderId));
    },
    async close() {
      await Promise.allSettled([...pending]);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type FakeSolidgate = Awaited<ReturnType<typeof startFakeSolidgate>>;
