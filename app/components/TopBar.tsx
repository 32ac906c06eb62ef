import { useEffect, useState } from 'react';

export interface TopBarProps {
  /** When the sale ends (epoch ms); null shows the banner without a countdown. */
  endsAt: number | null;
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

/** The flash-sale banner with a live countdown. */
export function TopBar({ endsAt, renderedAt }: TopBarProps) {
  const [now, setNow] = useState(renderedAt);

  useEffect(() => {
    if (endsAt === null) return undefined;
    const tick = () => {
      const current = Date.now();
      setNow(current);
      return current < endsAt;
    };
    if (!tick()) return undefined;
    const timer = window.setInterval(() => {
      if (!tick()) window.clearInterval(timer);
    }, 1000);
    return () => window.clearInterval(timer);
  }, [endsAt]);

  return (
    <section aria-label="Flash sale" data-testid="top-bar" className="bg-brand-900 text-white">
      <p className="mx-auto flex max-w-7xl flex-wrap items-center justify-center gap-x-3 gap-y-1 px-4 py-2 text-center text-sm">
        <span className="font-semibold">
          Flash sale: <span className="font-extrabold tracking-wide">50% OFF</span>
        </span>
        {endsAt === null ? null : (
          <span>
            Ends in{' '}
            <span
              data-testid="countdown"
              role="timer"
              aria-live="off"
              className="rounded-md bg-brand-800 px-2 py-0.5 font-mono font-semibold tabular-nums"
            >
              {formatCountdown(endsAt - now)}
            </span>
          </span>
        )}
      </p>
    </section>
  );
}
