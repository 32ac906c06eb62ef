/**
 * Test keys for the hosted-page providers and the settings that point a store at their fakes
 * (tests/fakes/cryptomus.ts, tests/fakes/solidgate.ts): the same names an owner sets.
 */
export const CRYPTOMUS_TEST_KEYS = {
  merchantId: '8b03432e-385b-4670-8d06-064591096795',
  paymentKey: 'cryptomus-payment-key-test',
};

export const SOLIDGATE_TEST_KEYS = {
  publicKey: 'api_pk_boostly_test',
  secretKey: 'api_sk_boostly_test',
  webhookPublicKey: 'wh_pk_boostly_test',
  webhookSecretKey: 'wh_sk_boostly_test',
};

/** Crypto through the Cryptomus fake at `url`. */
export function cryptomusEnv(url: string): Record<string, string> {
  return {
    CRYPTOMUS_MERCHANT_ID: CRYPTOMUS_TEST_KEYS.merchantId,
    CRYPTOMUS_PAYMENT_KEY: CRYPTOMUS_TEST_KEYS.paymentKey,
    CRYPTOMUS_API_URL: url,
  };
}

/** 3-D Secure cards through the Solidgate fake at `url` (its API and its payment page). */
export function solidgateEnv(url: string): Record<string, string> {
  return {
    SOLIDGATE_PUBLIC_KEY: SOLIDGATE_TEST_KEYS.publicKey,
    SOLIDGATE_SECRET_KEY: SOLIDGATE_TEST_KEYS.secretKey,
    SOLIDGATE_WEBHOOK_PUBLIC_KEY: SOLIDGATE_TEST_KEYS.webhookPublicKey,
    SOLIDGATE_WEBHOOK_SECRET_KEY: SOLIDGATE_TEST_KEYS.webhookSecretKey,
    SOLIDGATE_API_URL: url,
    SOLIDGATE_PAYMENT_PAGE_URL: url,
  };
}
