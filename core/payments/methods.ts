/**
 * The payment methods a buyer chooses between, which provider serves each, and the price change
 * each brings (a percentage the owner sets; the spec's payment page: crypto −5%, the 3-D Secure
 * card gateway +5%). The checkout prices an order with exactly the method's amount, on the server.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { type PaymentMethodId, type PaymentProvider, PAYMENT_METHOD_IDS, type ProviderId } from './provider.ts';

export interface PaymentMethodInfo {
  id: PaymentMethodId;
  /** For the buyer, on the checkout's method chooser. */
  label: string;
  detail: string;
  /** The spec's defaults; the owner changes them in the console. */
  defaultAdjustmentPercent: number;
}

export const PAYMENT_METHODS: Readonly<Record<PaymentMethodId, PaymentMethodInfo>> = {
  card: {
    id: 'card',
    label: 'Card',
    detail: 'Cards, UPI, netbanking and wallets',
    defaultAdjustmentPercent: 0,
  },
  'card-3ds': {
    id: 'card-3ds',
    label: 'Card, Apple Pay or Google Pay',
    detail: 'Visa and Mastercard with 3-D Secure',
    defaultAdjustmentPercent: 5,
  },
  crypto: {
    id: 'crypto',
    label: 'Crypto',
    detail: 'Bitcoin, Ethereum, USDT and more',
    defaultAdjustmentPercent: -5,
  },
};

/** The owner may set an adjustment within these bounds (a discount of half is already generous). */
export const ADJUSTMENT_MIN_PERCENT = -50;
export const ADJUSTMENT_MAX_PERCENT = 50;
/** No method charges less than this, whatever its discount: the card providers' minimum charge. */
export const MINIMUM_CHARGE_E4 = 10_000;

export function isPaymentMethodId(value: string): value is PaymentMethodId {
  return (PAYMENT_METHOD_IDS as readonly string[]).includes(value);
}

/** The configured providers, and which one serves each method. */
export interface PaymentGateways {
  readonly providers: readonly PaymentProvider[];
  /** Only the keyless sandbox: every method is simulated and every page says so. */
  readonly testMode: boolean;
  /** The methods a buyer can choose, in the chooser's order. */
  readonly methods: readonly PaymentMethodId[];
  /** What a request without `paymentMethod`, or with `card`, means: the first card method. */
  readonly defaultMethod: PaymentMethodId;
  provider(id: string): PaymentProvider | undefined;
  providerFor(method: PaymentMethodId): PaymentProvider | undefined;
  /** The method a request names (`card` means the default card method), or undefined when not offered. */
  resolve(requested: string | undefined): PaymentMethodId | undefined;
}

/**
 * The gateways of the given providers. Each method is served by the first provider that offers
 * it, in PAYMENT_METHOD_IDS order of the methods. Throws when no provider is given: a store that
 * cannot charge must not take orders.
 */
export function createPaymentGateways(providers: readonly PaymentProvider[]): PaymentGateways {
  const byMethod = new Map<PaymentMethodId, PaymentProvider>();
  for (const method of PAYMENT_METHOD_IDS) {
    const provider = providers.find((p) => p.methods.includes(method));
    if (provider) byMethod.set(method, provider);
  }
  const methods = PAYMENT_METHOD_IDS.filter((m) => byMethod.has(m));
  const defaultMethod = methods.find((m) => m !== 'crypto') ?? methods[0];
  if (!defaultMethod) throw new Error('No payment provider is configured');
  const byId = new Map<string, PaymentProvider>(providers.map((p) => [p.id, p]));
  return {
    providers,
    testMode: providers.every((p) => p.id === 'sandbox'),
    methods,
    defaultMethod,
    provider: (id) => byId.get(id),
    providerFor: (method) => byMethod.get(method),
    resolve(requested) {
      if (requested === undefined || requested === '') return defaultMethod;
      if (requested === 'card') return byMethod.has('card') ? 'card' : methods.find((m) => m === 'card-3ds');
      return isPaymentMethodId(requested) && byMethod.has(requested) ? requested : undefined;
    },
  };
}

const ADJUSTMENT_KEY = (method: PaymentMethodId) => `payments.adjustment.${method}`;

/** The owner's adjustment per method, in percent (the default where none was set). */
export async function loadMethodAdjustments(db: Kysely<Database>): Promise<Record<PaymentMethodId, number>> {
  const rows = await db
    .selectFrom('settings')
    .select(['key', 'value'])
    .where(
      'key',
      'in',
      PAYMENT_METHOD_IDS.map((m) => ADJUSTMENT_KEY(m)),
    )
    .execute();
  const stored = new Map(rows.map((r) => [r.key, Number(r.value)]));
  const result = {} as Record<PaymentMethodId, number>;
  for (const method of PAYMENT_METHOD_IDS) {
    const value = stored.get(ADJUSTMENT_KEY(method));
    result[method] =
      value !== undefined && Number.isFinite(value) ? value : PAYMENT_METHODS[method].defaultAdjustmentPercent;
  }
  return result;
}

/** Sets one method's adjustment (the caller checked the bounds). */
export async function saveMethodAdjustment(
  db: Kysely<Database>,
  method: PaymentMethodId,
  percent: number,
): Promise<void> {
  const value = String(percent);
  await db
    .insertInto('settings')
    .values({ key: ADJUSTMENT_KEY(method), value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}

/**
 * A method's price for a base amount: the adjustment in percent, rounded to whole cents, never
 * below the minimum charge (unless the base itself is lower). Returns the amount and the change.
 */
export function adjustedAmountE4(baseE4: number, percent: number): { amountE4: number; adjustmentE4: number } {
  // Integer arithmetic in hundredths of a percent: 0.1 + 0.2 never reaches a price.
  const basisPoints = Math.round(percent * 100);
  const rawE4 = baseE4 + Math.round((baseE4 * basisPoints) / 10_000);
  let amountE4 = Math.round(rawE4 / 100) * 100;
  if (amountE4 < Math.min(MINIMUM_CHARGE_E4, baseE4)) amountE4 = Math.min(MINIMUM_CHARGE_E4, baseE4);
  return { amountE4, adjustmentE4: amountE4 - baseE4 };
}

/** The provider ids, for the owner's filters and totals. */
export const PROVIDER_LABELS: Readonly<Record<ProviderId, string>> = {
  sandbox: 'Test payments',
  razorpay: 'Razorpay',
  cryptomus: 'Cryptomus',
  solidgate: 'Solidgate',
};
