/**
 * The supplier panel's balance for the owner's dashboard (decision 042): asked at most once a
 * minute per instance (a balance moves slowly, and the panel rate-limits), never cached when the
 * panel does not answer, so the next look asks again. The answer says when it was checked.
 */
import type { SupplierPanel } from './supplier.ts';

const BALANCE_CACHE_MS = 60_000;
export const BALANCE_UNAVAILABLE = 'The supplier panel did not answer the balance request. Try again in a minute.';

export type BalanceReading =
  { balance: string; currency: string; checkedAt: string } | { error: string; checkedAt: string };

export function createSupplierBalance(deps: {
  supplier: SupplierPanel;
  now: () => Date;
  /** Where the reason of a failed request goes (the reading itself carries a plain sentence). */
  onError: (error: unknown) => void;
}): () => Promise<BalanceReading> {
  let last: { reading: BalanceReading; at: number } | null = null;
  return async () => {
    const at = deps.now().getTime();
    if (last && at - last.at < BALANCE_CACHE_MS) return last.reading;
    const checkedAt = new Date(at).toISOString();
    try {
      const answer = await deps.supplier.balance();
      last = { reading: { balance: answer.balance, currency: answer.currency, checkedAt }, at };
      return last.reading;
    } catch (error) {
      deps.onError(error);
      return { error: BALANCE_UNAVAILABLE, checkedAt };
    }
  };
}
