/**
 * Razorpay over its REST API with a configurable base URL (the official SDK hard-codes its host,
 * which rules out testing against a local fake). Only what the store uses.
 */
import {
  type CheckoutInstructions,
  type PaymentProvider,
  PaymentProviderError,
  type ProviderPayment,
} from './provider.ts';
import { isValidPaymentSignature, isValidWebhookSignature } from './signatures.ts';

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

export function createRazorpayProvider(options: RazorpayOptions): PaymentProvider {
  const doFetch = options.fetch ?? fetch;
  const auth = `Basic ${Buffer.from(`${options.keyId}:${options.keySecret}`).toString('base64')}`;
  const base = options.apiUrl.replace(/\/$/, '');

  async function call<T>(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<T> {
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
    const json = (await response.json().catch(() => null)) as { error?: { description?: string } } | null;
    if (!response.ok) {
      throw new PaymentProviderError(
        json?.error?.description ?? `Razorpay answered ${response.status}`,
        response.status,
      );
    }
    return json as T;
  }

  return {
    name: 'razorpay',
    acceptsWebhooks: !!options.webhookSecret,
    async createOrder({ amountCents, currency, receipt, notes }) {
      const order = await call<{ id: string }>('POST', '/v1/orders', {
        amount: amountCents,
        currency,
        receipt: receipt.slice(0, 40),
        notes,
      });
      if (!order?.id?.startsWith('order_')) throw new PaymentProviderError('Razorpay returned no order id');
      return { providerOrderId: order.id };
    },
    isValidPaymentSignature(providerOrderId, paymentId, signature) {
      return isValidPaymentSignature(options.keySecret, providerOrderId, paymentId, signature);
    },
    isValidWebhookSignature(rawBody, signature) {
      return !!options.webhookSecret && isValidWebhookSignature(options.webhookSecret, rawBody, signature);
    },
    async listOrderPayments(providerOrderId) {
      const reply = await call<{
        items: { id: string; status: ProviderPayment['status']; amount: number; currency: string }[];
      }>('GET', `/v1/orders/${encodeURIComponent(providerOrderId)}/payments`);
      return (reply.items ?? []).map((p) => ({
        id: p.id,
        status: p.status,
        amountCents: p.amount,
        currency: p.currency,
      }));
    },
    async refund({ paymentId, amountCents, idempotencyKey, notes }) {
      const refund = await call<{ id: string }>(
        'POST',
        `/v1/payments/${encodeURIComponent(paymentId)}/refund`,
        { amount: amountCents, notes },
        { 'x-refund-idempotency': idempotencyKey },
      );
      if (!refund?.id) throw new PaymentProviderError('Razorpay returned no refund id');
      return { refundId: refund.id };
    },
    checkoutFor(order): CheckoutInstructions {
      return {
        provider: 'razorpay',
        key: options.keyId,
        order_id: order.providerOrderId,
        amount: order.amountCents,
        currency: order.currency,
        name: options.storeName ?? 'Boostly',
        description: order.description,
        prefill: { email: order.email },
      };
    },
  };
}
