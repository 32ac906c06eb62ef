/**
 * What the customer typed on the order form, kept for this browser tab (sessionStorage) until
 * the order is paid (decision 033): a closed payment window, a failed payment's "Try again" or
 * a reload bring the form back as it was. Nothing is kept once a payment is verified, and the
 * tab's storage ends with the tab.
 */

const DRAFT_KEY = 'boostly:order-draft';

export interface OrderDraft {
  name: string;
  email: string;
  comment: string;
}

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    // Storage can be switched off (privacy settings): the form simply starts empty.
    return null;
  }
}

export function saveOrderDraft(draft: OrderDraft): void {
  try {
    storage()?.setItem(DRAFT_KEY, JSON.stringify(draft));
  } catch {
    // Full or refused storage only loses the convenience.
  }
}

export function readOrderDraft(): OrderDraft | null {
  try {
    const raw = storage()?.getItem(DRAFT_KEY);
    if (!raw) return null;
    const value = JSON.parse(raw) as Partial<Record<keyof OrderDraft, unknown>>;
    const text = (field: unknown) => (typeof field === 'string' ? field : '');
    return { name: text(value.name), email: text(value.email), comment: text(value.comment) };
  } catch {
    return null;
  }
}

/** The order was paid: the next order starts with an empty form. */
export function clearOrderDraft(): void {
  try {
    storage()?.removeItem(DRAFT_KEY);
  } catch {
    // Nothing to clear.
  }
}
