/**
 * An order's fulfilment state and kind in the owner's words, for the console's rows, the detail
 * and the CSV export. Browser-safe: the admin screens bundle it.
 */
import type { FulfilmentState, ServiceKind } from '../../db/column-values.ts';
import { SERVICE_KIND_LABELS } from '../subscriptions/terms.ts';

export const FULFILMENT_STATE_WORDS: Readonly<Record<FulfilmentState, string>> = {
  none: 'Not sent to the supplier yet',
  submitting: 'Being sent to the supplier',
  submitted: 'With the supplier',
  retry: 'Waiting to try the supplier again',
  needs_review: 'Needs a person to check the supplier',
  failed: 'Refused by the supplier',
  queued: 'Waiting for the order ahead of it on the same account',
};

/**
 * A queued order names the order it waits for ("Waiting for order #Abc123 on the same
 * account"); the holder is unknown only for the moment between one order leaving the lane and
 * the next one being woken.
 */
export function fulfilmentWords(state: FulfilmentState, queuedBehind: string | null): string {
  if (state === 'queued' && queuedBehind) return `Waiting for order #${queuedBehind} on the same account`;
  return FULFILMENT_STATE_WORDS[state];
}

export function kindWords(kind: ServiceKind): string {
  return SERVICE_KIND_LABELS[kind];
}
