/**
 * The owner's price change per payment method (core/payments/methods.ts keeps it in `settings`):
 * the configured methods as the settings page shows them, and saving new values. The checkout
 * reads the values at every form and order, so a saved change prices the next one.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { type AuditSink, changedFields } from '../audit/audit.ts';
import { e4ToNumber } from '../money/money.ts';
import {
  PREVIEW_BASE_E4,
  type PaymentMethodSettings,
  type PaymentMethodsUpdate,
  RISKY_DISCOUNT_PERCENT,
} from './method-settings-contracts.ts';
import {
  ADJUSTMENT_MAX_PERCENT,
  ADJUSTMENT_MIN_PERCENT,
  PAYMENT_METHODS,
  PROVIDER_LABELS,
  type PaymentGateways,
  adjustedAmountE4,
  loadMethodAdjustments,
  saveMethodAdjustment,
} from './methods.ts';
import { PAYMENT_METHOD_IDS, type PaymentMethodId } from './provider.ts';

export interface MethodSettingsDeps {
  db: Kysely<Database>;
  gateways: PaymentGateways;
}

/** A method the store does not offer: the field at fault and why, for a 400. */
export class MethodSettingsError extends Error {
  /** Read by the API's error handler. */
  readonly expose = true;
  readonly statusCode = 400;
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
    this.name = 'MethodSettingsError';
  }
}

export async function listMethodSettings(deps: MethodSettingsDeps): Promise<PaymentMethodSettings> {
  const adjustments = await loadMethodAdjustments(deps.db);
  return {
    methods: deps.gateways.methods.flatMap((id) => {
      const provider = deps.gateways.providerFor(id);
      if (!provider) return [];
      const percent = adjustments[id];
      return [
        {
          id,
          label: PAYMENT_METHODS[id].label,
          detail: PAYMENT_METHODS[id].detail,
          provider: provider.id,
          providerLabel: PROVIDER_LABELS[provider.id],
          testMode: provider.id === 'sandbox',
          adjustmentPercent: percent,
          defaultAdjustmentPercent: PAYMENT_METHODS[id].defaultAdjustmentPercent,
          previewCharge: e4ToNumber(adjustedAmountE4(PREVIEW_BASE_E4, percent).amountE4),
        },
      ];
    }),
    minPercent: ADJUSTMENT_MIN_PERCENT,
    maxPercent: ADJUSTMENT_MAX_PERCENT,
    riskyDiscountPercent: RISKY_DISCOUNT_PERCENT,
    previewBase: e4ToNumber(PREVIEW_BASE_E4),
  };
}

/**
 * Saves the given methods' price changes together (all or none), and reports to `audit` the
 * values that changed, by the methods' names. The bounds and decimals are the contract's
 * (PaymentMethodsUpdateSchema); a method the store does not offer is refused here.
 */
export async function saveMethodSettings(
  deps: MethodSettingsDeps,
  update: PaymentMethodsUpdate,
  audit?: AuditSink,
): Promise<PaymentMethodSettings> {
  const changes = PAYMENT_METHOD_IDS.flatMap((id): { id: PaymentMethodId; percent: number }[] => {
    const percent = update.adjustments[id];
    return percent === undefined ? [] : [{ id, percent }];
  });
  for (const { id } of changes) {
    if (!deps.gateways.methods.includes(id)) {
      throw new MethodSettingsError(
        `${PAYMENT_METHODS[id].label} is not offered by this store, so it has no price change to set`,
        `adjustments.${id}`,
      );
    }
  }
  const before = await loadMethodAdjustments(deps.db);
  await deps.db.transaction().execute(async (trx) => {
    for (const { id, percent } of changes) await saveMethodAdjustment(trx, id, percent);
  });
  const words = (values: Partial<Record<PaymentMethodId, number>>) =>
    Object.fromEntries(changes.map(({ id }) => [PAYMENT_METHODS[id].label, `${values[id] ?? 0}%`]));
  audit?.(changedFields(words(before), words(Object.fromEntries(changes.map(({ id, percent }) => [id, percent])))));
  return listMethodSettings(deps);
}
