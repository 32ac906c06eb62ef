/**
 * Prices from a supplier's rate (decision 044): what a tier costs the store, the price a
 * markup gives, and the warnings the tier editor shows. Money is in ten-thousandths (core/money);
 * the arithmetic runs on BigInt, so a large rate times a large quantity never loses a digit.
 *
 * - cost = rate per 1000 × quantity / 1000, rounded up to a ten-thousandth (never under-counted);
 * - price = cost + markup (a percentage of the cost, or a fixed amount per tier), rounded up to the
 *   currency's smallest unit (cents for $), so the price never falls below cost + markup.
 */
import { type AmountE4, E4_PER_UNIT, formatAmountE4 } from '../money/money.ts';
import {
  DEFAULT_POSTS_PER_PERIOD,
  type ServiceKind,
  type ServiceTerms,
  deliveryQuantityOf,
  subscriptionPlanOf,
} from '../subscriptions/terms.ts';

type Markup = { kind: 'percent'; percent: number } | { kind: 'fixed'; amountE4: AmountE4 };

/** Currencies without minor units; every other currency is priced to the hundredth. */
const ZERO_DECIMAL = new Set(['JPY', 'KRW', 'VND', 'CLP', 'ISK']);

/** Plans show a symbol ('$'); panels report a code ('USD'). Both map to a code to compare them. */
const SYMBOL_CODES: Record<string, string> = { $: 'USD', '€': 'EUR', '£': 'GBP', '₹': 'INR', '¥': 'JPY' };

export function currencyCode(currency: string): string {
  const trimmed = currency.trim();
  return SYMBOL_CODES[trimmed] ?? trimmed.toUpperCase();
}

/** The smallest price step of a currency, in ten-thousandths (100 = one cent). */
function priceStepE4(currency: string): number {
  return ZERO_DECIMAL.has(currencyCode(currency)) ? E4_PER_UNIT : 100;
}

const ceilDiv = (a: bigint, b: bigint): bigint => (a + b - 1n) / b;

/** What `qty` units cost at `rateE4` per 1000, rounded up to a ten-thousandth. */
export function supplierCostE4(rateE4: AmountE4, qty: number): AmountE4 {
  if (rateE4 < 0 || !Number.isSafeInteger(rateE4)) throw new RangeError('rate must be a non-negative integer');
  if (qty < 0 || !Number.isSafeInteger(qty)) throw new RangeError('quantity must be a non-negative integer');
  return Number(ceilDiv(BigInt(rateE4) * BigInt(qty), 1000n));
}

/** Percentages are taken to the hundredth of a percent (12.5 % and 12.25 % are fine). */
const PERCENT_SCALE = 100n;

/**
 * The price for a tier that costs `costE4` with `markup`, rounded up to the currency's step.
 * A negative markup is refused: the tool never proposes selling below cost.
 */
export function priceWithMarkupE4(costE4: AmountE4, markup: Markup, currency: string): AmountE4 {
  const step = BigInt(priceStepE4(currency));
  const cost = BigInt(costE4);
  let raw: bigint;
  if (markup.kind === 'percent') {
    if (!(markup.percent >= 0) || !Number.isFinite(markup.percent)) throw new RangeError('markup must be ≥ 0');
    const hundredths = BigInt(Math.round(markup.percent * Number(PERCENT_SCALE)));
    raw = ceilDiv(cost * (100n * PERCENT_SCALE + hundredths), 100n * PERCENT_SCALE);
  } else {
    if (!(markup.amountE4 >= 0) || !Number.isSafeInteger(markup.amountE4)) throw new RangeError('markup must be ≥ 0');
    raw = cost + BigInt(markup.amountE4);
  }
  return Number(ceilDiv(raw, step) * step);
}

interface TierCostCheck {
  qty: number;
  priceE4: AmountE4;
  planCurrency: string;
  /** The mapped supplier service as imported, or null when it is not imported (no check then). */
  supplier: { rateE4: AmountE4; min: number; max: number; vanished: boolean } | null;
  /** The panel's currency (from its balance reply); null when not known yet. */
  panelCurrency: string | null;
  /** What the service sells (a package when omitted): a subscription's quantity is per post or per day. */
  kind?: ServiceKind;
  terms?: ServiceTerms | undefined;
}

const count = new Intl.NumberFormat('en-US');

/** The units the supplier charges one tier for in all: see tierUnits. */
export function supplierQuantityOf(kind: ServiceKind, terms: ServiceTerms | undefined, qty: number): number {
  return tierUnits({ qty, kind, terms }).costQty;
}

/**
 * What the supplier is asked for per request and in all for one tier: a package's quantity; for
 * automatic likes, the likes on each post (min/max apply per post) and at most that many on every
 * post the period covers; for daily followers, one day's run (min/max apply per run) and the runs
 * of the whole period (the drip-feed's total).
 */
function tierUnits(check: Pick<TierCostCheck, 'qty' | 'kind' | 'terms'>): {
  limitText: string;
  costQty: number;
  costText: string;
} {
  const kind = check.kind ?? 'package';
  if (kind === 'package') return { limitText: `Quantity ${check.qty}`, costQty: check.qty, costText: `${check.qty}` };
  const plan = subscriptionPlanOf(kind, check.terms ?? { periodDays: 30 }, check.qty);
  if (kind === 'automatic_likes') {
    const posts = plan.posts ?? DEFAULT_POSTS_PER_PERIOD;
    return {
      limitText: `${count.format(check.qty)} likes per post`,
      costQty: check.qty * posts,
      costText: `${count.format(check.qty * posts)} likes (${count.format(check.qty)} on each of ${count.format(posts)} posts)`,
    };
  }
  const total = deliveryQuantityOf(plan);
  return {
    limitText: `${count.format(check.qty)} followers a day (one day's run)`,
    costQty: total,
    costText: `${count.format(total)} followers (${count.format(check.qty)} a day for ${plan.periodDays} days)`,
  };
}

/** The editor's warnings for one tier: they never block a save. */
export function tierWarnings(check: TierCostCheck): string[] {
  const warnings: string[] = [];
  const { supplier } = check;
  if (!supplier) return warnings;
  if (supplier.vanished)
    warnings.push('The supplier no longer offers this service (it was missing at the last import).');
  const units = tierUnits(check);
  if (check.qty < supplier.min || check.qty > supplier.max)
    warnings.push(`${units.limitText} is outside the supplier's limits (${supplier.min}–${supplier.max}).`);
  if (check.panelCurrency === null) {
    warnings.push("The panel's currency is not known yet (refresh its balance): no cost check.");
  } else if (currencyCode(check.panelCurrency) !== currencyCode(check.planCurrency)) {
    warnings.push(
      `The panel charges in ${check.panelCurrency}, the plan sells in ${check.planCurrency}: no cost check.`,
    );
  } else {
    const cost = supplierCostE4(supplier.rateE4, units.costQty);
    if (check.priceE4 < cost)
      warnings.push(`Sells below cost: the supplier charges ${formatE4(cost)} for ${units.costText}.`);
  }
  return warnings;
}

/** An amount as the editor writes it: a decimal string with 2 to 4 decimals ("2.99", "0.0125"). */
export function formatE4(amount: AmountE4): string {
  return formatAmountE4(amount, 4)
    .replace(/(\.\d\d\d?)0$/, '$1')
    .replace(/(\.\d\d)0$/, '$1');
}
