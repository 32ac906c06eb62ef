/**
 * What the order page's form needs for one package (spec "Order page" and section 3, "Service
 * page data for ordering"), and the lookup rules shared with order creation.
 */
import type { z } from 'zod';
import type { Catalogue } from '../catalogue/catalogue.ts';
import { chargeAmountE4 } from '../catalogue/pricing.ts';
import type { PlanView, PriceTierView, ServiceView, TargetKind } from '../catalogue/types.ts';
import { e4ToNumber, numberToE4 } from '../money/money.ts';
import { PAYMENT_METHODS, type PaymentGateways, adjustedAmountE4 } from '../payments/methods.ts';
import type { PaymentMethodId } from '../payments/provider.ts';
import type { OrderFormDetailSchema, PaymentMethodOption } from './contracts.ts';
import { formSubscriptionOf, tierWordsOf } from './form-subscription.ts';

export const ORDER_PAGE_MESSAGES = {
  invalidParams: 'Invalid URL parameters!',
  packageUnavailable: 'Package details not available',
  packageNotFound: 'Selected package not found',
} as const;

export interface TargetField {
  title: string;
  placeholder: string;
  icon: string;
}

/** The target input's title, placeholder and icon for each kind of target. */
export const TARGET_FIELDS: Record<TargetKind, TargetField> = {
  youtube_video_url: {
    title: 'YouTube Video URL',
    placeholder: 'https://www.youtube.com/watch?v=…',
    icon: '/images/groups/youtube.svg',
  },
  instagram_username: {
    title: 'Instagram Username',
    placeholder: 'yourusername (without @)',
    icon: '/images/groups/instagram.svg',
  },
  instagram_post_url: {
    title: 'Instagram Post URL',
    placeholder: 'https://www.instagram.com/p/…',
    icon: '/images/groups/instagram.svg',
  },
  tiktok_username: {
    title: 'TikTok Username',
    placeholder: 'yourusername (without @)',
    icon: '/images/groups/tiktok.svg',
  },
  tiktok_post_url: {
    title: 'TikTok Post URL',
    placeholder: 'https://www.tiktok.com/@user/video/…',
    icon: '/images/groups/tiktok.svg',
  },
};

export const COMMENT_FIELD: TargetField = {
  title: 'Comments',
  placeholder: 'One comment per line',
  icon: '/images/icons/comment.svg',
};

export interface PackageChoice {
  service: ServiceView;
  plan: PlanView;
  tier: PriceTierView;
}

export type PackageLookup = { ok: true; choice: PackageChoice } | { ok: false; status: 400 | 404; message: string };

/** Finds the package an order URL names: slug, plan type (case-insensitive) and quantity. */
export async function findPackage(
  catalogue: Catalogue,
  params: {
    slug?: string | null | undefined;
    qty?: string | number | null | undefined;
    type?: string | null | undefined;
  },
): Promise<PackageLookup> {
  const slug = params.slug?.toString().trim();
  const type = params.type?.toString().trim();
  const qtyText = params.qty?.toString().trim();
  if (!slug || !type || !qtyText) return { ok: false, status: 400, message: ORDER_PAGE_MESSAGES.invalidParams };
  const qty = Number(qtyText);
  if (!Number.isInteger(qty) || qty <= 0) return { ok: false, status: 400, message: ORDER_PAGE_MESSAGES.invalidParams };

  const service = await catalogue.getService(slug);
  const plan = service?.plans.find((p) => p.type.toLowerCase() === type.toLowerCase());
  if (!service || !plan) return { ok: false, status: 404, message: ORDER_PAGE_MESSAGES.packageUnavailable };
  const tier = plan.list.find((t) => t.qty === qty);
  if (!tier) return { ok: false, status: 404, message: ORDER_PAGE_MESSAGES.packageNotFound };
  return { ok: true, choice: { service, plan, tier } };
}

/** What the order form needs for one package (the reply of `POST /api/order/form-detail`). */
export type OrderFormDetail = z.infer<typeof OrderFormDetailSchema>;

/** The checkout's payment methods as they stand: which are offered, and the owner's adjustments. */
export interface CheckoutMethods {
  gateways: PaymentGateways;
  adjustments: Readonly<Record<PaymentMethodId, number>>;
}

/** Each offered method with its price for a package charged `chargeE4` before any adjustment. */
export function paymentMethodOptions(methods: CheckoutMethods, chargeE4: number): PaymentMethodOption[] {
  return methods.gateways.methods.map((id) => {
    const percent = methods.adjustments[id];
    return {
      id,
      label: PAYMENT_METHODS[id].label,
      detail: PAYMENT_METHODS[id].detail,
      adjustmentPercent: percent,
      charge: e4ToNumber(adjustedAmountE4(chargeE4, percent).amountE4),
      default: id === methods.gateways.defaultMethod,
    };
  });
}

export function toFormDetail({ service, plan, tier }: PackageChoice, methods: CheckoutMethods): OrderFormDetail {
  const chargeE4 = chargeAmountE4(numberToE4(tier.price));
  // A subscription's tiers are per post or per day: the picker says so, whatever the tier's label.
  const words = tierWordsOf(service);
  const subscription = formSubscriptionOf(service, tier.qty);
  return {
    serviceId: service.slug,
    name: service.name,
    targetKind: service.targetKind,
    commentRequired: service.commentRequired,
    planType: plan.type,
    planTitle: plan.title,
    currency: plan.currency,
    fields: [
      TARGET_FIELDS[service.targetKind],
      { title: 'Email', placeholder: 'you@example.com' },
      // listPrice: during a sale, the price before it, struck through in the quantity dropdown (decision 038).
      {
        list: plan.list.map(({ qty, text, price, listPrice }) => ({
          qty,
          text: words ? words(qty) : text,
          price,
          ...(listPrice !== undefined ? { listPrice } : {}),
        })),
      },
      ...(service.commentRequired ? [COMMENT_FIELD] : []),
    ],
    selected: { ...tier, ...(words ? { text: words(tier.qty) } : {}), charge: e4ToNumber(chargeE4) },
    paymentMethods: paymentMethodOptions(methods, chargeE4),
    testMode: methods.gateways.testMode,
    ...(subscription ? { subscription } : {}),
  };
}

export type OrderFormLookup = { ok: true; detail: OrderFormDetail } | { ok: false; status: 400 | 404; message: string };

/** The order page's form for the package an order URL names, or the spec's message why there is none. */
export async function lookUpOrderForm(
  catalogue: Catalogue,
  params: {
    slug?: string | null | undefined;
    qty?: string | number | null | undefined;
    type?: string | null | undefined;
  },
  methods: () => Promise<CheckoutMethods>,
): Promise<OrderFormLookup> {
  const lookup = await findPackage(catalogue, params);
  return lookup.ok ? { ok: true, detail: toFormDetail(lookup.choice, await methods()) } : lookup;
}
