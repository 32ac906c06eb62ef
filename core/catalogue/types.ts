/** The catalogue as the store and the spec's API see it (spec section 3). */
import type { ServiceKind, ServiceTerms } from '../subscriptions/terms.ts';

export const PLAN_TYPES = ['Standard', 'Popular', 'Exclusive'] as const;
export type PlanType = (typeof PLAN_TYPES)[number];

/** What the order form asks the buyer for; decides the input's title, placeholder, icon and check. */
export const TARGET_KINDS = [
  'youtube_video_url',
  'instagram_username',
  'instagram_post_url',
  'tiktok_username',
  'tiktok_post_url',
] as const;
export type TargetKind = (typeof TARGET_KINDS)[number];

/** Wire shape of a price tier: `price` is a number in the plan's currency, as in the spec. */
export interface PriceTierView {
  qty: number;
  text: string;
  price: number;
  /**
   * Percent, 0–99: the bulk saving against the plan's smallest tier at its price per unit, never
   * more than the prices show (see bulkDiscountPercent).
   */
  discount: number;
  /** While a sale covers the tier: its price before the sale (`price` is then the sale price). */
  listPrice?: number;
}

export interface PlanView {
  type: PlanType;
  title: string;
  icon: string;
  currency: string;
  option: { name: string }[];
  list: PriceTierView[];
}

export interface ServiceView {
  slug: string;
  name: string;
  /** Sanitised HTML. */
  title: string;
  description: string;
  image: string;
  targetKind: TargetKind;
  commentRequired: boolean;
  /** What the service sells: a one-off package, or a subscription kind (decision 057). */
  kind: ServiceKind;
  /** A subscription kind's terms; absent for packages. A tier's qty is per post or per day. */
  terms?: ServiceTerms;
  plans: PlanView[];
}

export interface ServiceGroupView {
  slug: string;
  title: string;
  image: string;
  services: { name: string; slug: string }[];
}

/** `GET /api/services/{slug}`: the group's services in full, and which slug was asked for. */
export interface GroupDetailView {
  group: { slug: string; title: string; image: string };
  /** The service the slug named, or the group's first service when the slug named the group. */
  selected: string;
  services: ServiceView[];
}

/** Input for writing the catalogue (seed now, admin editor later). Prices are decimal strings. */
export interface CatalogueInput {
  groups: {
    slug: string;
    title: string;
    image: string;
    services: {
      slug: string;
      name: string;
      titleHtml: string;
      description: string;
      image: string;
      targetKind: TargetKind;
      commentRequired: boolean;
      /** Omitted: a one-off package. */
      kind?: ServiceKind;
      terms?: ServiceTerms;
      plans: {
        type: PlanType;
        title: string;
        icon: string;
        currency: string;
        options: string[];
        tiers: {
          qty: number;
          text: string;
          /** Decimal string with at most 4 decimals, e.g. "2.99". */
          price: string;
          discount: number;
          /** The supplier panel's service id this tier is fulfilled with. */
          supplierServiceId: string;
        }[];
      }[];
    }[];
  }[];
}
