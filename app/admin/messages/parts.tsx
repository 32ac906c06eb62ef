/** Pieces the inbox screens share: the status badge and the linked order's timeline. */
import type { TimelineEntry } from '../../../core/admin/contracts.ts';
import type { InboxStatus } from '../../../core/contact/inbox-contracts.ts';
import { formatAdminDate } from '../orders.tsx';

export function MessageStatusBadge({ status, testId }: { status: InboxStatus; testId?: string }) {
  return status === 'new' ? (
    <span
      data-testid={testId}
      className="inline-block rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-bold text-amber-900"
    >
      New
    </span>
  ) : (
    <span
      data-testid={testId}
      className="inline-block rounded-full bg-green-100 px-2.5 py-0.5 text-xs font-bold text-green-900"
    >
      Handled
    </span>
  );
}

/** A timeline entry's detail as one line of "key: value" pairs (the order page shows the full table). */
function detailLine(detail: Record<string, unknown>): string {
  return Object.entries(detail)
    .filter(([, value]) => value !== null && value !== undefined && value !== '')
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' · ');
}

/** The linked order's timeline, oldest first (compact: the order's own page has every detail). */
export function OrderTimeline({ entries, labelledBy }: { entries: TimelineEntry[]; labelledBy: string }) {
  if (entries.length === 0) return <p className="mt-3 text-sm text-gray-700">Nothing recorded yet.</p>;
  return (
    <ol
      aria-labelledby={labelledBy}
      data-testid="message-order-timeline"
      className="mt-4 space-y-0 border-l-2 border-brand-200 pl-5"
    >
      {entries.map((entry, index) => {
        const line = detailLine(entry.detail);
        return (
          <li key={`${entry.at}-${index}`} data-testid="message-timeline-entry" className="relative pb-4">
            <span
              aria-hidden="true"
              className="absolute top-1.5 -left-[27px] h-3 w-3 rounded-full border-2 border-white bg-brand-700"
            />
            <div className="flex flex-wrap items-baseline gap-x-3">
              <time dateTime={entry.at} className="text-sm text-gray-700 tabular-nums">
                {formatAdminDate(entry.at, true)}
              </time>
              <span className="font-mono text-sm font-semibold text-gray-900">{entry.kind}</span>
            </div>
            {line ? <p className="mt-1 text-sm break-words text-gray-700">{line}</p> : null}
          </li>
        );
      })}
    </ol>
  );
}
