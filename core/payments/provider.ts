/**
 * One interface for every way of taking a card payment. `sandbox` (no keys: our own checkout
 * window) and `razorpay` implement it; orders and payments code never asks which one it has.
 */

export interface ProviderPayment {
  id: string;
  /** Razorpay's payment states; `captured` means the money is ours. */
  status: 'created' | 'authorized' | 'captured' | 'refunded' | 'failed';
  amountCents: number;
  currency: string;
}

/** What the browser needs to open the payment window. */
export type CheckoutInstructions =
  | { provider: 'sandbox'; order_id: string; amountCents: number; currency: string }
  | {
      provider: 'razorpay';
      key: string;
      order_id: string;
      amount: number;
      currency: string;
      name: string;
      description: string;
      prefill: { email: string };
    };

export interface PaymentProvider {
  readonly name: 'sandbox' | 'razorpay';
  createOrder(input: {
    amountCents: number;
    currency: string;
    receipt: string;
    notes: Record<string, string>;
  }): Promise<{
    providerOrderId: string;
  }>;
  /** Checks the checkout handler's signature against the provider order id from our own record. */
  isValidPaymentSignature(providerOrderId: string, paymentId: string, signature: string): boolean;
  /** Whether webhooks can be verified (a webhook secret is configured). */
  readonly acceptsWebhooks: boolean;
  isValidWebhookSignature(rawBody: Buffer, signature: string): boolean;
  /** The payments made against one provider order (the reconciler's question). */
  listOrderPayments(providerOrderId: string): Promise<ProviderPayment[]>;
  /**
   * Refunds part or all of a captured payment. The idempotency key makes a retried call return
   * the first refund instead of refunding twice.
   */
  refund(input: {
    paymentId: string;
    amountCents: number;
    idempotencyKey: string;
    notes?: Record<string, string>;
  }): Promise<{ refundId: string }>;
  checkoutFor(order: {
    providerOrderId: string;
    amountCents: number;
    currency: string;
    email: string;
    description: string;
  }): CheckoutInstructions;
}

export class PaymentProviderError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}
