/**
 * Lanes (decision 057): panels refuse refunds and recounts while two orders run on one link, and
 * drip-feed orders on one link conflict, so the store sends one order per link at a time. An
 * order's lane is its link in normal form (the stored target: usernames lower-cased, URLs
 * canonical) with the kind of delivery: automatic likes act on the posts an account publishes,
 * not on the account's link, so they have lanes of their own and never hold back a followers
 * order for a month.
 */
import type { ServiceKind } from '../../db/column-values.ts';

export function laneKeyOf(kind: ServiceKind, targetKind: string, storedTarget: string): string {
  return `${kind === 'automatic_likes' ? 'new-posts' : 'link'}:${targetKind}:${storedTarget}`;
}
