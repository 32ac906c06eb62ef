import { describe, expect, it } from 'vitest';
import { saleBannerShowsOn } from '../../core/catalogue/sale-banner.ts';
import {
  type SaleConfig,
  SaleConfigError,
  isSaleActive,
  parseSaleEnv,
  saleBanner,
  salePercentFor,
  salePhase,
  salePriceE4,
  unknownSaleServices,
} from '../../core/catalogue/sale.ts';
import {
  BULK_REFERENCE_LABEL,
  SALE_REFERENCE_LABEL,
  bulkDiscountPercent,
  chargeAmountE4,
  describePrice,
} from '../../core/catalogue/pricing.ts';

const START = Date.parse('2026-12-01T00:00:00Z');
const END = Date.parse('2026-12-08T00:00:00Z');
const sale = (services: SaleConfig['services'] = 'all'): SaleConfig => ({
  percent: 20,
  startsAt: START,
  endsAt: END,
  services,
  wording: 'Flash sale: {percent}% OFF',
});

describe('sale price', () => {
  it('takes the percentage off, rounded down to whole cents (never less saved than promised)', () => {
    expect(salePriceE4(29_900, 50)).toBe(14_900); // 2.99 → 1.495 → 1.49
    expect(salePriceE4(29_900, 20)).toBe(23_900); // 2.99 → 2.392 → 2.39
    expect(salePriceE4(14_999, 10)).toBe(13_400); // 1.4999 → 1.34991 → 1.34
    expect(salePriceE4(100_000, 25)).toBe(75_000);
  });

  it('is the list price at 0% and never below one cent', () => {
    expect(salePriceE4(29_900, 0)).toBe(29_900);
    expect(salePriceE4(100, 90)).toBe(100);
    expect(() => salePriceE4(29_900, 95)).toThrow(RangeError);
  });

  it('the processing fee applies after the sale: a sale price of 1 or less gets +1', () => {
    // 1.49 list, 50% off → 0.74, charged 1.74; without the sale 1.49 is charged as is.
    const salePrice = salePriceE4(14_900, 50);
    expect(salePrice).toBe(7_400);
    expect(chargeAmountE4(salePrice)).toBe(17_400);
    expect(chargeAmountE4(14_900)).toBe(14_900);
  });
});

describe('sale window and services', () => {
  it('runs from its start (inclusive) to its end (exclusive)', () => {
    expect(isSaleActive(sale(), START - 1)).toBe(false);
    expect(isSaleActive(sale(), START)).toBe(true);
    expect(isSaleActive(sale(), END - 1)).toBe(true);
    expect(isSaleActive(sale(), END)).toBe(false);
    expect(isSaleActive(null, START)).toBe(false);
  });

  it('changes phase exactly at each boundary', () => {
    expect([START - 1, START, END - 1, END].map((t) => salePhase(sale(), t))).toEqual([0, 1, 1, 2]);
    expect(salePhase(null, START)).toBe(2);
  });

  it('covers all services or only the listed ones', () => {
    expect(salePercentFor(sale(), 'tiktok-likes', START)).toBe(20);
    expect(salePercentFor(sale(['tiktok-likes']), 'tiktok-likes', START)).toBe(20);
    expect(salePercentFor(sale(['tiktok-likes']), 'instagram-followers', START)).toBe(0);
    expect(salePercentFor(sale(), 'tiktok-likes', END)).toBe(0);
  });

  it('builds the banner from the configured wording and end, and none outside the sale', () => {
    expect(saleBanner(sale(), START)).toEqual({
      text: 'Flash sale: 20% OFF',
      percent: 20,
      endsAt: END,
      services: 'all',
      at: START,
    });
    expect(saleBanner(sale(), END)).toBeNull();
    expect(saleBanner(null, START)).toBeNull();
  });

  it('shows a sale on some services on home and their pages only', () => {
    const banner = saleBanner(sale(['tiktok-likes']), START)!;
    expect(saleBannerShowsOn(banner, '/')).toBe(true);
    expect(saleBannerShowsOn(banner, '/service/tiktok-likes')).toBe(true);
    expect(saleBannerShowsOn(banner, '/order/tiktok-likesGOI500')).toBe(true);
    expect(saleBannerShowsOn(banner, '/service/tiktok-views')).toBe(false);
    expect(saleBannerShowsOn(banner, '/blog')).toBe(false);
  });

  it('names the covered services and shows on every service page of their groups (decision 038)', () => {
    const groups = [
      {
        slug: 'instagram',
        services: [
          { name: 'Instagram Followers', slug: 'instagram-followers' },
          { name: 'Instagram Likes', slug: 'instagram-likes' },
        ],
      },
      { slug: 'tiktok', services: [{ name: 'TikTok Views', slug: 'tiktok-views' }] },
      {
        slug: 'youtube',
        services: [
          { name: 'YouTube Views', slug: 'youtube-views' },
          { name: 'YouTube Likes', slug: 'youtube-likes' },
        ],
      },
    ];
    const banner = saleBanner(sale(['instagram-likes', 'youtube-likes']), START, groups)!;
    expect(banner.text).toBe('Flash sale: 20% OFF on Instagram Likes and YouTube Likes');
    // The group page and its other services' pages offer the covered service too.
    for (const page of [
      '/service/instagram',
      '/service/instagram-followers',
      '/service/instagram-likes',
      '/service/youtube-views',
    ])
      expect(saleBannerShowsOn(banner, page), page).toBe(true);
    expect(saleBannerShowsOn(banner, '/service/tiktok-views')).toBe(false);
    expect(saleBannerShowsOn(banner, '/service/tiktok')).toBe(false);
    // An order page is one service: only the covered ones.
    expect(saleBannerShowsOn(banner, '/order/instagram-likesGOI100')).toBe(true);
    expect(saleBannerShowsOn(banner, '/order/instagram-followersGOI100')).toBe(false);
    // Three or more names read as a list; a sale on all services names none.
    expect(saleBanner(sale(['instagram-likes', 'tiktok-views', 'youtube-likes']), START, groups)!.text).toBe(
      'Flash sale: 20% OFF on Instagram Likes, TikTok Views and YouTube Likes',
    );
    expect(saleBanner(sale(), START, groups)!.text).toBe('Flash sale: 20% OFF');
  });

  it('names unknown service slugs so boot can refuse them', () => {
    expect(unknownSaleServices(sale(['tiktok-likes', 'tiktok-lieks']), ['tiktok-likes'])).toEqual(['tiktok-lieks']);
    expect(unknownSaleServices(sale(), [])).toEqual([]);
  });
});

describe('SALE_* configuration', () => {
  const full = {
    SALE_PERCENT: '20',
    SALE_STARTS_AT: '2026-12-01T00:00:00Z',
    SALE_ENDS_AT: '2026-12-08T00:00:00Z',
  };

  it('no variables: no sale', () => {
    expect(parseSaleEnv({})).toBeNull();
  });

  it('reads a full configuration with the default wording and all services', () => {
    expect(parseSaleEnv(full)).toEqual(sale());
  });

  it('reads a list of services and custom wording', () => {
    expect(
      parseSaleEnv({
        ...full,
        SALE_SERVICES: ' tiktok-likes, youtube-views ',
        SALE_WORDING: 'Winter sale: {percent}% off',
      }),
    ).toMatchObject({ services: ['tiktok-likes', 'youtube-views'], wording: 'Winter sale: {percent}% off' });
  });

  it.each([
    [{ SALE_PERCENT: '20' }, 'SALE_STARTS_AT'],
    [{ ...full, SALE_PERCENT: '0' }, 'SALE_PERCENT'],
    [{ ...full, SALE_PERCENT: '12.5' }, 'SALE_PERCENT'],
    [{ ...full, SALE_ENDS_AT: full.SALE_STARTS_AT }, 'SALE_ENDS_AT'],
    [{ ...full, SALE_SERVICES: 'TikTok Likes' }, 'SALE_SERVICES'],
    [{ FLASH_SALE_ENDS_AT: '2026-12-31T00:00:00Z' }, 'FLASH_SALE_ENDS_AT'],
  ])('refuses %j naming %s', (env, variable) => {
    expect(() => parseSaleEnv(env)).toThrow(SaleConfigError);
    expect(() => parseSaleEnv(env)).toThrow(variable);
  });
});

describe('reference prices', () => {
  it('a bulk discount is the true saving against the smallest tier per unit, rounded down', () => {
    // 250 at 5.49 against 100 at 2.99: 250 would cost 7.475, saving 26.55 % → 26.
    expect(bulkDiscountPercent({ qty: 250, priceE4: 54_900 }, { qty: 100, priceE4: 29_900 })).toBe(26);
    expect(bulkDiscountPercent({ qty: 100, priceE4: 29_900 }, { qty: 100, priceE4: 29_900 })).toBe(0);
    // Dearer per unit than the reference: no discount.
    expect(bulkDiscountPercent({ qty: 200, priceE4: 70_000 }, { qty: 100, priceE4: 29_900 })).toBe(0);
  });

  it('the spec formula on a rounded-down discount never shows more than the true reference', () => {
    const display = describePrice(5.49, 26, '$');
    expect(display.original).toBe('$7.42'); // ≤ 7.475, the 250 at the 100-pack's unit price
    expect(display.originalLabel).toBe(BULK_REFERENCE_LABEL);
  });

  it('during a sale the struck-through price is the list price', () => {
    expect(describePrice(2.39, 26, '$', 2.99)).toEqual({
      price: '$2.3900',
      original: '$2.99',
      youSave: '$0.60',
      badge: 'Sale: 20% off',
      originalLabel: SALE_REFERENCE_LABEL,
    });
  });
});
