import { useEffect, useState } from 'react';
import { type SaleBanner, saleBannerShowsOn } from '../../core/catalogue/sale-banner.ts';

export interface TopBarProps {
  /** The sale running when the page was rendered (decision 031); null: no banner at all. */
  sale: SaleBanner | null;
  /** The page's path: a sale on some services shows only on home and their pages. */
  pathname: string;
  /** The server's clock at render time (epoch ms), so server and client first render agree. */
  renderedAt: number;
}

function pad2(value: number): string {
  return String(value).padStart(2, '0');
}

/** "04 hr 49 min 05 sec"; negative or non-finite → zeros. Hours are at least two digits and may exceed 99. */
export function formatCountdown(ms: number): string {
  const totalSeconds = Number.isFinite(ms) && ms > 0 ? Math.floor(ms / 1000) : 0;
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  return `${pad2(hours)} hr ${pad2(minutes)} min ${pad2(seconds)} sec`;
}

/**
 * The sale banner with a live countdown to the sale's real end, shown only while a configured
 * sale runs and only on pages it applies to; it disappears when the countdown reaches zero. On a
 * page without framework JavaScript the plain page script does the same from `data-ends-at`.
 */
export function TopBar({ sale, pathname, renderedAt }: TopBarProps) {
  // The store's clock first (server and hydration agree, and tests may set it), then the browser's.
  const [now, setNow] = useState(sale?.at ?? renderedAt);
  const [ended, setEnded] = useState(false);
  const endsAt = sale?.endsAt ?? null;

  useEffect(() => {
    if (endsAt === null) return undefined;
    const tick = () => {
      const current = Date.now();
      setNow(current);
      if (current >= endsAt) setEnded(true);
      return current < endsAt;
    };
    if (!tick()) return undefined;
    const timer = window.setInterval(() => {
      if (!tick()) window.clearInterval(timer);
    }, 1000);
    return () => window.clearInterval(timer);
  }, [endsAt]);

  if (!sale || ended || !saleBannerShowsOn(sale, pathname)) return null;
  return (
    <section aria-label="Sale" data-testid="top-bar" className="bg-brand-900 text-white">
      <p className="mx-auto flex max-w-7xl flex-wrap items-center justify-center gap-x-3 gap-y-1 px-4 py-2 text-center text-sm">
        <span data-testid="sale-text" className="font-semibold">
          {sale.text}
        </span>
        <span>
          Ends in{' '}
          <span
            data-testid="countdown"
            // Pages without JavaScript framework tick with the plain script (app/plain-page-script.server.ts).
            data-ends-at={sale.endsAt}
            role="timer"
            aria-live="off"
            className="rounded-md bg-brand-800 px-2 py-0.5 font-mono font-semibold tabular-nums"
          >
            {formatCountdown(sale.endsAt - now)}
          </span>
        </span>
      </p>
    </section>
  );
}
