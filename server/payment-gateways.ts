/**
 * The payment providers this installation is configured for (decision 055). Each provider whose
 * keys are set serves its methods; with none set, the keyless sandbox serves every method, as
 * test mode. loadConfig has already refused half-configured providers, and the sandbox next to
 * a real supplier unless SANDBOX_PAYMENTS=allow.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { createCryptomusProvider } from '../core/payments/cryptomus.ts';
import { type PaymentGateways, createPaymentGateways } from '../core/payments/methods.ts';
import type { PaymentProvider } from '../core/payments/provider.ts';
import { createRazorpayProvider } from '../core/payments/razorpay.ts';
import { createSandboxProvider, loadSandboxSecret } from '../core/payments/sandbox.ts';
import { createSolidgateProvider } from '../core/payments/solidgate.ts';
import type { Config } from './config.ts';

export async function paymentGatewaysFrom(config: Config, db: Kysely<Database>): Promise<PaymentGateways> {
  if (config.paymentsSimulated) return createPaymentGateways([createSandboxProvider(db, await loadSandboxSecret(db))]);
  const providers: PaymentProvider[] = [];
  if (config.RAZORPAY_KEY_ID && config.RAZORPAY_KEY_SECRET)
    providers.push(
      createRazorpayProvider({
        keyId: config.RAZORPAY_KEY_ID,
        keySecret: config.RAZORPAY_KEY_SECRET,
        webhookSecret: config.RAZORPAY_WEBHOOK_SECRET,
        apiUrl: config.RAZORPAY_API_URL,
      }),
    );
  if (config.CRYPTOMUS_MERCHANT_ID && config.CRYPTOMUS_PAYMENT_KEY)
    providers.push(
      createCryptomusProvider({
        merchantId: config.CRYPTOMUS_MERCHANT_ID,
        paymentKey: config.CRYPTOMUS_PAYMENT_KEY,
        apiUrl: config.CRYPTOMUS_API_URL,
      }),
    );
  if (config.SOLIDGATE_PUBLIC_KEY && config.SOLIDGATE_SECRET_KEY)
    providers.push(
      createSolidgateProvider({
        publicKey: config.SOLIDGATE_PUBLIC_KEY,
        secretKey: config.SOLIDGATE_SECRET_KEY,
        webhookPublicKey: config.SOLIDGATE_WEBHOOK_PUBLIC_KEY,
        webhookSecretKey: config.SOLIDGATE_WEBHOOK_SECRET_KEY,
        apiUrl: config.SOLIDGATE_API_URL,
        paymentPageUrl: config.SOLIDGATE_PAYMENT_PAGE_URL,
      }),
    );
  return createPaymentGateways(providers);
}
