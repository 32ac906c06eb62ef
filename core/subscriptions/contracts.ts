/**
 * Cancelling a running subscription (automatic likes) or drip-feed (daily followers) over HTTP:
 * the customer's request from /client and the owner's from the order detail, and the one reply
 * both get. zod here, at the boundary; the rules are in core/subscriptions/cancel.ts. No database
 * imports: the pages import these types.
 */
import { z } from 'zod';

/**
 * `POST /api/order/subscription/cancel`: the order's public id and the token the verified
 * order-history lookup gave for that order (the same proof as `POST /api/order/refill`).
 */
export const CustomerSubscriptionCancelSchema = z.object({
  orderId: z.string().trim().min(1, 'orderId is required').max(100),
  token: z.string().trim().min(1, 'token is required').max(300),
});
export type CustomerSubscriptionCancel = z.input<typeof CustomerSubscriptionCancelSchema>;

/**
 * The reply of both cancel routes (`POST /api/order/subscription/cancel` and
 * `POST /api/admin/orders/:orderId/cancel-subscription`): `ended` once the supplier confirmed the
 * end (the refund by the rule follows on its own); false while the supplier has not confirmed it
 * yet. `message` is a sentence to show as it is.
 */
export const SubscriptionCancelResultSchema = z.object({
  ended: z.boolean(),
  message: z.string(),
});
export type SubscriptionCancelResult = z.infer<typeof SubscriptionCancelResultSchema>;

/** Who asked for the end: the customer (from /client) or the store (owner or support). */
export type SubscriptionCancelledBy = 'customer' | 'owner';

/** The sentences the routes answer with (4xx ones included). */
export const SUBSCRIPTION_CANCEL_MESSAGES = {
  badToken: 'This link has expired. Look up your orders again to cancel.',
  notFound: 'Order not found',
  notSubscription: 'This order is not a subscription.',
  notRunning: 'This subscription is not running, so there is nothing to cancel.',
  pending: 'A cancellation was already asked for; the supplier has not confirmed it yet.',
  askedNotConfirmed:
    'Cancellation asked: our supplier has not confirmed it yet. It ends when they do, and what was not served is refunded then.',
  unreachable: 'Our supplier could not be reached, so nothing was cancelled. Try again in a few minutes.',
  refused: (words: string) =>
    `Our supplier refused to cancel it ("${words}"). The store has been told and will sort it out with you.`,
} as const;
