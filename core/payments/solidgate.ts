/**
 * Solidgate (cards, Apple Pay, Google Pay) through its hosted payment page, at configurable hosts so
 * it runs against a local fake. Order notifications and the status API share one reply shape
 * (`order.status` and its transactions), so one map turns both into our outcomes.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { type PaymentOutcome, type PaymentProvider, PaymentProviderError, headerValue } from './provider.ts';
import { isValidSolidgateSignature, solidgateSignature } from './solidgate-signature.ts';
import { PROVIDER_REPLY_MAX_BYTES, readCappedJson } from '../outside-reply.ts';

export const SOLIDGATE_API_URL = 'https://pay.solidgate.com';
export const SOLIDGATE_PAYMENT_PAGE_URL = 'https://payment-page.solidgate.com';

export interface SolidgateOptions {
  publicKey: string;
  secretKey: string;
  /** Webhooks are refused unless both are set. */
  webhookPublicKey?: string | undefined;
  webhookSecretKey?: string | undefined;
  /** Empty: the production hosts above. */
  apiUrl: string;
  paymentPageUrl: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/** Solidgate sends messages as a list, or per field when a request is invalid. */
const Messages = z.union([z.array(z.string()), z.record(z.string(), z.union([z.string(), z.array(z.string())]))]);
const ErrorBody = z.object({ code: z.unknown(), messages: Messages.optional() });
const Transaction = z.object({
  id: z.string().min(1),
  operation: z.string().optional(),
  status: z.string().optional(),
  amount: z.number().int().nonnegative().optional(),
  error: ErrorBody.optional(),
});
/** An order notification and the status API's reply. */
const OrderBody = z.object({
  order: z.object({
    order_id: z.string().min(1),
    status: z.string(),
    amount: z.number().int().nonnegative(),
    currency: z.string().min(3),
    refunded_amount: z.number().int().nonnegative().optional(),
  }),
  transaction: Transaction.optional(),
  transactions: z.record(z.string(), Transaction).optional(),
  error: ErrorBody.optional(),
});
const ChargebackBody = z.object({
  order: z.object({ order_id: z.string().min(1) }),
  chargeback: z.object({
    id: z.union([z.string().min(1), z.number()]),
    amount: z.number().int().nonnegative(),
    currency: z.string().min(3),
    reason_code: z.string().optional(),
    reason_description: z.string().optional(),
  }),
});
const ErrorEnvelope = z.object({ error: ErrorBody });
const RefundReply = z.object({ transaction: Transaction.optional(), error: ErrorBody.optional() });
const InitReply = z.object({ url: z.url(), guid: z.string().min(1) });

const hasKey = (json: unknown, key: string) => typeof json === 'object' && json !== null && key in json;

function messagesOf(error: z.infer<typeof ErrorBody> | undefined): string {
  if (!error) return '';
  const list = Array.isArray(error.messages) ? error.messages : Object.values(error.messages ?? {}).flat();
  return list.flatMap((message) => message.trim() || []).join(' ');
}

/**
 * The one status → outcome map, shared by webhooks and lookUp. Null: a status that says nothing
 * about money for us (a webhook reads it as not_ours, lookUp as pending).
 */
export function solidgateOrderOutcome(reply: z.infer<typeof OrderBody>): PaymentOutcome | null {
  const { order } = reply;
  const reference = order.order_id;
  const transactions = [...Object.values(reply.transactions ?? {}), ...(reply.transaction ? [reply.transaction] : [])];
  const payment = transactions.find((t) => t.operation === 'pay' || t.operation === 'auth');
  switch (order.status) {
    case 'approved':
    case 'settle_ok':
      return {
        kind: 'captured',
        reference,
        paymentId: payment?.id ?? reference,
        amountCents: order.amount,
        currency: order.currency.toUpperCase(),
      };
    case 'declined':
    case 'auth_failed': {
      const error = reply.error ?? payment?.error ?? reply.transaction?.error;
      const reason = messagesOf(error) || 'The card payment was declined.';
      return { kind: 'failed', reference, ...(payment ? { paymentId: payment.id } : {}), reason };
    }
    case 'refunded': {
      // refunded_amount is the order's total so far, so the id names that total, not one transaction.
      const refund = transactions.findLast((t) => t.operation === 'refund');
      const total = order.refunded_amount ?? refund?.amount ?? order.amount;
      return { kind: 'refunded', reference, refundId: `${reference}:refunded:${total}`, amountCents: total };
    }
    case 'processing':
    case 'auth_ok':
    case 'created':
      return { kind: 'pending', reference };
    default:
      return null;
  }
}

function chargebackOutcome({ order, chargeback }: z.infer<typeof ChargebackBody>): PaymentOutcome {
  const reason = [chargeback.reason_code, chargeback.reason_description].map((part) => part?.trim()).filter(Boolean);
  return {
    kind: 'disputed',
    reference: order.order_id,
    disputeId: String(chargeback.id),
    amountCents: chargeback.amount,
    currency: chargeback.currency.toUpperCase(),
    reason: reason.join(': ') || 'Chargeback',
  };
}

export function createSolidgateProvider(options: SolidgateOptions): PaymentProvider {
  const doFetch = options.fetch ?? fetch;
  const apiUrl = (options.apiUrl || SOLIDGATE_API_URL).replace(/\/$/, '');
  const pageUrl = (options.paymentPageUrl || SOLIDGATE_PAYMENT_PAGE_URL).replace(/\/$/, '');
  const { webhookPublicKey = '', webhookSecretKey = '' } = options;

  /** One signed POST; a network failure or a reply that is not JSON throws. */
  async function post(url: string, payload: unknown): Promise<{ status: number; json: unknown }> {
    const body = JSON.stringify(payload);
    let response: Response;
    try {
      response = await doFetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          merchant: options.publicKey,
          signature: solidgateSignature(options.publicKey, options.secretKey, body),
        },
        body,
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
    } catch (error) {
      const why = error instanceof Error ? error.name : 'network error';
      throw new PaymentProviderError(`Solidgate is unreachable (${why})`);
    }
    const json: unknown = (await readCappedJson(response, PROVIDER_REPLY_MAX_BYTES).catch(() => null)) ?? undefined;
    if (json === undefined) throw new PaymentProviderError(`Solidgate answered ${response.status}`, response.status);
    return { status: response.status, json };
  }

  /** Solidgate may answer an error envelope even with a 2xx; a declined order's own `error` is not one. */
  function ensureAccepted({ status, json }: { status: number; json: unknown }, what: string): void {
    const envelope = ErrorEnvelope.safeParse(json);
    if (status >= 200 && status < 300 && (!envelope.success || hasKey(json, 'order'))) return;
    const why = (envelope.success && messagesOf(envelope.data.error)) || `Solidgate answered ${status}`;
    throw new PaymentProviderError(`Solidgate refused ${what}: ${why}`, status);
  }

  return {
    id: 'solidgate',
    label: 'Solidgate',
    methods: ['card-3ds'],
    // Solidgate takes a refund of the same order and amount as a repeat of the first.
    refunds: 'distinct-amounts',
    acceptsWebhooks: webhookPublicKey !== '' && webhookSecretKey !== '',

    async start(input) {
      const reply = await post(`${pageUrl}/api/v1/init`, {
        order: {
          order_id: input.attemptRef,
          amount: input.amountCents,
          currency: input.currency.toUpperCase(),
          order_description: input.description,
          customer_email: input.email,
          success_url: input.returnUrl,
          fail_url: input.returnUrl,
        },
      });
      ensureAccepted(reply, 'the payment page');
      const page = InitReply.safeParse(reply.json);
      if (!page.success) throw new PaymentProviderError('Solidgate returned no payment page link');
      return { reference: input.attemptRef, checkout: { provider: 'solidgate', redirectUrl: page.data.url } };
    },

    isValidWindowResult: () => false,

    readWebhook(rawBody, headers) {
      if (!webhookPublicKey || !webhookSecretKey) return { ok: false, reason: 'Solidgate webhooks are not configured' };
      if (headerValue(headers, 'merchant') !== webhookPublicKey) return { ok: false, reason: 'unknown merchant' };
      const signature = headerValue(headers, 'signature');
      if (!isValidSolidgateSignature(webhookPublicKey, webhookSecretKey, rawBody, signature)) {
        return { ok: false, reason: 'bad signature' };
      }
      let json: unknown;
      try {
        json = JSON.parse(rawBody.toString('utf8'));
      } catch {
        return { ok: false, reason: 'body is not JSON' };
      }
      // Solidgate names each event in a header and keeps it across redeliveries; without it, the
      // same delivery repeated has the same bytes, so their digest is as stable.
      const eventId =
        headerValue(headers, 'solidgate-event-id') || `sha256:${createHash('sha256').update(rawBody).digest('hex')}`;
      if (hasKey(json, 'chargeback')) {
        const chargeback = ChargebackBody.safeParse(json);
        if (!chargeback.success) return { ok: false, reason: 'chargeback notification of an unexpected shape' };
        return { ok: true, eventId, outcome: chargebackOutcome(chargeback.data) };
      }
      if (hasKey(json, 'order')) {
        const order = OrderBody.safeParse(json);
        if (!order.success) return { ok: false, reason: 'order notification of an unexpected shape' };
        return { ok: true, eventId, outcome: solidgateOrderOutcome(order.data) ?? { kind: 'not_ours' } };
      }
      return { ok: true, eventId, outcome: { kind: 'not_ours' } };
    },

    async lookUp(reference) {
      const reply = await post(`${apiUrl}/api/v1/status`, { order_id: reference });
      // Solidgate answers an order it never saw with an error envelope saying so (HTTP 404 or an
      // "Order not found" message): the buyer never reached the payment page.
      const envelope = ErrorEnvelope.safeParse(reply.json);
      const notFound =
        reply.status === 404 || (envelope.success && /order not found/i.test(messagesOf(envelope.data.error)));
      if (notFound && !hasKey(reply.json, 'order')) return [];
      ensureAccepted(reply, 'the status lookup');
      const order = OrderBody.safeParse(reply.json);
      if (!order.success) throw new PaymentProviderError('Solidgate sent an order status of an unexpected shape');
      return [solidgateOrderOutcome(order.data) ?? { kind: 'pending', reference }];
    },

    async refund({ reference, amountCents, idempotencyKey }) {
      const reply = await post(`${apiUrl}/api/v1/refund`, { order_id: reference, amount: amountCents });
      ensureAccepted(reply, 'the refund');
      const done = RefundReply.safeParse(reply.json);
      if (done.success && done.data.transaction?.status === 'fail') {
        const why = messagesOf(done.data.transaction.error) || messagesOf(done.data.error) || 'the refund failed';
        throw new PaymentProviderError(`Solidgate refused the refund: ${why}`);
      }
      // Solidgate itself dedupes a repeated refund of the same order and amount; our key names the
      // refund, so a retry returns the same id whatever Solidgate's transaction ids are.
      const digest = createHash('sha256').update(`${reference}\n${idempotencyKey}`).digest('hex').slice(0, 24);
      return { refundId: `${reference}:refund:${digest}` };
    },
  };
}
