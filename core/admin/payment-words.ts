/** Payment providers and methods in the owner's words, for the console's rows, exports and figures. */
import { PAYMENT_STATUSES, type PaymentStatus } from '../../db/column-values.ts';
import { PAYMENT_METHODS, PROVIDER_LABELS, isPaymentMethodId } from '../payments/methods.ts';
import { PROVIDER_IDS, type ProviderId } from '../payments/provider.ts';

export function isProviderId(value: string): value is ProviderId {
  return (PROVIDER_IDS as readonly string[]).includes(value);
}

/** The provider's name ("Cryptomus"); an id no adapter knows any more is shown as stored. */
export function providerLabel(provider: string): string {
  return isProviderId(provider) ? PROVIDER_LABELS[provider] : provider;
}

/** The method's name ("Crypto"), as buyers see it at checkout. */
export function methodLabel(method: string): string {
  return isPaymentMethodId(method) ? PAYMENT_METHODS[method].label : method;
}

/**
 * An order's payment state in the owner's words, for the dashboard and the timeline; the stored
 * values (`created`, `fail`) are the database's, never shown as they are.
 */
export const PAYMENT_STATUS_WORDS: Readonly<Record<PaymentStatus, string>> = {
  created: 'Awaiting payment',
  paid: 'Paid',
  fail: 'Payment failed',
  expired: 'Abandoned (never paid)',
};

/** A stored payment state in words; a value no version knows is shown as stored. */
export function paymentStatusWords(status: string): string {
  return (PAYMENT_STATUSES as readonly string[]).includes(status)
    ? PAYMENT_STATUS_WORDS[status as PaymentStatus]
    : status;
}
