/** Cryptomus (crypto invoices on a hosted page) over its REST API at a configurable base URL, so
 * tests can point it at a local fake. Facts: integrations.md, "Cryptomus". */
import { z } from 'zod';
import { cryptomusSign, isValidCryptomusWebhook, phpJsonEncode } from './cryptomus-signature.ts';
import { type PaymentOutcome, type PaymentProvider, PaymentProviderError, type WebhookReading } from './provider.ts';
import { PROVIDER_REPLY_MAX_BYTES, readCappedJson } from '../outside-reply.ts';

export interface CryptomusOptions {
  /** The merchant's uuid, sent as the `merchant` header. */
  merchantId: string;
  /** The payment API key: signs our requests and Cryptomus's webhooks. */
  paymentKey: string;
  /** `https://api.cryptomus.com` in production. */
  apiUrl: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/** 12 hours, the longest Cryptomus accepts (300–43,200 s; a day is refused): a buyer new to crypto
 * may first have to buy coins, and an invoice that expires meanwhile costs a second attempt.
 * Cryptomus fixes the crypto amount, so the longer life is no exchange-rate risk for us. */
export const CRYPTOMUS_INVOICE_LIFETIME_SECONDS = 43_200;
/** The shortest invoice lifetime Cryptomus accepts. */
const CRYPTOMUS_MIN_LIFETIME_SECONDS = 300;

/** The invoice ends no later than the order (and within the bounds Cryptomus accepts). */
export function cryptomusLifetimeSeconds(expiresAt: Date, now: Date): number {
  const left = Math.floor((expiresAt.getTime() - now.getTime()) / 1000);
  return Math.min(CRYPTOMUS_INVOICE_LIFETIME_SECONDS, Math.max(CRYPTOMUS_MIN_LIFETIME_SECONDS, left));
}

const STATUSES = [
  ...(['check', 'process', 'confirm_check', 'wrong_amount_waiting', 'locked', 'paid', 'paid_over'] as const),
  ...(['wrong_amount', 'cancel', 'fail', 'system_fail', 'refund_process', 'refund_fail', 'refund_paid'] as const),
];

/** What webhooks and payment/info replies share; the rest (network, txid, …) is not ours to read. */
const InvoiceFields = {
  uuid: z.string().min(1),
  order_id: z.string().min(1),
  amount: z.string(),
  payment_amount: z.string().nullish(),
  currency: z.string().min(1),
  is_final: z.boolean(),
};
const WebhookSchema = z.object({
  ...InvoiceFields,
  type: z.literal('payment'),
  status: z.enum(STATUSES),
  payment_amount_usd: z.string().nullish(),
});
const InvoiceSchema = z.object({
  ...InvoiceFields,
  url: z.url({ protocol: /^https?$/ }),
  payment_status: z.enum(STATUSES),
});
type Invoice = z.infer<typeof InvoiceSchema>;
/** What names a delivery, read before knowing whether it is about a payment at all. */
const EventKeySchema = z.object({ type: z.string(), uuid: z.string(), status: z.string(), is_final: z.unknown() });
type InvoiceFacts = Omit<z.infer<typeof WebhookSchema>, 'type'>;

/** Every reply: `state` 0 with a `result`, or a refusal with a `message` or per-field `errors`. */
const ReplySchema = z.object({
  state: z.number(),
  result: z.unknown().optional(),
  message: z.string().optional(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});

/**
 * A decimal amount ("16.00", "15.5", "3.00000000") in integer cents, read from its digits so no
 * float rounding creeps in; anything else is undefined. Digits past the cent are cut, not rounded:
 * an underpayment is then never shown as more than what arrived.
 */
export function cryptomusAmountToCents(text: string): number | undefined {
  const match = /^(\d{1,13})(?:\.(\d{1,18}))?$/.exec(text);
  if (!match) return undefined;
  const [, whole = '', fraction = ''] = match;
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2));
}

/** One status to one outcome, for webhooks and lookups alike; undefined when an amount is garbage. */
function outcomeOf(facts: InvoiceFacts): PaymentOutcome | undefined {
  const reference = facts.order_id;
  const paymentId = facts.uuid;
  switch (facts.status) {
    case 'paid':
    case 'paid_over': {
      // Money counts only once Cryptomus finalises the invoice (enough confirmations).
      if (!facts.is_final) return { kind: 'pending', reference };
      const amountCents = cryptomusAmountToCents(facts.amount);
      return amountCents === undefined
        ? undefined
        : { kind: 'captured', reference, paymentId, amountCents, currency: facts.currency };
    }
    case 'wrong_amount': {
      const usd = facts.payment_amount_usd ?? undefined;
      const amountCents = cryptomusAmountToCents(usd ?? facts.payment_amount ?? '');
      const currency = usd === undefined ? facts.currency : 'USD';
      return amountCents === undefined ? undefined : { kind: 'underpaid', reference, paymentId, amountCents, currency };
    }
    case 'cancel':
      return { kind: 'failed', reference, paymentId, reason: 'The crypto invoice expired unpaid.' };
    case 'fail':
      return { kind: 'failed', reference, paymentId, reason: 'The crypto payment failed.' };
    case 'system_fail':
      return { kind: 'failed', reference, paymentId, reason: 'Cryptomus could not process the crypto payment.' };
    case 'refund_paid': {
      const amountCents = cryptomusAmountToCents(facts.payment_amount_usd ?? facts.amount);
      const refundId = `cryptomus-refund-${paymentId}`;
      return amountCents === undefined ? undefined : { kind: 'refunded', reference, refundId, amountCents };
    }
    // Nothing final yet, or nothing our outcomes name: a refund that failed leaves the money with
    // us, as it was before the refund was asked for.
    default:
      return { kind: 'pending', reference };
  }
}

function jsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

type Reply = { refused: false; result: unknown } | { refused: true; status: number; message: string };

export function createCryptomusProvider(options: CryptomusOptions): PaymentProvider {
  const doFetch = options.fetch ?? fetch;
  const apiUrl = options.apiUrl.replace(/\/$/, '');

  async function call(path: string, body: Record<string, unknown>): Promise<Reply> {
    // PHP's spelling (`\/`) is still valid JSON, and it is the one body whose signature holds
    // whether Cryptomus checks the bytes as sent or its own re-encoding of them.
    const text = phpJsonEncode(body);
    const sign = cryptomusSign(text, options.paymentKey);
    let response: Response;
    try {
      response = await doFetch(`${apiUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', merchant: options.merchantId, sign },
        body: text,
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw new PaymentProviderError(`Cryptomus is unreachable: ${why}`);
    }
    const json: unknown = await readCappedJson(response, PROVIDER_REPLY_MAX_BYTES).catch(() => null);
    const reply = ReplySchema.safeParse(json);
    if (response.status >= 500 || !reply.success) {
      throw new PaymentProviderError(`Cryptomus answered ${response.status} without a usable reply`, response.status);
    }
    const { state, result, message: said, errors = {} } = reply.data;
    if (response.ok && state === 0) return { refused: false, result };
    const fieldErrors = Object.entries(errors).map(([field, why]) => `${field}: ${why.join(', ')}`);
    const message = (said ?? fieldErrors.join('; ')) || `HTTP ${response.status}`;
    return { refused: true, status: response.status, message: message.slice(0, 200) };
  }

  function invoiceFrom(reply: Reply): Invoice {
    if (reply.refused) throw new PaymentProviderError(`Cryptomus refused: ${reply.message}`, reply.status);
    const invoice = InvoiceSchema.safeParse(reply.result);
    if (!invoice.success) throw new PaymentProviderError('Cryptomus sent an invoice of an unexpected shape');
    return invoice.data;
  }

  async function invoiceInfo(reference: string): Promise<Invoice | undefined> {
    const reply = await call('/v1/payment/info', { order_id: reference });
    // Only Cryptomus's own words for an unknown invoice mean "never attempted": a bare 404 or
    // "Merchant not found" is a misconfiguration, which must not read as an unpaid order.
    if (reply.refused && /\b(payment|invoice)\b.*\bnot found\b/i.test(reply.message)) return undefined;
    return invoiceFrom(reply);
  }

  return {
    id: 'cryptomus',
    label: 'Cryptomus',
    methods: ['crypto'],
    refunds: 'whole-to-address',
    // The payment key that signs our requests also signs Cryptomus's webhooks.
    acceptsWebhooks: true,

    async start(input) {
      if (!Number.isSafeInteger(input.amountCents) || input.amountCents <= 0) {
        throw new PaymentProviderError('A crypto invoice needs a positive amount in whole cents');
      }
      const created = await call('/v1/payment', {
        amount: `${Math.trunc(input.amountCents / 100)}.${String(input.amountCents % 100).padStart(2, '0')}`,
        currency: input.currency,
        order_id: input.attemptRef,
        url_callback: input.webhookUrl,
        url_return: input.returnUrl,
        url_success: input.returnUrl,
        lifetime: cryptomusLifetimeSeconds(input.expiresAt, new Date()),
        // One transfer settles the invoice: a short payment ends it as wrong_amount (the owner is
        // told) instead of leaving it open for top-ups the store never asks for.
        is_payment_multiple: false,
      });
      const invoice = invoiceFrom(created);
      if (invoice.order_id !== input.attemptRef) throw new PaymentProviderError('Cryptomus answered for another order');
      // Our order_id is the reference: every webhook and payment/info reply carries it.
      return { reference: input.attemptRef, checkout: { provider: 'cryptomus', redirectUrl: invoice.url } };
    },

    isValidWindowResult() {
      return false;
    },

    readWebhook(rawBody): WebhookReading {
      const body = jsonObject(rawBody.toString('utf8'));
      if (!body) return { ok: false, reason: 'The body is not a JSON object' };
      if (!isValidCryptomusWebhook(body, options.paymentKey)) return { ok: false, reason: 'Bad signature' };
      const event = EventKeySchema.safeParse(body);
      if (!event.success) return { ok: false, reason: 'Unexpected webhook shape' };
      const { type, uuid, status, is_final: isFinal } = event.data;
      // Cryptomus repeats deliveries: uuid + status names the event. A paid status is sent again
      // once final, which must not be mistaken for a repeat of the pending one.
      const eventId = `${uuid}:${status}${isFinal === false ? ':not-final' : ''}`;
      if (type !== 'payment') return { ok: true, eventId, outcome: { kind: 'not_ours' } };
      const webhook = WebhookSchema.safeParse(body);
      const outcome = webhook.success ? outcomeOf(webhook.data) : undefined;
      return outcome ? { ok: true, eventId, outcome } : { ok: false, reason: 'Unexpected webhook shape or amount' };
    },

    async lookUp(reference) {
      const invoice = await invoiceInfo(reference);
      if (!invoice) return [];
      const outcome = outcomeOf({ ...invoice, status: invoice.payment_status });
      if (!outcome) throw new PaymentProviderError('Cryptomus sent an amount we cannot read');
      return [outcome];
    },

    async refund({ reference, paymentId, address }) {
      if (!address) throw new PaymentProviderError("A crypto refund needs the customer's wallet address");
      // The same id as the refund_paid webhook's outcome, so both name one refund.
      const refundId = `cryptomus-refund-${paymentId || reference}`;
      const reply = await call('/v1/payment/refund', {
        order_id: reference,
        address,
        // true: Cryptomus takes its commission from our balance, so the customer gets back what
        // they paid (false would cut the commission out of the refund).
        is_subtract: true,
      });
      if (!reply.refused) return { refundId };
      // Cryptomus refunds an invoice once and refuses a repeat, in words it does not document: a
      // retry of ours is known by the invoice's refund status instead, and is the same refund.
      const status = (await invoiceInfo(reference))?.payment_status;
      if (status === 'refund_process' || status === 'refund_paid') return { refundId };
      throw new PaymentProviderError(`Cryptomus refused the refund: ${reply.message}`, reply.status);
    },
  };
}
