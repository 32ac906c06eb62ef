/**
 * Webhooks signed correctly but shaped by an attacker, or by a provider's next API version: for
 * each provider, bodies generated with fast-check (arbitrary JSON, and real-looking notifications
 * with fields swapped for arbitrary values, huge numbers, nulls, control characters) are signed
 * exactly as the provider signs and posted to its webhook. The store must answer 200 or 400,
 * never a 5xx, on each dialect; a signature alone earns no crash. The generic OpenAPI fuzzer
 * (fuzz.test.ts) covers unsigned requests to the same route.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cryptomusSign, phpJsonEncode } from '../../core/payments/cryptomus-signature.ts';
import { hmacSha256Hex } from '../../core/payments/signatures.ts';
import { solidgateSignature } from '../../core/payments/solidgate-signature.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';

const RAZORPAY_WEBHOOK_SECRET = 'fuzz-razorpay-webhook-secret';
const CRYPTOMUS_KEY = 'fuzz-cryptomus-payment-key';
const SOLIDGATE = { publicKey: 'wh_pk_fuzz', secretKey: 'wh_sk_fuzz' };
/** Nothing listens here: a webhook must not need the provider's API. */
const NOWHERE = 'http://127.0.0.1:9';

/** Values a notification's field might be swapped for. */
const oddValue = fc.oneof(
  fc.jsonValue(),
  fc.constantFrom(null, '', '0', '-1', '1e309', 'NaN', '16.005', '99999999999999999999.99', 2 ** 53, -(2 ** 31) - 1),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

/** A real-looking notification with some of its fields replaced. */
function mutated(base: Record<string, unknown>) {
  const keys = Object.keys(base);
  return fc.array(fc.tuple(fc.constantFrom(...keys, 'extra'), oddValue), { maxLength: 4 }).map((changes) => {
    const body: Record<string, unknown> = structuredClone(base);
    for (const [key, value] of changes) body[key] = value;
    return body;
  });
}

const razorpayBase = {
  entity: 'event',
  event: 'payment.captured',
  payload: {
    payment: { entity: { id: 'pay_fuzz', order_id: 'order_fuzz', amount: 299, currency: 'USD', status: 'captured' } },
  },
  created_at: 1_700_000_000,
};
const cryptomusBase = {
  type: 'payment',
  uuid: '6f0d3c8e-1b1e-4d5c-9f3a-1c2b3d4e5f60',
  order_id: 'FuzzOrder12345',
  amount: '2.99',
  payment_amount: '2.99000000',
  payment_amount_usd: '2.99',
  is_final: true,
  status: 'paid',
  currency: 'USD',
  network: 'tron',
  txid: 'abc',
};
const solidgateBase = {
  order: { order_id: 'FuzzOrder12345', status: 'approved', amount: 299, currency: 'USD' },
  transaction: { id: 'tr_fuzz', operation: 'pay', status: 'success', amount: 299 },
};

interface Delivery {
  provider: 'razorpay' | 'cryptomus' | 'solidgate';
  body: string;
  headers: Record<string, string>;
}

function razorpayDelivery(value: unknown): Delivery {
  const body = JSON.stringify(value);
  return {
    provider: 'razorpay',
    body,
    headers: {
      'content-type': 'application/json',
      'x-razorpay-signature': hmacSha256Hex(RAZORPAY_WEBHOOK_SECRET, body),
    },
  };
}
function cryptomusDelivery(value: unknown): Delivery {
  const payload = value !== null && typeof value === 'object' && !Array.isArray(value) ? { ...value } : { value };
  delete (payload as { sign?: unknown }).sign;
  const sign = cryptomusSign(phpJsonEncode(payload), CRYPTOMUS_KEY);
  return {
    provider: 'cryptomus',
    body: phpJsonEncode({ ...payload, sign }),
    headers: { 'content-type': 'application/json' },
  };
}
function solidgateDelivery(value: unknown): Delivery {
  const body = JSON.stringify(value);
  return {
    provider: 'solidgate',
    body,
    headers: {
      'content-type': 'application/json',
      merchant: SOLIDGATE.publicKey,
      signature: solidgateSignature(SOLIDGATE.publicKey, SOLIDGATE.secretKey, body),
    },
  };
}

describe.each(dialects)('signed webhooks of any shape on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, {
      env: {
        RAZORPAY_KEY_ID: 'rzp_fuzz',
        RAZORPAY_KEY_SECRET: 'rzp_fuzz_secret',
        RAZORPAY_WEBHOOK_SECRET,
        RAZORPAY_API_URL: NOWHERE,
        CRYPTOMUS_MERCHANT_ID: 'fuzz-merchant',
        CRYPTOMUS_PAYMENT_KEY: CRYPTOMUS_KEY,
        CRYPTOMUS_API_URL: NOWHERE,
        SOLIDGATE_PUBLIC_KEY: 'api_pk_fuzz',
        SOLIDGATE_SECRET_KEY: 'api_sk_fuzz',
        SOLIDGATE_WEBHOOK_PUBLIC_KEY: SOLIDGATE.publicKey,
        SOLIDGATE_WEBHOOK_SECRET_KEY: SOLIDGATE.secretKey,
        SOLIDGATE_API_URL: NOWHERE,
        SOLIDGATE_PAYMENT_PAGE_URL: NOWHERE,
      },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 200 or 400 to every signed body, never a 5xx', { timeout: 120_000 }, async () => {
    const statuses = new Map<number, number>();
    const delivery = fc.oneof(
      fc.jsonValue().map(razorpayDelivery),
      mutated(razorpayBase).map(razorpayDelivery),
      fc.jsonValue().map(cryptomusDelivery),
      mutated(cryptomusBase).map(cryptomusDelivery),
      fc.jsonValue().map(solidgateDelivery),
      mutated(solidgateBase).map(solidgateDelivery),
      mutated({ order: solidgateBase.order, chargeback: { id: 'cb_1', amount: 299, currency: 'USD' } }).map(
        solidgateDelivery,
      ),
    );
    await fc.assert(
      fc.asyncProperty(delivery, async ({ provider, body, headers }) => {
        const response = await t.app.inject({
          method: 'POST',
          url: `/api/payments/${provider}/webhook`,
          payload: body,
          headers,
        });
        statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
        expect([200, 400], `${provider} ${body.slice(0, 300)} → ${response.body}`).toContain(response.statusCode);
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 300) },
    );
    // Both answers were reached: the generator is not stuck on one side of the checks.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(0);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(0);
  });
});
