/**
 * Razorpay over its REST API with a configurable base URL (the official SDK hard-codes its host,
 * which rules out testing against a local fake). Cards, UPI and wallets in Razorpay's own window
 * on our page; its handler's signed result, its webhooks and its order payments become our
 * neutral outcomes here. Only what the store uses.
 */
import { z } from 'zod';
import { safeText } from '../form-fields.ts';
import {
  type PaymentOutcome,
  type PaymentProvider,
  PaymentProviderError,
  type WebhookReading,
  headerValue,
} from './provider.ts';
import { isValidPaymentSignature, isValidWebhookSignature } from './signatures.ts';
import { PROVIDER_REPLY_MAX_BYTES, readCappedJson } from '../outside-reply.ts';

/** Razorpay refuses an `expire_by` less than 15 minutes ahead; a minute's margin covers clock skew. */
export const RAZORPAY_MIN_EXPIRY_MS = 16 * 60 * 1000;

/** The order's `expire_by` (Unix seconds): our unpaid-order lifetime, never closer than Razorpay accepts. */
export function razorpayExpireBy(expiresAt: Date, now: Date): number {
  return Math.ceil(Math.max(expiresAt.getTime(), now.getTime() + RAZORPAY_MIN_EXPIRY_MS) / 1000);
}

interface RazorpayOptions {
  keyId: string;
  keySecret: string;
  /** Unset or empty: webhooks are refused. */
  webhookSecret?: string | undefined;
  apiUrl: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  storeName?: string;
}

const Id = safeText(100).min(1);
const Text = (max: number) => safeText(max, { multiline: true });

/** Razorpay writes absent values as null: read them as absent. */
const optional = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => v ?? undefined);

const PaymentEntity = z.looseObject({
  id: Id,
  order_id: optional(Id),
  amount: optional(z.number().int().nonnegative()),
  currency: optional(Text(8)),
  status: optional(Text(40)),
  error_description: optional(Text(2000)),
});

/** The fields of a signed webhook this adapter reads; anything else passes untouched. */
const WebhookBody = z.looseObject({
  event: Text(100).min(1),
  created_at: optional(z.number()),
  payload: optional(
    z.looseObject({
      payment: optional(z.looseObject({ entity: optional(PaymentEntity) })),
      order: optional(
        z.looseObject({
          entity: optional(
            z.looseObject({
              id: Id,
              amount_paid: optional(z.number().int().nonnegative()),
              currency: optional(Text(8)),
            }),
          ),
        }),
      ),
      refund: optional(
        z.looseObject({
          entity: optional(z.looseObject({ id: Id, payment_id: optional(Id), amount: z.number().int().nonnegative() })),
        }),
      ),
      dispute: optional(
        z.looseObject({
          entity: optional(
            z.looseObject({
              id: Id,
              amount: z.number().int().nonnegative(),
              currency: Text(8),
              reason_code: optional(Text(200)),
            }),
          ),
        }),
      ),
    }),
  ),
});

const PaymentList = z.looseObject({ items: z.array(PaymentEntity).optional() });

type Payment = z.infer<typeof PaymentEntity>;

/** One Razorpay payment in our words. */
function outcomeOf(reference: string, payment: Payment): PaymentOutcome {
  switch (payment.status) {
    case 'captured':
      return {
        kind: 'captured',
        reference,
        paymentId: payment.id,
        amountCents: payment.amount ?? -1,
        currency: payment.currency ?? '',
      };
    case 'failed':
      return {
        kind: 'failed',
        reference,
        paymentId: payment.id,
        reason: payment.error_description ?? 'Payment failed',
      };
    case 'refunded':
      return { kind: 'refunded', reference, refundId: `${payment.id}:refunded`, amountCents: payment.amount ?? 0 };
    default:
      // created, authorized: money not taken yet (captured automatically, or released).
      return { kind: 'pending', reference };
  }
}

export function createRazorpayProvider(options: RazorpayOptions): PaymentProvider {
  const doFetch = options.fetch ?? fetch;
  const auth = `Basic ${Buffer.from(`${options.keyId}:${options.keySecret}`).toString('base64')}`;
  const base = options.apiUrl.replace(/\/$/, '');

  async function call(method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = {}) {
    let response: Response;
    try {
      response = await doFetch(`${base}${path}`, {
        method,
        headers: { authorization: auth, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
        ...(body ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
    } catch (error) {
      throw new PaymentProviderError(
        `Razorpay is unreachable: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    const json: unknown = await readCappedJson(response, PROVIDER_REPLY_MAX_BYTES).catch(() => null);
    if (!response.ok) {
      const description = z.object({ error: z.object({ description: z.string() }) }).safeParse(json);
      throw new PaymentProviderError(
        description.success ? description.data.error.description : `Razorpay answered ${response.status}`,
        response.status,
      );
    }
    return json;
  }

  function readWebhook(rawBody: Buffer, headers: Parameters<PaymentProvider['readWebhook']>[1]): WebhookReading {
    const signature = headerValue(headers, 'x-razorpay-signature');
    if (!options.webhookSecret || !isValidWebhookSignature(options.webhookSecret, rawBody, signature))
      return { ok: false, reason: 'Invalid webhook signature' };
    let json: unknown;
    try {
      json = JSON.parse(rawBody.toString('utf8'));
    } catch {
      return { ok: false, reason: 'Invalid JSON' };
    }
    // Signed by Razorpay is not the same as shaped as we expect (a new event version, a test ping).
    const parsed = WebhookBody.safeParse(json);
    if (!parsed.success) return { ok: false, reason: 'Unexpected webhook payload' };
    const event = parsed.data;
    const payment = event.payload?.payment?.entity;
    const eventId =
      headerValue(headers, 'x-razorpay-event-id') || `${event.event}:${payment?.id ?? String(event.created_at)}`;
    const reference = payment?.order_id;
    if (!payment || !reference) return { ok: true, eventId, outcome: { kind: 'not_ours' } };
    if (event.event === 'order.paid' || event.event === 'payment.captured') {
      // A payment.captured whose entity says otherwise is not money taken.
      if (event.event === 'payment.captured' && payment.status && payment.status !== 'captured')
        return { ok: true, eventId, outcome: { kind: 'pending', reference } };
      return { ok: true, eventId, outcome: outcomeOf(reference, { ...payment, status: 'captured' }) };
    }
    if (event.event === 'payment.failed') return { ok: true, eventId, outcome: outcomeOf(reference, payment) };
    const refund = event.payload?.refund?.entity;
    if (event.event === 'refund.processed' && refund)
      return {
        ok: true,
        eventId,
        outcome: { kind: 'refunded', reference, refundId: refund.id, amountCents: refund.amount },
      };
    const dispute = event.payload?.dispute?.entity;
    if (event.event === 'payment.dispute.created' && dispute)
      return {
        ok: true,
        eventId,
        outcome: {
          kind: 'disputed',
          reference,
          disputeId: dispute.id,
          amountCents: dispute.amount,
          currency: dispute.currency,
          reason: dispute.reason_code ?? 'Chargeback',
        },
      };
    return { ok: true, eventId, outcome: { kind: 'not_ours' } };
  }

  return {
    id: 'razorpay',
    label: 'Razorpay',
    methods: ['card'],
    refunds: 'any',
    acceptsWebhooks: !!options.webhookSecret,
    async start(input) {
      const order = z.object({ id: z.string().startsWith('order_') }).safeParse(
        await call('POST', '/v1/orders', {
          amount: input.amountCents,
          currency: input.currency,
          receipt: input.attemptRef.slice(0, 40),
          notes: { order: input.attemptRef, email: input.email },
          expire_by: razorpayExpireBy(input.expiresAt, new Date()),
        }),
      );
      if (!order.success) throw new PaymentProviderError('Razorpay returned no order id');
      return {
        reference: order.data.id,
        checkout: {
          provider: 'razorpay',
          key: options.keyId,
          order_id: order.data.id,
          amount: input.amountCents,
          currency: input.currency,
          name: options.storeName ?? 'Boostly',
          description: input.description,
          prefill: { email: input.email },
        },
      };
    },
    isValidWindowResult(reference, paymentId, signature) {
      return isValidPaymentSignature(options.keySecret, reference, paymentId, signature);
    },
    readWebhook,
    async lookUp(reference) {
      const reply = PaymentList.safeParse(await call('GET', `/v1/orders/${encodeURIComponent(reference)}/payments`));
      if (!reply.success) throw new PaymentProviderError('Razorpay answered with an unexpected payment list');
      return (reply.data.items ?? []).map((payment) => outcomeOf(reference, payment));
    },
    async refund({ reference, paymentId, amountCents, idempotencyKey }) {
      const refund = z
        .object({ id: z.string().min(1) })
        .safeParse(
          await call(
            'POST',
            `/v1/payments/${encodeURIComponent(paymentId)}/refund`,
            { amount: amountCents, notes: { order: reference } },
            { 'x-refund-idempotency': idempotencyKey },
          ),
        );
      if (!refund.success) throw new PaymentProviderError('Razorpay returned no refund id');
      return { refundId: refund.data.id };
    },
  };
}
