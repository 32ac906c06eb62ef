/**
 * Price rules of spec section 9, on exact integer amounts (see core/money).
 */
import { type AmountE4, E4_PER_UNIT, formatAmountE4, numberToE4 } from '../money/money.ts';

interface PriceDisplay {
  /** The price with four decimals and the plan's currency, e.g. "$2.9900". */
  price: string;
  /** price / (1 − discount/100), two decimals, e.g. "$4.98"; null when there is no discount. */
  original: string | null;
  /** original − price, two decimals; null when there is no discount. */
  youSave: string | null;
  /** "40% off", shown only when the discount is above 0; "Sale: 20% off" during a sale. */
  badge: string | null;
  /** What `original` is (shown beside it): the price before the sale, or the bulk reference. */
  originalLabel: string | null;
}

/** Caption of a bulk discount's reference price (decision 031). */
export const BULK_REFERENCE_LABEL = "At the smallest package's price per unit";
export const SALE_REFERENCE_LABEL = 'Price before the sale';

/** Home page price block: "$" and two decimals. */
export function formatHomePrice(price: number): string {
  return `$${formatAmountE4(numberToE4(price), 2)}`;
}

/** Original price before the discount, rounded half up to whole cents. */
export function originalPriceE4(price: AmountE4, discountPercent: number): AmountE4 {
  if (discountPercent <= 0) return price;
  if (discountPercent >= 100) throw new RangeError('A discount must be below 100%');
  // price / (1 - d/100) = price * 100 / (100 - d); round to cents (100 e4) half up.
  const exact = (price * 100) / (100 - discountPercent);
  return Math.floor(exact / 100 + 0.5) * 100;
}

/**
 * A tier's price block. During a sale (`listPrice` given) the struck-through price is the real
 * list price; otherwise the spec's formula from the bulk discount.
 */
export function describePrice(
  price: number,
  discountPercent: number,
  currency: string,
  listPrice?: number,
): PriceDisplay {
  const priceE4 = numberToE4(price);
  const display: PriceDisplay = {
    price: `${currency}${formatAmountE4(priceE4, 4)}`,
    original: null,
    youSave: null,
    badge: null,
    originalLabel: null,
  };
  if (listPrice !== undefined && numberToE4(listPrice) > priceE4) {
    const listE4 = numberToE4(listPrice);
    display.original = `${currency}${formatAmountE4(listE4, 2)}`;
    display.youSave = `${currency}${formatAmountE4(listE4 - priceE4, 2)}`;
    display.badge = `Sale: ${Math.floor(((listE4 - priceE4) * 100) / listE4)}% off`;
    display.originalLabel = SALE_REFERENCE_LABEL;
    return display;
  }
  if (discountPercent > 0) {
    display.originalLabel = BULK_REFERENCE_LABEL;
    const original = originalPriceE4(priceE4, discountPercent);
    display.original = `${currency}${formatAmountE4(original, 2)}`;
    display.youSave = `${currency}${formatAmountE4(original - priceE4, 2)}`;
    display.badge = `${discountPercent}% off`;
  }
  return display;
}

/**
 * What the buyer is charged for a tier: the spec adds 1 to any price of 1 or less, because the
 * card provider's minimum charge is 1.00 in the currency.
 */
export function chargeAmountE4(price: AmountE4): AmountE4 {
  return price <= E4_PER_UNIT ? price + E4_PER_UNIT : price;
}

/**
 * The bulk saving a tier really gives: against buying the same quantity at the plan's smallest
 * tier's price per unit, in whole percent rounded down (so never overstated), 0–99.
 */
export function bulkDiscountPercent(
  tier: { qty: number; priceE4: AmountE4 },
  reference: { qty: number; priceE4: AmountE4 },
): number {
  // reference cost of tier.qty units = reference.priceE4 × tier.qty / reference.qty; compare
  // cross-multiplied so everything stays an integer.
  const referenceCost = reference.priceE4 * tier.qty;
  const tierCost = tier.priceE4 * reference.qty;
  if (referenceCost <= 0 || tierCost >= referenceCost) return 0;
  return Math.min(99, Math.floor(((referenceCost - tierCost) * 100) / referenceCost));
}
