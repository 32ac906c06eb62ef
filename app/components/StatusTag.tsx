/**
 * The one order status tag of every screen (confirmation, order history, admin). Spec section
 * 4: a status is shown as a lowercase hyphenated tag ("In Progress" → "in-progress"); an order
 * that is only created (not paid yet) reads "pending".
 */
export function statusTag(status: string): string {
  const tag = status
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-');
  if (!tag || tag === 'created' || tag === 'unpaid') return 'pending';
  return tag;
}

const TAG_STYLES: Readonly<Record<string, string>> = {
  completed: 'bg-green-100 text-green-900',
  'in-progress': 'bg-blue-100 text-blue-900',
  processing: 'bg-blue-100 text-blue-900',
  partial: 'bg-amber-100 text-amber-900',
  canceled: 'bg-red-100 text-red-900',
  pending: 'bg-gray-100 text-gray-900',
};

export function StatusTag({ status, testId }: { status: string; testId?: string | undefined }) {
  const tag = statusTag(status);
  return (
    <span
      data-testid={testId}
      className={`inline-block rounded-full px-3 py-1 text-xs font-bold whitespace-nowrap ${TAG_STYLES[tag] ?? TAG_STYLES.pending}`}
    >
      {tag}
    </span>
  );
}
