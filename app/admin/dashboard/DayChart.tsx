import { useEffect, useRef, useState } from 'react';
import type uPlot from 'uplot';

/**
 * One chart of the owner's dashboard: values per UTC day, drawn by uPlot (a small canvas chart
 * library) after the page has loaded. uPlot and its stylesheet are imported here, inside an
 * effect, so they load only when the dashboard shows a chart: never on public pages, and not
 * with the rest of the admin. The same numbers are in a table under the chart (screen readers
 * and keyboard users read that; the canvas itself is hidden from them).
 */

export interface DaySeries {
  label: string;
  values: number[];
  /** A CSS colour for the line or bars. */
  color: string;
  /** Bars (counts) or a line (money). */
  kind: 'bars' | 'line';
}

/** What the values are: counts, or money in the orders' currency (an ISO code such as "USD", or a symbol). */
export type ChartUnit = { kind: 'count' } | { kind: 'money'; currency: string };

export function formatUnit(unit: ChartUnit, value: number): string {
  if (unit.kind === 'count') return value.toLocaleString('en-US', { maximumFractionDigits: 0 });
  if (/^[A-Z]{3}$/.test(unit.currency)) {
    return value.toLocaleString('en-US', { style: 'currency', currency: unit.currency });
  }
  return `${unit.currency}${value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

export function DayChart({
  title,
  days,
  series,
  unit,
  testId,
}: {
  title: string;
  /** YYYY-MM-DD, oldest first. */
  days: string[];
  series: DaySeries[];
  unit: ChartUnit;
  testId: string;
}) {
  const holder = useRef<HTMLDivElement>(null);
  const [drawn, setDrawn] = useState(false);
  const format = (value: number) => formatUnit(unit, value);
  // The chart is drawn again only when what it shows changes, not on every render of the page
  // (which passes new arrays each time): the effect depends on this text and reads it back.
  const drawing = JSON.stringify({ days, series, unit });

  useEffect(() => {
    const { days, series, unit } = JSON.parse(drawing) as { days: string[]; series: DaySeries[]; unit: ChartUnit };
    const format = (value: number) => formatUnit(unit, value);
    const element = holder.current;
    if (!element) return undefined;
    let chart: uPlot | null = null;
    let observer: ResizeObserver | null = null;
    let cancelled = false;
    void Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')]).then(([{ default: UPlot }]) => {
      if (cancelled) return;
      const x = days.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000);
      const bars = UPlot.paths.bars?.({ size: [0.6, 48] });
      chart = new UPlot(
        {
          width: Math.max(200, element.clientWidth),
          height: 220,
          tzDate: (ts) => UPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
          legend: { show: true },
          cursor: { drag: { x: false, y: false } },
          scales: { x: { time: true } },
          axes: [
            { stroke: '#374151', grid: { stroke: '#e5e7eb' } },
            { stroke: '#374151', grid: { stroke: '#e5e7eb' }, values: (_, ticks) => ticks.map(format), size: 64 },
          ],
          series: [
            { value: (_, ts) => (ts == null ? '' : new Date(ts * 1000).toISOString().slice(0, 10)) },
            ...series.map((s) => ({
              label: s.label,
              stroke: s.color,
              width: s.kind === 'line' ? 2 : 0,
              ...(s.kind === 'bars' ? { fill: s.color, ...(bars ? { paths: bars } : {}) } : {}),
              value: (_: uPlot, value: number | null) => (value == null ? '' : format(value)),
            })),
          ],
        },
        [x, ...series.map((s) => s.values)],
        element,
      );
      setDrawn(true);
      observer = new ResizeObserver(() => chart?.setSize({ width: Math.max(200, element.clientWidth), height: 220 }));
      observer.observe(element);
    });
    return () => {
      cancelled = true;
      observer?.disconnect();
      chart?.destroy();
    };
  }, [drawing]);

  return (
    <figure className="min-w-0 rounded-2xl border border-gray-200 bg-white p-4" data-testid={testId}>
      <figcaption className="text-base font-bold text-gray-900">{title}</figcaption>
      <div
        ref={holder}
        aria-hidden="true"
        className="mt-3 min-h-[220px] w-full overflow-hidden"
        data-drawn={drawn ? 'true' : 'false'}
      />
      <details className="mt-2 text-sm">
        <summary className="cursor-pointer font-semibold text-brand-800">Show the numbers</summary>
        <div className="mt-2">
          <table className="w-full text-left">
            <caption className="sr-only">{title}, per day</caption>
            <thead>
              <tr>
                <th scope="col" className="py-1 pr-3">
                  Day
                </th>
                {series.map((s) => (
                  <th key={s.label} scope="col" className="py-1 pr-3 text-right">
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {days.map((day, i) => (
                <tr key={day} className="border-t border-gray-100">
                  <th scope="row" className="py-1 pr-3 font-normal">
                    {day}
                  </th>
                  {series.map((s) => (
                    <td key={s.label} className="py-1 pr-3 text-right tabular-nums">
                      {format(s.values[i] ?? 0)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
