/**
 * Spec section 4: an order status is shown as a lowercase hyphenated tag ("In Progress" →
 * "in-progress"); an order that is only created (not paid yet) reads "pending".
 */
export function statusTag(status: string): string {
  const tag = status
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-');
  if (!tag || tag === 'created' || tag === 'unpaid') return 'pending';
  return tag;
}
