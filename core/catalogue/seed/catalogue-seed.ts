/**
 * Seed catalogue: three platform groups, thirteen services and their plans and price tiers; two
 * of them are subscriptions (automatic Instagram likes and daily Instagram followers, decision
 * 057), whose tiers are per post and per day and whose supplier services are the simulated
 * panel's Subscriptions and drip-feed services (core/fulfilment/simulated-panel-variants.ts).
 * Prices are decimal strings (at most 4 decimals), discounts whole percents. Supplier service
 * ids are numbered in blocks of ten per service: block + 1 Standard, + 2 Popular, + 3 Exclusive.
 * A tier's discount is its true bulk saving against the plan's smallest tier at its price per
 * unit, rounded down (decision 031; the catalogue never shows more than that).
 */
import type { CatalogueInput } from '../types.ts';
import { instagramGroup } from './instagram.ts';
import { tiktokGroup } from './tiktok.ts';
import { youtubeGroup } from './youtube.ts';

export const catalogueSeed: CatalogueInput = { groups: [instagramGroup, youtubeGroup, tiktokGroup] };
