/**
 * A configured sale (decision 031): a whole percentage off every tier of all services or of a
 * list of services, from a start to an end moment. While it runs, the catalogue serves the
 * reduced price as the tier's `price` (so the pages, the order form and checkout all show and
 * charge the same number) and the price before the sale as `listPrice`. No sale configured, or
 * outside its window: no banner, no reduction.
 *
 * Configured by environment variables (SALE_*), checked at boot: a sale that cannot be read
 * stops the store rather than showing one price and charging another.
 */
import { z } from 'zod';
import { type AmountE4, E4_PER_CENT } from '../money/money.ts';
import type { SaleBanner } from './sale-banner.ts';

export type { SaleBanner } from './sale-banner.ts';

/** The spec's banner text, with the configured percentage in place of its fixed 50. */
const DEFAULT_SALE_WORDING = 'Flash sale: {percent}% OFF';

export interface SaleConfig {
  /** Whole percent taken off the list price, 1–90. */
  percent: number;
  /** Epoch ms; the sale runs while startsAt ≤ now < endsAt. */
  startsAt: number;
  endsAt: number;
  /** 'all', or the service slugs the sale covers. */
  services: 'all' | string[];
  /** Banner text; `{percent}` is replaced by the percentage. */
  wording: string;
}

export class SaleConfigError extends Error {}

const isoMoment = z.iso.datetime({ offset: true });

const SaleEnvSchema = z.object({
  SALE_PERCENT: z.coerce.number().int().min(1).max(90).optional(),
  SALE_STARTS_AT: isoMoment.optional(),
  SALE_ENDS_AT: isoMoment.optional(),
  SALE_SERVICES: z
    .string()
    .regex(/^\s*(all|[a-z0-9-]+(\s*,\s*[a-z0-9-]+)*)\s*$/, 'must be "all" or a comma-separated list of service slugs')
    .optional(),
  SALE_WORDING: z.string().trim().min(1).max(80).optional(),
  /** Replaced by SALE_*: a countdown without a price reduction is what decision 031 removed. */
  FLASH_SALE_ENDS_AT: z.undefined({ error: 'replaced by SALE_PERCENT, SALE_STARTS_AT and SALE_ENDS_AT' }).optional(),
});

/**
 * Reads the SALE_* variables (empty values already dropped). Nothing set: no sale. A partial
 * or contradictory setting throws SaleConfigError naming the variable.
 */
export function parseSaleEnv(env: Record<string, string | undefined>): SaleConfig | null {
  const parsed = SaleEnvSchema.safeParse({
    SALE_PERCENT: env['SALE_PERCENT'],
    SALE_STARTS_AT: env['SALE_STARTS_AT'],
    SALE_ENDS_AT: env['SALE_ENDS_AT'],
    SALE_SERVICES: env['SALE_SERVICES'],
    SALE_WORDING: env['SALE_WORDING'],
    FLASH_SALE_ENDS_AT: env['FLASH_SALE_ENDS_AT'],
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new SaleConfigError(`${issue?.path.join('.') ?? 'SALE'}: ${issue?.message ?? 'invalid'}`);
  }
  const values = parsed.data;
  const anySet =
    values.SALE_PERCENT !== undefined ||
    values.SALE_STARTS_AT !== undefined ||
    values.SALE_ENDS_AT !== undefined ||
    values.SALE_SERVICES !== undefined ||
    values.SALE_WORDING !== undefined;
  if (!anySet) return null;
  if (values.SALE_PERCENT === undefined)
    throw new SaleConfigError('SALE_PERCENT: a sale needs SALE_PERCENT, SALE_STARTS_AT and SALE_ENDS_AT');
  if (values.SALE_STARTS_AT === undefined)
    throw new SaleConfigError('SALE_STARTS_AT: a sale needs SALE_PERCENT, SALE_STARTS_AT and SALE_ENDS_AT');
  if (values.SALE_ENDS_AT === undefined)
    throw new SaleConfigError('SALE_ENDS_AT: a sale needs SALE_PERCENT, SALE_STARTS_AT and SALE_ENDS_AT');
  const startsAt = Date.parse(values.SALE_STARTS_AT);
  const endsAt = Date.parse(values.SALE_ENDS_AT);
  if (!(endsAt > startsAt)) throw new SaleConfigError('SALE_ENDS_AT: must be after SALE_STARTS_AT');
  const services = (values.SALE_SERVICES ?? 'all').trim();
  return {
    percent: values.SALE_PERCENT,
    startsAt,
    endsAt,
    services:
      services === 'all'
        ? 'all'
        : [
            ...new Set(
              services
                .split(',')
                .map((slug) => slug.trim())
                .filter(Boolean),
            ),
          ],
    wording: values.SALE_WORDING ?? DEFAULT_SALE_WORDING,
  };
}

/** The service slugs a sale names that the catalogue does not have (boot refuses when any). */
export function unknownSaleServices(sale: SaleConfig | null, knownSlugs: Iterable<string>): string[] {
  if (!sale || sale.services === 'all') return [];
  const known = new Set(knownSlugs);
  return sale.services.filter((slug) => !known.has(slug));
}

export function isSaleActive(sale: SaleConfig | null, now: number): sale is SaleConfig {
  return sale !== null && now >= sale.startsAt && now < sale.endsAt;
}

/** Whether the sale covers a service (ignores time; see isSaleActive). */
function saleCovers(sale: SaleConfig, serviceSlug: string): boolean {
  return sale.services === 'all' || sale.services.includes(serviceSlug);
}

/** The percentage taken off a service's prices at `now`; 0 outside a sale or for services it does not cover. */
export function salePercentFor(sale: SaleConfig | null, serviceSlug: string, now: number): number {
  return isSaleActive(sale, now) && saleCovers(sale, serviceSlug) ? sale.percent : 0;
}

/**
 * The sale price: list × (100 − percent) / 100, rounded down to whole cents (what a card is
 * charged in), so the saving is never less than the percentage the banner names (decision 031).
 * Exact integer arithmetic on 4-decimal amounts (core/money). Never below one cent.
 */
export function salePriceE4(listPrice: AmountE4, percent: number): AmountE4 {
  if (percent <= 0) return listPrice;
  if (!Number.isInteger(percent) || percent > 90) throw new RangeError('A sale takes 1–90 whole percent off');
  // listPrice × (100 − p) is an integer in 1/1_000_000 units; one cent is 100 × 100 of those.
  const scaled = listPrice * (100 - percent);
  const perCent = E4_PER_CENT * 100;
  const cents = Math.floor(scaled / perCent);
  return Math.max(1, cents) * E4_PER_CENT;
}

/**
 * 0 before the sale, 1 during, 2 after (or no sale): changes exactly at the sale's start and
 * end. The catalogue's version includes it, and page cache keys include that, so a page rendered
 * on one side of a boundary is never served on the other.
 */
export function salePhase(sale: SaleConfig | null, now: number): 0 | 1 | 2 {
  if (!sale || now >= sale.endsAt) return 2;
  return now < sale.startsAt ? 0 : 1;
}

/** The part of the catalogue the banner reads: each group's services, by name and slug. */
export interface SaleBannerGroup {
  slug: string;
  services: { name: string; slug: string }[];
}

/** "A", "A and B", "A, B and C". */
function listOfNames(names: string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}`;
}

/**
 * The banner for the sale running at `now`, or null (no banner) when none is. With the
 * catalogue's groups, a sale on some services names them ("… on Instagram Likes and TikTok
 * Views") and shows on every service page of their groups (decision 038).
 */
export function saleBanner(sale: SaleConfig | null, now: number, groups?: SaleBannerGroup[]): SaleBanner | null {
  if (!isSaleActive(sale, now)) return null;
  const text = sale.wording.replaceAll('{percent}', String(sale.percent));
  const banner: SaleBanner = { text, percent: sale.percent, endsAt: sale.endsAt, services: sale.services, at: now };
  if (sale.services === 'all' || !groups) return banner;
  const covered = new Set(sale.services);
  const names: string[] = [];
  const servicePages: string[] = [];
  for (const group of groups) {
    const coveredHere = group.services.filter((service) => covered.has(service.slug));
    if (coveredHere.length === 0) continue;
    names.push(...coveredHere.map((service) => service.name));
    servicePages.push(group.slug, ...group.services.map((service) => service.slug));
  }
  return { ...banner, text: names.length > 0 ? `${text} on ${listOfNames(names)}` : text, servicePages };
}
