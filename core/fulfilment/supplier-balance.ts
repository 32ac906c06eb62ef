/**
 * A supplier panel's balance for the owner's dashboard and the suppliers page (decisions 042,
 * 045): asked at most once a minute per panel and instance (a balance moves slowly, and panels
 * rate-limit), never cached when the panel does not answer, so the next look asks again. The
 * answer says when it was checked.
 */
import type { SupplierBalance } from './supplier.ts';

const BALANCE_CACHE_MS = 60_000;
export const BALANCE_UNAVAILABLE = 'The supplier panel did not answer the balance request. Try again in a minute.';

export type BalanceReading =
  { balance: string; currency: string; checkedAt: string } | { error: string; checkedAt: string };

export function createSupplierBalance(deps: {
  /** Asks the panel (`balance`). */
  ask: () => Promise<SupplierBalance>;
  now: () => Date;
  /** Where the reason of a failed request goes (the reading itself carries a plain sentence). */
  onError: (error: unknown) => void;
  /** Told every answer (the panel's currency is kept from it). */
  onAnswer?: ((answer: SupplierBalance) => Promise<void>) | undefined;
}): () => Promise<BalanceReading> {
  let last: { reading: BalanceReading; at: number } | null = null;
  return async () => {
    const at = deps.now().getTime();
    if (last && at - last.at < BALANCE_CACHE_MS) return last.reading;
    const checkedAt = new Date(at).toISOString();
    try {
      const answer = await deps.ask();
      last = { reading: { balance: answer.balance, currency: answer.currency, checkedAt }, at };
      await deps.onAnswer?.(answer).catch(deps.onError);
      return last.reading;
    } catch (error) {
      deps.onError(error);
      return { error: BALANCE_UNAVAILABLE, checkedAt };
    }
  };
}
