/**
 * The payment-method chooser of the /payment preview (spec "Static mock-ups": a crypto gateway
 * with a 5% discount, two card or wallet gateways with none, a 3D-secure card gateway with a 5%
 * surcharge) and the maths it shows on a sample order. Nothing here takes a payment
 * (docs/decisions/028-mock-up-pages.md). Amounts are integers in ten-thousandths
 * (docs/decisions/003-money.md); a discount or surcharge is rounded half up to whole cents, the unit
 * a gateway charges in, so the lines shown always add up. Browser-safe.
 */
import { type AmountE4, E4_PER_CENT, formatMoney, e4ToNumber, parseAmountE4 } from '../money/money.ts';

export type PaymentMethodId = 'cryptomus' | 'razorpay' | 'paypal' | 'card-3ds';

export interface PaymentMethod {
  id: PaymentMethodId;
  name: string;
  /** What the visitor pays with through this gateway. */
  description: string;
  /** Percent added to the order total; negative is a discount. */
  adjustmentPercent: number;
}

export const PAYMENT_METHODS: readonly PaymentMethod[] = [
  {
    id: 'cryptomus',
    name: 'Cryptomus',
    description: 'Crypto: USDT, Bitcoin, Ethereum and more',
    adjustmentPercent: -5,
  },
  { id: 'razorpay', name: 'Razorpay', description: 'Cards, UPI and wallets', adjustmentPercent: 0 },
  { id: 'paypal', name: 'PayPal', description: 'PayPal balance or a linked card', adjustmentPercent: 0 },
  {
    id: 'card-3ds',
    name: 'Card with 3-D Secure',
    description: 'Visa or Mastercard, confirmed with your bank',
    adjustmentPercent: 5,
  },
];

export const DEFAULT_PAYMENT_METHOD: PaymentMethodId = 'cryptomus';

export function paymentMethodById(id: string | null | undefined): PaymentMethod | undefined {
  return PAYMENT_METHODS.find((method) => method.id === id);
}

/** The sample order the preview prices (a real package of the seed catalogue; nothing is ordered). */
export const SAMPLE_ORDER = {
  serviceName: 'Instagram Followers',
  packageName: '1K Followers',
  plan: 'Standard',
  subtotalE4: parseAmountE4('12.99'),
  currency: 'USD',
} as const;

interface MethodTotal {
  subtotalE4: AmountE4;
  /** Negative for a discount, positive for a surcharge, whole cents. */
  adjustmentE4: AmountE4;
  totalE4: AmountE4;
}

/** The subtotal with the method's discount or surcharge, the adjustment rounded half up to whole cents. */
export function methodTotal(subtotalE4: AmountE4, method: Pick<PaymentMethod, 'adjustmentPercent'>): MethodTotal {
  const exact = Math.abs(subtotalE4 * method.adjustmentPercent) / 100;
  const cents = Math.floor((exact + E4_PER_CENT / 2) / E4_PER_CENT);
  const adjustmentE4 = Math.sign(method.adjustmentPercent) * cents * E4_PER_CENT;
  return { subtotalE4, adjustmentE4, totalE4: subtotalE4 + adjustmentE4 };
}

/** "5% discount", "5% surcharge" or "No discount". */
export function adjustmentLabel(method: Pick<PaymentMethod, 'adjustmentPercent'>): string {
  if (method.adjustmentPercent < 0) return `${-method.adjustmentPercent}% discount`;
  if (method.adjustmentPercent > 0) return `${method.adjustmentPercent}% surcharge`;
  return 'No discount';
}

/** An amount of the sample order's currency as the store writes it ("$12.34"). */
export function formatSampleAmount(amountE4: AmountE4): string {
  return formatMoney(e4ToNumber(amountE4), SAMPLE_ORDER.currency);
}
