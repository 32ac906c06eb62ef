import { REFILL_GUARANTEE_DAYS, type StoreInfo } from '../../../core/settings/store-info.ts';
import type { GuaranteeTerms } from './Guarantees.tsx';

/** The guarantee badges' figures, from the same settings the refund policy quotes (decision 025). */
export function guaranteeTerms(storeInfo: StoreInfo): GuaranteeTerms {
  return { refundHours: storeInfo.refundWindowHours, refillDays: REFILL_GUARANTEE_DAYS };
}
