/**
 * The owner's price floor: the lowest price a tier may be saved at without the owner confirming
 * it (./risky-prices.ts). A store setting kept in `settings`, edited on the console's catalogue
 * page. Until the owner sets it, DEFAULT_PRICE_FLOOR_E4 applies; the owner can also turn it off.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../db/schema.ts';
import { e4ToNumber, parseAmountE4 } from '../money/money.ts';

/**
 * $0.25: below every price the seeded catalogue sells at (the lowest is $0.39), so it never asks
 * about an ordinary price, and far above the slips it exists for ($0.01, $0.10 for $10).
 */
export const DEFAULT_PRICE_FLOOR_E4 = 2_500;
/** A floor above this would ask about every save: 1,000 is the highest price a tier may have. */
export const MAX_PRICE_FLOOR = 1_000;

const FLOOR_KEY = 'catalogue.price_floor_e4';
/** Stored when the owner turned the floor off (no row: the default). */
const NO_FLOOR = 'none';

/** `PUT /api/admin/catalogue/price-floor`: an amount such as "0.50", or null for no floor. */
export const PriceFloorBodySchema = z.object({
  floor: z
    .string({ error: 'Enter an amount such as 0.50, or leave it empty for no floor.' })
    .trim()
    .regex(/^\d{1,4}(?:\.\d{1,4})?$/, 'Enter an amount such as 0.50 (at most 4 decimals).')
    .refine((value) => Number(value) <= MAX_PRICE_FLOOR, `The floor must be at most ${MAX_PRICE_FLOOR}.`)
    .nullable(),
});
export type PriceFloorBody = z.infer<typeof PriceFloorBodySchema>;

/** The floor as the API and the console show it. */
export const PriceFloorSchema = z.object({
  /** The floor in the store's currency; null: no floor. */
  floor: z.number().nullable(),
  /** True while the owner has not set it (the default applies). */
  isDefault: z.boolean(),
  defaultFloor: z.number(),
});
export type PriceFloor = z.infer<typeof PriceFloorSchema>;

/** The floor in ten-thousandths (null: none). */
export async function loadPriceFloorE4(db: Kysely<Database>): Promise<number | null> {
  return (await loadPriceFloor(db)).floorE4;
}

async function loadPriceFloor(db: Kysely<Database>): Promise<{ floorE4: number | null; isDefault: boolean }> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', FLOOR_KEY).executeTakeFirst();
  if (!row) return { floorE4: DEFAULT_PRICE_FLOOR_E4, isDefault: true };
  if (row.value === NO_FLOOR) return { floorE4: null, isDefault: false };
  const value = Number(row.value);
  return Number.isSafeInteger(value) && value >= 0
    ? { floorE4: value, isDefault: false }
    : { floorE4: DEFAULT_PRICE_FLOOR_E4, isDefault: true };
}

export async function describePriceFloor(db: Kysely<Database>): Promise<PriceFloor> {
  const { floorE4, isDefault } = await loadPriceFloor(db);
  return {
    floor: floorE4 === null ? null : e4ToNumber(floorE4),
    isDefault,
    defaultFloor: e4ToNumber(DEFAULT_PRICE_FLOOR_E4),
  };
}

/** Sets the floor (the body already checked); answers it with what it replaced, for the audit log. */
export async function savePriceFloor(
  db: Kysely<Database>,
  body: PriceFloorBody,
): Promise<{ before: PriceFloor; after: PriceFloor }> {
  const before = await describePriceFloor(db);
  const value = body.floor === null ? NO_FLOOR : String(parseAmountE4(body.floor));
  await db
    .insertInto('settings')
    .values({ key: FLOOR_KEY, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
  return { before, after: await describePriceFloor(db) };
}
