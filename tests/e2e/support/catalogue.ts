/**
 * Expected values for the end-to-end tests, read from the seed the server starts with, and the
 * spec's price rules (section 9) recomputed here independently of core/catalogue/pricing.ts, in
 * integer ten-thousandths of the currency unit so no float rounding creeps in.
 */
import { catalogueSeed } from '../../../core/catalogue/seed/catalogue-seed.ts';

type SeedGroup = (typeof catalogueSeed.groups)[number];
export type SeedService = SeedGroup['services'][number];
export type SeedPlan = SeedService['plans'][number];
export type SeedTier = SeedPlan['tiers'][number];

export const groups: SeedGroup[] = catalogueSeed.groups;

export function group(slug: string): SeedGroup {
  const found = groups.find((g) => g.slug === slug);
  if (!found) throw new Error(`No group "${slug}" in the seed`);
  return found;
}

export function service(slug: string): SeedService {
  const found = groups.flatMap((g) => g.services).find((s) => s.slug === slug);
  if (!found) throw new Error(`No service "${slug}" in the seed`);
  return found;
}

export function plan(serviceSlug: string, type: string): SeedPlan {
  const found = service(serviceSlug).plans.find((p) => p.type === type);
  if (!found) throw new Error(`No plan "${type}" in service "${serviceSlug}"`);
  return found;
}

/** "2.99" → 29900; "1.4999" → 14999. */
function toE4(decimal: string): number {
  const match = /^(\d+)(?:\.(\d{1,4}))?$/.exec(decimal);
  if (!match) throw new Error(`Unexpected seed price "${decimal}"`);
  return Number(match[1]) * 10_000 + Number((match[2] ?? '').padEnd(4, '0'));
}

/** Integer division rounding half up (both operands non-negative). */
function divRoundHalfUp(numerator: number, denominator: number): number {
  return Math.floor((2 * numerator + denominator) / (2 * denominator));
}

function formatCents(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** Home page: "$" and 2 decimals, rounded half up. */
export function homePrice(tier: SeedTier): string {
  return `$${formatCents(divRoundHalfUp(toE4(tier.price), 100))}`;
}

interface DetailExpectation {
  price: string;
  original: string | null;
  youSave: string | null;
  badge: string | null;
}

/**
 * Service page: price with 4 decimals and the plan currency; when the discount is above 0,
 * original = price / (1 − d/100) to whole cents (half up), you save = original − price to
 * whole cents, badge "N% off".
 */
export function detailPrice(tier: SeedTier, currency: string): DetailExpectation {
  const e4 = toE4(tier.price);
  const price = `${currency}${Math.floor(e4 / 10_000)}.${String(e4 % 10_000).padStart(4, '0')}`;
  if (tier.discount <= 0) return { price, original: null, youSave: null, badge: null };
  // price / (1 - d/100) in e4 is e4 * 100 / (100 - d); in cents that is e4 / (100 - d).
  const originalCents = divRoundHalfUp(e4, 100 - tier.discount);
  const saveCents = divRoundHalfUp(originalCents * 100 - e4, 100);
  return {
    price,
    original: `${currency}${formatCents(originalCents)}`,
    youSave: `${currency}${formatCents(saveCents)}`,
    badge: `${tier.discount}% off`,
  };
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
