/**
 * The owner's payment method settings as the admin API and page see them: each configured method
 * with its provider and price change, and what a change may be. Browser-safe (the settings page
 * bundles it): no database imports.
 */
import { z } from 'zod';
import { ADJUSTMENT_MAX_PERCENT, ADJUSTMENT_MIN_PERCENT } from './methods.ts';
import { PAYMENT_METHOD_IDS, PROVIDER_IDS } from './provider.ts';

/** A discount deeper than this is asked about first: it sells every package well below its price. */
export const RISKY_DISCOUNT_PERCENT = 20;

/** The package whose price by each method the page shows: $10.00. */
export const PREVIEW_BASE_E4 = 100_000;

/** Whether a change is a discount deep enough to be asked about first. */
export function isRiskyAdjustment(percent: number): boolean {
  return percent < -RISKY_DISCOUNT_PERCENT;
}

const hasAtMostTwoDecimals = (value: number) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6;

const AdjustmentPercentSchema = z
  .number({ error: 'must be a number (percent)' })
  .min(ADJUSTMENT_MIN_PERCENT, `must be at least ${ADJUSTMENT_MIN_PERCENT}%`)
  .max(ADJUSTMENT_MAX_PERCENT, `must be at most ${ADJUSTMENT_MAX_PERCENT}%`)
  .refine(hasAtMostTwoDecimals, 'must have at most 2 decimals');

/** `PUT /api/admin/payment-methods`: the new price change of one or more methods, in percent. */
export const PaymentMethodsUpdateSchema = z.object({
  adjustments: z.strictObject(
    Object.fromEntries(PAYMENT_METHOD_IDS.map((id) => [id, AdjustmentPercentSchema.optional()])) as Record<
      (typeof PAYMENT_METHOD_IDS)[number],
      z.ZodOptional<typeof AdjustmentPercentSchema>
    >,
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `names a payment method this store does not have (the methods are ${PAYMENT_METHOD_IDS.join(', ')})`
          : 'must be an object of percents by payment method',
    },
  ),
});
export type PaymentMethodsUpdate = z.infer<typeof PaymentMethodsUpdateSchema>;

export const PaymentMethodSettingSchema = z.object({
  id: z.enum(PAYMENT_METHOD_IDS),
  /** The method's name, as buyers see it at checkout. */
  label: z.string(),
  detail: z.string(),
  provider: z.enum(PROVIDER_IDS),
  providerLabel: z.string(),
  /** Payments by this method are simulated (the keyless sandbox serves it). */
  testMode: z.boolean(),
  adjustmentPercent: z.number(),
  defaultAdjustmentPercent: z.number(),
  /** What the preview package costs by this method now. */
  previewCharge: z.number(),
});
export type PaymentMethodSetting = z.infer<typeof PaymentMethodSettingSchema>;

export const PaymentMethodSettingsSchema = z.object({
  methods: z.array(PaymentMethodSettingSchema),
  minPercent: z.number(),
  maxPercent: z.number(),
  riskyDiscountPercent: z.number(),
  /** The preview package's price before any change. */
  previewBase: z.number(),
});
export type PaymentMethodSettings = z.infer<typeof PaymentMethodSettingsSchema>;
