/**
 * The keyless sandbox: a stand-in for every payment method so a newcomer can buy end to end,
 * shown as test mode wherever it appears.
 * Its checkout window (app) calls `pay` or `fail`; a successful payment hands back the same
 * three fields Razorpay's handler does, signed with Razorpay's rule and the sandbox secret, and
 * the store verifies them exactly as it verifies Razorpay's.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { loadInstallSecret } from '../settings/install-secret.ts';
import { PAYMENT_METHODS } from './methods.ts';
import { PAYMENT_METHOD_IDS, type PaymentOutcome, type PaymentProvider } from './provider.ts';
import { isValidPaymentSignature, paymentSignature } from './signatures.ts';

const SECRET_KEY = 'sandbox.secret';

function randomId(prefix: string): string {
  return `${prefix}_${randomBytes(10).toString('base64url').replace(/[-_]/g, 'x').slice(0, 14)}`;
}

/** The sandbox's signing secret, made once per installation. */
export function loadSandboxSecret(db: Kysely<Database>): Promise<string> {
  return loadInstallSecret(db, SECRET_KEY);
}

export interface SandboxProvider extends PaymentProvider {
  readonly id: 'sandbox';
  /** The buyer pressed Pay in the sandbox window. */
  pay(order: { providerOrderId: string; amountCents: number; currency: string }): Promise<{
    razorpay_order_id: string;
    razorpay_payment_id: string;
    razorpay_signature: string;
  }>;
  /** The buyer pressed Fail (a declined card). */
  fail(order: {
    providerOrderId: string;
    amountCents: number;
    currency: string;
  }): Promise<{ paymentId: string; description: string }>;
}

export function createSandboxProvider(db: Kysely<Database>, secret: string): SandboxProvider {
  return {
    id: 'sandbox',
    label: 'Test payments',
    // Every method, so a newcomer can try each one without keys; the window says it is a test.
    methods: PAYMENT_METHOD_IDS,
    refunds: 'any',
    acceptsWebhooks: false,
    start(input) {
      const reference = randomId('sbx');
      return Promise.resolve({
        reference,
        checkout: {
          provider: 'sandbox',
          order_id: reference,
          amountCents: input.amountCents,
          currency: input.currency,
          methodLabel: PAYMENT_METHODS[input.method].label,
        },
      });
    },
    isValidWindowResult(reference, paymentId, signature) {
      return isValidPaymentSignature(secret, reference, paymentId, signature);
    },
    readWebhook() {
      return { ok: false, reason: 'The sandbox sends no webhooks' };
    },
    async lookUp(reference) {
      const rows = await db
        .selectFrom('sandbox_payments')
        .selectAll()
        .where('provider_order_id', '=', reference)
        .execute();
      return rows.map((row): PaymentOutcome =>
        row.status === 'captured'
          ? { kind: 'captured', reference, paymentId: row.id, amountCents: row.amount_cents, currency: row.currency }
          : { kind: 'failed', reference, paymentId: row.id, reason: row.error_description ?? 'Payment failed' },
      );
    },
    refund({ idempotencyKey }) {
      // The sandbox moves no money; the refund id is derived from the key, so a retry is the same refund.
      return Promise.resolve({
        refundId: `rfnd_sandbox_${createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 14)}`,
      });
    },
    async pay(order) {
      const paymentId = randomId('pay');
      await db
        .insertInto('sandbox_payments')
        .values({
          id: paymentId,
          provider_order_id: order.providerOrderId,
          status: 'captured',
          amount_cents: order.amountCents,
          currency: order.currency,
          error_description: null,
          created_at: new Date().toISOString(),
        })
        .execute();
      return {
        razorpay_order_id: order.providerOrderId,
        razorpay_payment_id: paymentId,
        razorpay_signature: paymentSignature(secret, order.providerOrderId, paymentId),
      };
    },
    async fail(order) {
      const paymentId = randomId('pay');
      const description = 'Your card was declined (sandbox).';
      await db
        .insertInto('sandbox_payments')
        .values({
          id: paymentId,
          provider_order_id: order.providerOrderId,
          status: 'failed',
          amount_cents: order.amountCents,
          currency: order.currency,
          error_description: description,
          created_at: new Date().toISOString(),
        })
        .execute();
      return { paymentId, description };
    },
  };
}
