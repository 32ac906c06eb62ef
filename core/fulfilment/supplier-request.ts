/**
 * What one `add` asks the supplier for, by the order's kind (decision 057): a one-off order's
 * undelivered quantity; automatic likes as one subscription (likes per post on each new post of
 * the stored username, for the period's posts, until the period's end); daily followers as one
 * drip-feed (per day, one run a day for the period). Pure: submit.ts reads the rows and sends.
 */
import type { Selectable } from 'kysely';
import type { OrdersTable } from '../../db/schema.ts';
import { type SupplierOrderFacts, undeliveredQuantity } from '../orders/progress.ts';
import type { SubscriptionRow } from '../orders/subscription-delivery.ts';
import { DAILY_INTERVAL_MINUTES, deliveryQuantityOf, periodEnd } from '../subscriptions/terms.ts';
import type { NewSupplierOrder } from './supplier.ts';

export interface SupplierRequest {
  order: NewSupplierOrder;
  /** The units the supplier order counts: its `remains` is of this (supplier_orders.quantity). */
  quantity: number;
  /** A subscription's period, when this `add` starts it. */
  period: { startsAt: string; endsAt: string } | null;
}

/** The order's comment field holds one supplier comment per line (custom comments services). */
function supplierComments(comment: string | null): string[] | undefined {
  if (!comment) return undefined;
  return comment
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

/** A subscription order without its terms cannot be sent: nothing says what to ask for. */
export class MissingTermsError extends Error {}

/**
 * The `add` for the order, or null when nothing is left to send (everything delivered; a
 * subscription whose period is over or whose posts were all served). `earlier` are the order's
 * supplier orders so far (a resend after a cancel sends only the rest, within the same period).
 */
export function supplierRequestFor(
  order: Pick<Selectable<OrdersTable>, 'kind' | 'quantity' | 'supplier_service_id' | 'target' | 'comment'>,
  subscription: SubscriptionRow | undefined,
  earlier: readonly SupplierOrderFacts[],
  now: Date,
): SupplierRequest | null {
  if (order.kind === 'package') {
    const quantity = undeliveredQuantity(order.quantity, earlier);
    if (quantity <= 0) return null;
    const comments = supplierComments(order.comment);
    return {
      order: { service: order.supplier_service_id, link: order.target, quantity, comments },
      quantity,
      period: null,
    };
  }
  if (!subscription) throw new MissingTermsError('This subscription order has no terms to send');
  // The period runs from the first time it reached the supplier; a resend keeps it.
  const startsAt = subscription.starts_at ?? now.toISOString();
  const endsAt = subscription.ends_at ?? periodEnd(new Date(startsAt), subscription.period_days).toISOString();
  const period = subscription.starts_at === null ? { startsAt, endsAt } : null;
  if (new Date(endsAt).getTime() <= now.getTime()) return null;

  if (order.kind === 'automatic_likes') {
    const posts = (subscription.posts ?? 1) - (earlier.length > 0 ? (subscription.posts_served ?? 0) : 0);
    if (posts <= 0) return null;
    return {
      order: {
        kind: 'subscription',
        service: order.supplier_service_id,
        username: order.target,
        min: subscription.per_unit,
        max: subscription.per_unit,
        posts,
        delay: subscription.delay_minutes ?? 0,
        expiry: new Date(endsAt),
      },
      quantity: subscription.per_unit,
      period,
    };
  }

  const total = deliveryQuantityOf({
    kind: 'daily_followers',
    perUnit: subscription.per_unit,
    runs: subscription.runs,
  });
  const undelivered = undeliveredQuantity(total, earlier);
  if (undelivered <= 0) return null;
  // Whole days only: a resend rounds the rest up to a whole run rather than short a day.
  const runs = Math.ceil(undelivered / subscription.per_unit);
  return {
    order: {
      kind: 'drip-feed',
      service: order.supplier_service_id,
      link: order.target,
      quantity: subscription.per_unit,
      runs,
      interval: subscription.interval_minutes ?? DAILY_INTERVAL_MINUTES,
    },
    quantity: subscription.per_unit * runs,
    period,
  };
}
