/**
 * A local stand-in for Cryptomus over real HTTP on 127.0.0.1: its API (`merchant` and `sign`
 * headers checked on every call, invoices, payment info, refunds), the hosted payment page a buyer
 * is sent to, and signed webhooks to each invoice's `url_callback`. Helpers play the customer (pay,
 * pay too little, let it expire) and the network (replay or tamper with a webhook, go down).
 *
 * Refusals have Cryptomus's shapes: 422 `{ state: 1, errors: { field: [...] } }` for invalid fields
 * and 422 `{ state: 1, message: 'Payment was not found' }` for an unknown invoice (payment/info and
 * refund) as its docs show them; 401 `{ state: 1, message: 'Invalid Sign.' }` for a bad `merchant`
 * or `sign`, and 422 `{ state: 1, message: 'The payment has already been refunded' }` for a second
 * refund, in words of our own (Cryptomus does not document them). `down` answers 503.
 */
import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cryptomusSign, phpJsonEncode } from '../../core/payments/cryptomus-signature.ts';

export type FakeCryptomusStatus =
  | 'check'
  | 'confirm_check'
  | 'paid'
  | 'paid_over'
  | 'wrong_amount'
  | 'cancel'
  | 'fail'
  | 'system_fail'
  | 'refund_process'
  | 'refund_fail'
  | 'refund_paid';

export interface FakeCryptomusInvoice {
  uuid: string;
  order_id: string;
  /** As the merchant sent it ("16.00"). */
  amount: string;
  currency: string;
  url_callback: string | null;
  url_return: string | null;
  url_success: string | null;
  lifetime: number;
  is_payment_multiple: boolean;
  status: FakeCryptomusStatus;
  is_final: boolean;
  /** What the buyer sent, in USDT (8 decimals, as Cryptomus writes crypto amounts), and in USD. */
  payment_amount: string | null;
  payment_amount_usd: string | null;
  txid: string | null;
  created_at: string;
  expired_at: number;
}

interface PaySettings {
  status?: FakeCryptomusStatus;
  /** Default: true for the statuses that end an invoice, false for check, confirm_check, refund_process. */
  isFinal?: boolean;
  /** What the buyer sends, in cents (default: the price, a dollar more for paid_over, 10% less for wrong_amount). */
  paidCents?: number;
}

const NOT_FINAL: readonly FakeCryptomusStatus[] = ['check', 'confirm_check', 'refund_process'];

const toCents = (amount: string) => Math.round(Number(amount) * 100);
const usd = (cents: number) => `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
const crypto8 = (cents: number) => `${usd(cents)}000000`;
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function startFakeCryptomus(options: { merchantId: string; paymentKey: string }) {
  /** By order_id: Cryptomus answers a repeated order_id with the invoice it already has. */
  const invoices = new Map<string, FakeCryptomusInvoice>();
  const refunds: { uuid: string; order_id: string; address: string; is_subtract: unknown }[] = [];
  const requests: { method: string; path: string; signatureOk: boolean; body: unknown }[] = [];
  const webhooks: { orderId: string; url: string; body: string; responseStatus?: number; error?: string }[] = [];
  let mode: 'normal' | 'down' = 'normal';
  let baseUrl = '';

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const readBody = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  };
  const find = (key: { uuid?: unknown; order_id?: unknown }, prefer: 'uuid' | 'order_id') => {
    const byUuid = [...invoices.values()].find((i) => i.uuid === key.uuid);
    const byOrderId = typeof key.order_id === 'string' ? invoices.get(key.order_id) : undefined;
    if (key.uuid !== undefined && key.order_id !== undefined) return prefer === 'uuid' ? byUuid : byOrderId;
    return byUuid ?? byOrderId;
  };
  const view = (i: FakeCryptomusInvoice) => ({
    uuid: i.uuid,
    order_id: i.order_id,
    amount: i.amount,
    payment_amount: i.payment_amount,
    payer_amount: crypto8(toCents(i.amount)),
    discount_percent: 0,
    discount: '0.00',
    payer_currency: 'USDT',
    currency: i.currency,
    comments: null,
    merchant_amount: i.payment_amount === null ? null : crypto8(Math.floor(toCents(i.payment_amount) * 0.98)),
    network: 'tron',
    address: 'TXhfYSWt2oKRrHAJVJeYRuit6ZzKuoEKXj',
    from: i.payment_amount === null ? null : 'TDD97yguPESTpcrJMqU6h2ozZbibv4Vaqm',
    txid: i.txid,
    payment_status: i.status,
    url: `${baseUrl}/pay/${i.uuid}`,
    expired_at: i.expired_at,
    status: i.status,
    is_final: i.is_final,
    additional_data: null,
    created_at: i.created_at,
    updated_at: new Date().toISOString(),
  });

  /** The fields an invoice has once the buyer has done what `settings` says. */
  const settled = (invoice: FakeCryptomusInvoice, settings: PaySettings = {}): Partial<FakeCryptomusInvoice> => {
    const status = settings.status ?? 'paid';
    const price = toCents(invoice.amount);
    const defaultPaid = { paid_over: price + 100, wrong_amount: price - Math.max(1, Math.floor(price / 10)) };
    const paidCents =
      settings.paidCents ?? (status in defaultPaid ? defaultPaid[status as keyof typeof defaultPaid] : price);
    const moneyMoved = !['check', 'cancel', 'fail', 'system_fail'].includes(status);
    return {
      status,
      is_final: settings.isFinal ?? !NOT_FINAL.includes(status),
      payment_amount: moneyMoved ? crypto8(paidCents) : null,
      payment_amount_usd: moneyMoved ? usd(paidCents) : null,
      txid: moneyMoved ? (invoice.txid ?? randomUUID().replaceAll('-', '')) : null,
    };
  };

  /** A webhook body as Cryptomus sends it: the payment's fields, then `sign` over them. */
  function webhookBody(
    orderId: string,
    status?: FakeCryptomusStatus,
    extra: { fields?: Record<string, unknown>; escapeUnicode?: boolean } = {},
  ): string {
    const invoice = invoices.get(orderId);
    if (!invoice) throw new Error(`no fake Cryptomus invoice ${orderId}`);
    const i = status ? { ...invoice, ...settled(invoice, { status }) } : invoice;
    const merchantCents = i.payment_amount === null ? 0 : Math.floor(toCents(i.payment_amount) * 0.98);
    const payload: Record<string, unknown> = {
      type: 'payment',
      uuid: i.uuid,
      order_id: i.order_id,
      amount: i.amount,
      payment_amount: i.payment_amount,
      payment_amount_usd: i.payment_amount_usd,
      merchant_amount: i.payment_amount === null ? null : crypto8(merchantCents),
      commission: i.payment_amount === null ? null : crypto8(toCents(i.payment_amount) - merchantCents),
      is_final: i.is_final,
      status: i.status,
      from: i.payment_amount === null ? null : 'TDD97yguPESTpcrJMqU6h2ozZbibv4Vaqm',
      wallet_address_uuid: null,
      network: 'tron',
      currency: i.currency,
      payer_currency: 'USDT',
      additional_data: null,
      txid: i.txid,
      ...extra.fields,
    };
    // Cryptomus's documented check re-encodes with JSON_UNESCAPED_UNICODE, so that is how it signs.
    const encoding = { unescapedUnicode: !extra.escapeUnicode };
    const sign = cryptomusSign(phpJsonEncode(payload, encoding), options.paymentKey);
    return phpJsonEncode({ ...payload, sign }, encoding);
  }

  async function sendWebhook(orderId: string, body = webhookBody(orderId)) {
    const invoice = invoices.get(orderId);
    if (!invoice?.url_callback) throw new Error(`fake Cryptomus invoice ${orderId} has no url_callback`);
    const delivery: (typeof webhooks)[number] = { orderId, url: invoice.url_callback, body };
    webhooks.push(delivery);
    try {
      const response = await fetch(invoice.url_callback, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        signal: AbortSignal.timeout(5_000),
      });
      delivery.responseStatus = response.status;
      await response.arrayBuffer();
    } catch (error) {
      delivery.error = error instanceof Error ? error.message : String(error);
    }
    return delivery;
  }

  /** The buyer pays (or not); Cryptomus then tells the store, unless `sendWebhook` is false. */
  async function pay(orderId: string, settings: PaySettings & { sendWebhook?: boolean } = {}) {
    const invoice = invoices.get(orderId);
    if (!invoice) throw new Error(`no fake Cryptomus invoice ${orderId}`);
    Object.assign(invoice, settled(invoice, settings));
    const delivery = settings.sendWebhook === false ? undefined : await sendWebhook(orderId);
    return { invoice, delivery };
  }

  const hostedPage = (invoice: FakeCryptomusInvoice) => {
    const amount = escapeHtml(`${invoice.amount} ${invoice.currency}`);
    const actions = invoice.is_final
      ? `<p>This invoice is ${escapeHtml(invoice.status)}.</p>`
      : ['pay', 'pay-too-little']
          .map((action) => {
            const label = action === 'pay' ? 'Pay' : 'Pay too little';
            return `<form method="post" action="/pay/${invoice.uuid}/${action}"><button type="submit">${label}</button></form>`;
          })
          .join('');
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Cryptomus: pay ${amount}</title></head><body><main><h1>Pay ${amount}</h1><p>Order ${escapeHtml(invoice.order_id)}</p>${actions}</main></body></html>`;
  };

  const createInvoice = (body: Record<string, unknown>) => {
    const errors: Record<string, string[]> = {};
    const isUrl = (v: unknown) => typeof v === 'string' && v.length >= 6 && v.length <= 255 && URL.canParse(v);
    if (typeof body.amount !== 'string' || !/^\d+(\.\d+)?$/.test(body.amount)) errors.amount = ['validation.numeric'];
    if (typeof body.currency !== 'string' || !body.currency) errors.currency = ['validation.required'];
    if (typeof body.order_id !== 'string' || !/^[A-Za-z0-9_-]{1,128}$/.test(body.order_id))
      errors.order_id = ['validation.alpha_dash'];
    for (const field of ['url_callback', 'url_return', 'url_success'])
      if (body[field] !== undefined && !isUrl(body[field])) errors[field] = ['validation.url'];
    const lifetime = body.lifetime ?? 3600;
    if (typeof lifetime !== 'number' || !Number.isInteger(lifetime) || lifetime < 300 || lifetime > 43_200)
      errors.lifetime = ['validation.between.numeric'];
    if (body.is_payment_multiple !== undefined && typeof body.is_payment_multiple !== 'boolean')
      errors.is_payment_multiple = ['validation.boolean'];
    if (Object.keys(errors).length) return { errors };
    const orderId = body.order_id as string;
    const existing = invoices.get(orderId);
    if (existing) return { invoice: existing };
    const invoice: FakeCryptomusInvoice = {
      uuid: randomUUID(),
      order_id: orderId,
      amount: body.amount as string,
      currency: body.currency as string,
      url_callback: (body.url_callback as string | undefined) ?? null,
      url_return: (body.url_return as string | undefined) ?? null,
      url_success: (body.url_success as string | undefined) ?? null,
      lifetime: lifetime as number,
      is_payment_multiple: (body.is_payment_multiple as boolean | undefined) ?? true,
      status: 'check',
      is_final: false,
      payment_amount: null,
      payment_amount_usd: null,
      txid: null,
      created_at: new Date().toISOString(),
      expired_at: Math.floor(Date.now() / 1000) + (lifetime as number),
    };
    invoices.set(orderId, invoice);
    return { invoice };
  };

  const handleApi = (res: ServerResponse, path: string, body: Record<string, unknown>) => {
    if (path === '/v1/payment') {
      const created = createInvoice(body);
      if (created.errors) return json(res, 422, { state: 1, errors: created.errors });
      return json(res, 200, { state: 0, result: view(created.invoice) });
    }
    if (path !== '/v1/payment/info' && path !== '/v1/payment/refund') {
      return json(res, 404, { state: 1, message: 'Not found' });
    }
    if (body.uuid === undefined && body.order_id === undefined) {
      const required = ['validation.required_without'];
      return json(res, 422, { state: 1, errors: { uuid: required, order_id: required } });
    }
    // payment/info prefers order_id when given both, refund prefers uuid (Cryptomus's docs).
    const invoice = find(body, path === '/v1/payment/info' ? 'order_id' : 'uuid');
    if (path === '/v1/payment/info') {
      return invoice
        ? json(res, 200, { state: 0, result: view(invoice) })
        : json(res, 422, { state: 1, message: 'Payment was not found' });
    }
    const errors: Record<string, string[]> = {};
    if (typeof body.address !== 'string' || !body.address) errors.address = ['validation.required'];
    if (typeof body.is_subtract !== 'boolean') errors.is_subtract = ['validation.boolean'];
    if (Object.keys(errors).length) return json(res, 422, { state: 1, errors });
    if (!invoice) return json(res, 422, { state: 1, message: 'Payment was not found' });
    if (invoice.status === 'refund_process' || invoice.status === 'refund_paid') {
      return json(res, 422, { state: 1, message: 'The payment has already been refunded' });
    }
    if (!['paid', 'paid_over', 'wrong_amount', 'refund_fail'].includes(invoice.status) || !invoice.is_final) {
      return json(res, 422, { state: 1, message: 'The payment is not paid' });
    }
    refunds.push({
      uuid: invoice.uuid,
      order_id: invoice.order_id,
      address: body.address as string,
      is_subtract: body.is_subtract,
    });
    invoice.status = 'refund_paid';
    json(res, 200, { state: 0, result: [] });
    // Cryptomus reports the refund's end by webhook, after it has answered the call.
    if (invoice.url_callback) void sendWebhook(invoice.order_id);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const raw = await readBody(req);
    if (mode === 'down') return json(res, 503, { state: 1, message: 'Service unavailable' });

    const page = /^\/pay\/([0-9a-f-]+)(?:\/(pay|pay-too-little))?$/.exec(url.pathname);
    if (page) {
      const invoice = [...invoices.values()].find((i) => i.uuid === page[1]);
      if (!invoice) return json(res, 404, { state: 1, message: 'Not found' });
      if (req.method === 'GET' && !page[2]) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return void res.end(hostedPage(invoice));
      }
      if (req.method !== 'POST' || !page[2] || invoice.is_final) {
        res.writeHead(409, { 'content-type': 'text/html; charset=utf-8' });
        return void res.end(hostedPage(invoice));
      }
      const status = page[2] === 'pay' ? 'paid' : 'wrong_amount';
      await pay(invoice.order_id, { status, sendWebhook: !!invoice.url_callback });
      const back = (status === 'paid' ? invoice.url_success : null) ?? invoice.url_return;
      res.writeHead(back ? 303 : 200, back ? { location: back } : { 'content-type': 'text/html; charset=utf-8' });
      return void res.end(back ? '' : hostedPage(invoice));
    }

    let body: unknown = null;
    try {
      body = raw ? JSON.parse(raw) : {};
    } catch {
      // Recorded as null; refused below once the signature has been checked.
    }
    const signatureOk =
      req.headers.merchant === options.merchantId && req.headers.sign === cryptomusSign(raw, options.paymentKey);
    requests.push({ method: req.method ?? '', path: url.pathname, signatureOk, body });
    if (!signatureOk) return json(res, 401, { state: 1, message: 'Invalid Sign.' });
    if (req.method !== 'POST') return json(res, 405, { state: 1, message: 'Method not allowed' });
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return json(res, 422, { state: 1, message: 'The body must be a JSON object' });
    }
    return handleApi(res, url.pathname, body as Record<string, unknown>);
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
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;

  return {
    url: baseUrl,
    invoices,
    refunds,
    requests,
    /** Every webhook the fake sent, with the store's answer (or the network error). */
    webhooks,
    setMode(next: 'normal' | 'down') {
      mode = next;
    },
    pay,
    webhookBody,
    sendWebhook,
    /** The hosted page's address for an invoice (what `start` redirects the buyer to). */
    pageUrl(orderId: string) {
      const invoice = invoices.get(orderId);
      if (!invoice) throw new Error(`no fake Cryptomus invoice ${orderId}`);
      return `${baseUrl}/pay/${invoice.uuid}`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type FakeCryptomus = Awaited<ReturnType<typeof startFakeCryptomus>>;
