/**
 * The order page's lane notice (decision 057): before payment, the buyer learns that the target
 * they typed already has a live order of the same kind at this store, and that theirs will start
 * when it finishes (the store queues it: two never run on one link at the supplier). It says
 * nothing else about that order: no id, e-mail or package, only when it is expected to finish.
 *
 * One indexed read (orders_lane: lane_key first), the same on both dialects.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Catalogue } from '../catalogue/catalogue.ts';
import type { TargetKind } from '../catalogue/types.ts';
import { laneKeyOf } from '../subscriptions/lanes.ts';
import { DAY_MS, formatPeriodDate } from '../subscriptions/terms.ts';
import { parseTarget, storedTargetOf } from '../verification/parse.ts';
import { FINAL_STATUSES } from './status.ts';

/** More live orders than this on one link is not a case the expected date needs to be exact for. */
const LANE_READ_LIMIT = 50;

function nounOf(targetKind: TargetKind): string {
  if (targetKind === 'instagram_post_url') return 'post';
  if (targetKind === 'tiktok_post_url' || targetKind === 'youtube_video_url') return 'video';
  return 'account';
}

/** "This account already has an order of this kind running. Yours will start when it finishes, expected by 27 Dec 2026." */
export function laneNoticeText(targetKind: TargetKind, expectedBy: Date | null): string {
  const start = `This ${nounOf(targetKind)} already has an order of this kind running. Yours will start when it finishes`;
  return expectedBy ? `${start}, expected by ${formatPeriodDate(expectedBy)}.` : `${start}.`;
}

interface LiveOnLane {
  period_days: number | null;
  starts_at: string | null;
  ends_at: string | null;
  ended_at: string | null;
}

/**
 * When the live orders on a lane are expected to be done: the running subscription's end, plus a
 * whole period for each one waiting behind it. Unknown (null) when any of them is a one-off
 * package, whose end nobody can promise.
 */
export function expectedLaneEnd(live: readonly LiveOnLane[], now: Date): Date | null {
  let endMs = now.getTime();
  let waitingDays = 0;
  for (const order of live) {
    if (order.period_days === null) return null;
    const end = order.ended_at ?? order.ends_at;
    if (order.starts_at !== null && end !== null) endMs = Math.max(endMs, new Date(end).getTime());
    else waitingDays += order.period_days;
  }
  return new Date(endMs + waitingDays * DAY_MS);
}

export interface LaneNoticeDeps {
  db: Kysely<Database>;
  catalogue: Catalogue;
  now: () => Date;
}

/** The notice for this service and typed target, or null when its lane is free (or the target does not parse). */
export async function laneNotice(deps: LaneNoticeDeps, slug: string, typedTarget: string): Promise<string | null> {
  const service = await deps.catalogue.getService(slug.trim());
  if (!service) return null;
  const parsed = parseTarget(service.targetKind, typedTarget.trim());
  if (!parsed) return null;
  const laneKey = laneKeyOf(service.kind, service.targetKind, storedTargetOf(parsed));
  // Paid and not final covers the queued ones too (a queued order is paid and Pending).
  const live = await deps.db
    .selectFrom('orders')
    .leftJoin('subscriptions', 'subscriptions.order_id', 'orders.id')
    .select(['subscriptions.period_days', 'subscriptions.starts_at', 'subscriptions.ends_at', 'subscriptions.ended_at'])
    .where('orders.lane_key', '=', laneKey)
    .where('orders.payment_status', '=', 'paid')
    .where('orders.order_status', 'not in', [...FINAL_STATUSES])
    .orderBy('orders.id')
    .limit(LANE_READ_LIMIT)
    .execute();
  if (live.length === 0) return null;
  return laneNoticeText(service.targetKind, expectedLaneEnd(live, deps.now()));
}
