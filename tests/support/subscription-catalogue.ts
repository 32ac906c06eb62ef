/**
 * The seed catalogue plus one service of each subscription kind (decision 057), for suites that
 * buy them: automatic likes (30 new posts a period, tiers per post) and daily followers (tiers per
 * day, a drip-feed of 30 runs), both for an Instagram username.
 */
import { catalogueSeed } from '../../core/catalogue/seed/catalogue-seed.ts';
import type { CatalogueInput } from '../../core/catalogue/types.ts';

type ServiceInput = CatalogueInput['groups'][number]['services'][number];

export const AUTOMATIC_LIKES = {
  slug: 'automatic-instagram-likes-test',
  name: 'Automatic Instagram Likes',
  type: 'Standard',
  tiers: [50, 100, 250],
} as const;

export const DAILY_FOLLOWERS = {
  slug: 'daily-instagram-followers-test',
  name: 'Daily Instagram Followers',
  type: 'Standard',
  tiers: [50, 100],
} as const;

function service(
  base: { slug: string; name: string; tiers: readonly number[] },
  kind: 'automatic_likes' | 'daily_followers',
  price: (qty: number) => string,
  supplierServiceId: string,
): ServiceInput {
  return {
    slug: base.slug,
    name: base.name,
    titleHtml: `Buy <strong>${base.name}</strong>`,
    description: `${base.name} for a public Instagram account.`,
    image: '/images/services/instagram-likes.svg',
    targetKind: 'instagram_username',
    commentRequired: false,
    kind,
    terms: kind === 'automatic_likes' ? { periodDays: 30, posts: 30, delayMinutes: 0 } : { periodDays: 30 },
    plans: [
      {
        type: 'Standard',
        title: `Standard ${base.name}`,
        icon: '/images/plans/standard.svg',
        currency: '$',
        options: ['Real-looking profiles'],
        tiers: base.tiers.map((qty) => ({
          qty,
          text: `${qty} of them`,
          price: price(qty),
          discount: 0,
          supplierServiceId,
        })),
      },
    ],
  };
}

export const subscriptionCatalogue: CatalogueInput = {
  groups: catalogueSeed.groups.map((group, index) =>
    index === 0
      ? {
          ...group,
          services: [
            ...group.services,
            service(AUTOMATIC_LIKES, 'automatic_likes', (qty) => (qty * 0.2).toFixed(2), '9001'),
            service(DAILY_FOLLOWERS, 'daily_followers', (qty) => (qty * 0.6).toFixed(2), '9011'),
          ],
        }
      : group,
  ),
};
