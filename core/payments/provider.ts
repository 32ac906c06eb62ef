/**
 * One interface for every way of taking money. Each provider (the keyless sandbox, Razorpay,
 * Cryptomus, Solidgate) is one adapter that speaks its vendor's protocol and hands back our own
 * neutral results; `core/orders` acts on those and never reads a vendor's field names.
 *
 * Words used throughout:
 * - a *payment attempt* is one try at paying one order with one method; the provider knows it by
 *   its `reference` (Razorpay's `order_…` id, the order id we gave Cryptomus or Solidgate);
 * - a *payment* is money the provider took for an attempt, known by its `paymentId`.
 */

/** The ways a buyer can pay, as the checkout offers them (core/payments/methods.ts names them). */
export const PAYMENT_METHOD_IDS = ['card', 'card-3ds', 'crypto'] as const;
export type PaymentMethodId = (typeof PAYMENT_METHOD_IDS)[number];

export const PROVIDER_IDS = ['sandbox', 'razorpay', 'cryptomus', 'solidgate'] as const;
export type ProviderId = (typeof PROVIDER_IDS)[number];

/** What a provider says about money for one of our payment attempts, in our own words. */
export type PaymentOutcome =
  /** The money is ours (for crypto: final, at least the invoice's amount). */
  | { kind: 'captured'; reference: string; paymentId: string; amountCents: number; currency: string }
  /** The attempt failed (declined card, cancelled invoice); the buyer may try again. */
  | { kind: 'failed'; reference: string; paymentId?: string | undefined; reason: string }
  /** Money arrived but less than the order's price: never pays the order, the owner is told. */
  | { kind: 'underpaid'; reference: string; paymentId: string; amountCents: number; currency: string }
  /** The provider gave money back (ours or its own decision); informational for the timeline. */
  | { kind: 'refunded'; reference: string; refundId: string; amountCents: number }
  /** A chargeback or dispute was opened against the payment. */
  | {
      kind: 'disputed';
      reference: string;
      disputeId: string;
      amountCents: number;
      currency: string;
      reason: string;
    }
  /** Nothing final yet (an invoice waiting for confirmations, a payment being processed). */
  | { kind: 'pending'; reference: string }
  /** A notification that is not about money for our orders (a test ping, another product). */
  | { kind: 'not_ours' };

/** A webhook, read: refused (bad signature or shape: the route answers 4xx), or one outcome. */
export type WebhookReading =
  | { ok: false; reason: string }
  | {
      ok: true;
      /** The provider's id for this delivery's event: a repeated delivery has the same one. */
      eventId: string;
      outcome: PaymentOutcome;
    };

/** What the browser needs to pay: our in-page window (sandbox, Razorpay) or a hosted page. */
export type CheckoutInstructions =
  | {
      provider: 'sandbox';
      order_id: string;
      amountCents: number;
      currency: string;
      /** The method being simulated, named for the test-mode window ("Crypto"). */
      methodLabel: string;
    }
  | {
      provider: 'razorpay';
      key: string;
      order_id: string;
      amount: number;
      currency: string;
      name: string;
      description: string;
      prefill: { email: string };
    }
  | {
      provider: 'cryptomus' | 'solidgate';
      /** The provider's hosted payment page; it sends the buyer back to our confirmation page. */
      redirectUrl: string;
    };

export interface StartPaymentInput {
  /** Our order's public id: what the provider shows and sends back (unique per attempt). */
  attemptRef: string;
  method: PaymentMethodId;
  amountCents: number;
  currency: string;
  email: string;
  /** The service, sale and fee in words (a payment window shows only the total). */
  description: string;
  /** Where a hosted page sends the buyer back to: the order's confirmation page. */
  returnUrl: string;
  /** Where our server hears about the payment (a provider that takes the URL per payment). */
  webhookUrl: string;
  /**
   * When the store stops waiting for this order's payment (the reconciler expires it then): the
   * provider is asked to refuse payments after it, so a stale price is not paid late.
   */
  expiresAt: Date;
}

export interface StartedPayment {
  /** The provider's name for this attempt; its webhooks and lookups use it. */
  reference: string;
  checkout: CheckoutInstructions;
}

export interface RefundInput {
  /** The attempt the money came from. */
  reference: string;
  paymentId: string;
  amountCents: number;
  /** A retried call with the same key is the same refund, never a second one. */
  idempotencyKey: string;
  /** For a crypto refund: the wallet address the customer gave. */
  address?: string | undefined;
}

export interface PaymentProvider {
  readonly id: ProviderId;
  /** For the owner ("Cryptomus"). */
  readonly label: string;
  /** The methods this provider serves. */
  readonly methods: readonly PaymentMethodId[];
  /**
   * `any`: any amount up to what was paid, more than once. `distinct-amounts`: the same, but the
   * provider takes a second refund of an amount already refunded on the payment as a repeat of
   * the first, so each must differ. `whole-to-address`: only the whole payment, sent to an
   * address the customer gives (crypto).
   */
  readonly refunds: 'any' | 'distinct-amounts' | 'whole-to-address';
  /** Opens a payment attempt with the provider. Throws PaymentProviderError when it cannot. */
  start(input: StartPaymentInput): Promise<StartedPayment>;
  /**
   * For the in-page window (sandbox, Razorpay): checks the window's signed result against the
   * reference from our own record. Hosted-page providers have no such result and return false.
   */
  isValidWindowResult(reference: string, paymentId: string, signature: string): boolean;
  /** Whether webhooks can be verified (the provider's webhook secret is configured). */
  readonly acceptsWebhooks: boolean;
  /** Verifies a webhook's signature over the raw body and turns it into our outcome. */
  readWebhook(rawBody: Buffer, headers: Readonly<Record<string, string | string[] | undefined>>): WebhookReading;
  /**
   * The reconciler's question: what happened to this attempt. An empty list means the buyer
   * never tried to pay it.
   */
  lookUp(reference: string): Promise<PaymentOutcome[]>;
  /** Gives money back through the provider. Throws PaymentProviderError when it cannot. */
  refund(input: RefundInput): Promise<{ refundId: string }>;
}

export class PaymentProviderError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** The first value of a header that may repeat. */
export function headerValue(headers: Readonly<Record<string, string | string[] | undefined>>, name: string): string {
  const value = headers[name.toLowerCase()];
  return (Array.isArray(value) ? value[0] : value) ?? '';
}
