/**
 * Which price changes of a catalogue save are risky enough to ask the owner first: a tier whose
 * new price is below the owner's floor, or less than half of what the same tier (same plan type,
 * same quantity) costs now. A typo such as $0.01 for $10.00 goes live on the next page load, so
 * the server refuses such a save unless the owner confirmed it. Tiers whose price did not change
 * are never asked about, so a service already below a new floor still saves its other edits.
 * Pure and browser-safe: the console shows the same words the server sends.
 */
import { z } from 'zod';
import { e4ToNumber, formatAmountE4, formatMoney, parseAmountE4 } from '../money/money.ts';

/** A new price below this share of the current one is a big drop (more than half off). */
export const BIG_DROP_SHARE = 0.5;

export const RISKY_PRICE_REASONS = ['below-floor', 'big-drop'] as const;
export type RiskyPriceReason = (typeof RISKY_PRICE_REASONS)[number];

/** One tier the save would price riskily, in the owner's words and as data for the console. */
export const RiskyPriceSchema = z.object({
  /** The tier's field path in the save ("plans.0.tiers.2"). */
  field: z.string(),
  /** The tier's own words ("100 Followers"). */
  tier: z.string(),
  currency: z.string(),
  /** Its price now; null for a tier the save adds. */
  before: z.number().nullable(),
  after: z.number(),
  reasons: z.array(z.enum(RISKY_PRICE_REASONS)),
  /** "100 Followers: $2.99 → $0.01 (below your floor of $0.25; less than half the current price)". */
  words: z.string(),
});
export type RiskyPrice = z.infer<typeof RiskyPriceSchema>;

interface PricedTier {
  qty: number;
  text: string;
  price: string;
}
interface PricedPlan {
  type: string;
  currency: string;
  tiers: PricedTier[];
}

/** "$2.99" for a plan in "$" (the catalogue's plans name their currency by its sign) or in "USD". */
function planMoney(e4: number, currency: string): string {
  return /^[A-Za-z]{3}$/.test(currency) ? formatMoney(e4ToNumber(e4), currency) : `${currency}${formatAmountE4(e4, 2)}`;
}

/** The tiers of `after` priced below `floorE4` (when set) or at less than half their price in `before`. */
export function riskyPrices(
  before: readonly PricedPlan[] | null,
  after: readonly PricedPlan[],
  floorE4: number | null,
): RiskyPrice[] {
  const current = new Map<string, number>();
  for (const plan of before ?? [])
    for (const tier of plan.tiers) current.set(`${plan.type}:${tier.qty}`, parseAmountE4(tier.price));
  const risky: RiskyPrice[] = [];
  after.forEach((plan, p) =>
    plan.tiers.forEach((tier, t) => {
      const newE4 = parseAmountE4(tier.price);
      const oldE4 = current.get(`${plan.type}:${tier.qty}`) ?? null;
      if (oldE4 === newE4) return;
      const reasons: RiskyPriceReason[] = [];
      if (floorE4 !== null && newE4 < floorE4) reasons.push('below-floor');
      if (oldE4 !== null && newE4 < oldE4 * BIG_DROP_SHARE) reasons.push('big-drop');
      if (reasons.length === 0) return;
      const money = (e4: number) => planMoney(e4, plan.currency);
      const why = reasons.map((reason) =>
        reason === 'below-floor' && floorE4 !== null
          ? `below your floor of ${money(floorE4)}`
          : 'less than half the current price',
      );
      risky.push({
        field: `plans.${p}.tiers.${t}`,
        tier: tier.text,
        currency: plan.currency,
        before: oldE4 === null ? null : e4ToNumber(oldE4),
        after: e4ToNumber(newE4),
        reasons,
        words: `${tier.text}: ${oldE4 === null ? 'new tier at' : `${money(oldE4)} →`} ${money(newE4)} (${why.join('; ')})`,
      });
    }),
  );
  return risky;
}

/** The refusal's message: every risky tier, and how to go ahead. */
export function riskyPricesMessage(risky: readonly RiskyPrice[]): string {
  const list = risky.map((r) => r.words).join('; ');
  const one = risky.length === 1;
  return `Check ${one ? 'this price before it goes' : 'these prices before they go'} live: ${list}. Save again with confirmRiskyPrices to keep ${one ? 'it' : 'them'}.`;
}
