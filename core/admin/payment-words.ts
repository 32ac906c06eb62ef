/** Payment providers and methods in the owner's words, for the console's rows, exports and figures. */
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
