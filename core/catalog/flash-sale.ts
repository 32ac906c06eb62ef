const DAY_MS = 86_400_000;

/**
 * The flash sale's end: a fixed moment when the operator set one (null once it has passed,
 * which hides the countdown), otherwise the next midnight UTC, so the banner always counts
 * down to something true.
 */
export function flashSaleEnd(now: number, fixedEnd: number | null): number | null {
  if (fixedEnd !== null) return fixedEnd > now ? fixedEnd : null;
  return (Math.floor(now / DAY_MS) + 1) * DAY_MS;
}
