/**
 * The customer's e-mails about an order, as subscribers of the order events: the receipt when it
 * is paid, and one e-mail per notified status (In Progress, Completed, Partial, Canceled). Each
 * is rendered now and queued under a dedupe key (`receipt:<order>`,
 * `status-mail:<order>:<status>`), so a retried event sends nothing twice. The Completed e-mail
 * carries the order's review link (decision 039), made once per order in the same transaction.
 * Refunds: one e-mail per refund made (`refund-mail:<refund>`), and for a crypto refund the
 * single-use link that asks for the wallet address (`refund-address-mail:<refund>`).
 */
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { enqueueMail } from '../mail/send-mail-job.ts';
import { renderReceipt } from '../mail/templates/receipt.ts';
import { renderRefundAddressRequest, renderRefunded } from '../mail/templates/refund.ts';
import { renderStatusUpdate } from '../mail/templates/status-update.ts';
import { type AmountE4, e4ToNumber, formatMoney } from '../money/money.ts';
import { type Clock, systemClock } from '../clock.ts';
import { createReviewInvitation, reviewPath } from '../reviews/reviews.ts';
import type { OrderEventSubscriber } from '../orders/events.ts';
import {
  type SubscriptionRow,
  deliveryQuantityOfRow,
  progressOfRow,
  refundOwedForOrderE4,
  subscriptionOf,
} from '../orders/subscription-delivery.ts';
import { DEFAULT_POSTS_PER_PERIOD, END_REASON_TEXT, coverageText } from '../subscriptions/terms.ts';
import { isNotifiedStatus } from '../orders/status.ts';
import { publicOrderId } from '../orders/types.ts';

interface OrderMailsOptions {
  /** The store's public address, for the tracking link. */
  publicUrl: string;
  /** The store's clock: when a review link was made and expires. */
  now?: Clock;
}

/** "$2.99": the one money format of every screen and e-mail. */
const money = (amount: AmountE4, currency: string) => formatMoney(e4ToNumber(amount), currency);

function loadOrder(trx: Transaction<Database>, orderId: number) {
  return trx.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
}

function loadRefund(trx: Transaction<Database>, refundId: number) {
  return trx
    .selectFrom('refunds')
    .leftJoin('order_payments', 'order_payments.id', 'refunds.order_payment_id')
    .select(['refunds.amount_e4', 'refunds.origin', 'refunds.reason', 'order_payments.method'])
    .where('refunds.id', '=', refundId)
    .executeTakeFirstOrThrow();
}

/** An automatic-likes order's status e-mail speaks of posts served in the period. */
function automaticLikesFacts(row: SubscriptionRow) {
  return {
    coverage: coverageText(progressOfRow(row), row.ends_at),
    postsServed: row.posts_served ?? 0,
    posts: row.posts ?? DEFAULT_POSTS_PER_PERIOD,
    endReason: row.end_reason ? END_REASON_TEXT[row.end_reason] : null,
  };
}

export const refundMailKey = (refundId: number) => `refund-mail:${refundId}`;
export const refundAddressMailKey = (refundId: number) => `refund-address-mail:${refundId}`;

export function orderMailsSubscriber(options: OrderMailsOptions): OrderEventSubscriber {
  const trackingUrl = (providerOrderId: string) =>
    new URL(`/order-confirm/${publicOrderId(providerOrderId)}`, options.publicUrl).toString();

  return {
    name: 'order-mails',

    async onPaid(trx, event) {
      const order = await loadOrder(trx, event.orderId);
      // From the order's stored amounts, never today's catalogue: the receipt lists what was charged.
      const feeE4 = order.amount_e4 - order.price_e4;
      const receipt = renderReceipt({
        orderNumber: publicOrderId(order.provider_order_id),
        serviceName: order.service_name,
        target: order.target,
        quantity: order.quantity,
        amountText: money(order.amount_e4, order.currency),
        charges: {
          packagePriceText: money(order.price_e4, order.currency),
          feeText: feeE4 > 0 ? money(feeE4, order.currency) : null,
        },
        trackingUrl: trackingUrl(order.provider_order_id),
        email: order.email,
      });
      await enqueueMail(trx, { to: order.email, ...receipt }, { dedupeKey: `receipt:${order.id}` });
    },

    async onStatusChanged(trx, event) {
      const status = event.to;
      if (!isNotifiedStatus(status)) return;
      const order = await loadOrder(trx, event.orderId);
      // The refund the status calls for (the refund job makes it); nothing refunded before counts here.
      const refundE4 =
        status === 'Partial' || status === 'Canceled'
          ? await refundOwedForOrderE4(trx, { ...order, refunded_e4: 0 }, event.remains)
          : 0;
      // One review link per order; null when it exists already (this event was handled before, and
      // its e-mail is then deduplicated below).
      const reviewToken =
        status === 'Completed'
          ? await createReviewInvitation(trx, { orderId: order.id, now: (options.now ?? systemClock)() })
          : null;
      const subscription = order.kind === 'package' ? undefined : await subscriptionOf(trx, order.id);
      const mail = renderStatusUpdate({
        orderNumber: publicOrderId(order.provider_order_id),
        serviceName: order.service_name,
        target: order.target,
        // A daily-followers order's remains count against its whole drip-feed.
        quantity: deliveryQuantityOfRow(order, subscription),
        ...(subscription?.kind === 'automatic_likes' ? { automaticLikes: automaticLikesFacts(subscription) } : {}),
        status,
        remains: event.remains,
        refundText: refundE4 > 0 ? money(refundE4, order.currency) : null,
        refundInFull: refundE4 > 0 && refundE4 >= order.amount_e4,
        trackingUrl: trackingUrl(order.provider_order_id),
        reviewUrl: reviewToken ? new URL(reviewPath(reviewToken), options.publicUrl).toString() : null,
        email: order.email,
      });
      await enqueueMail(trx, { to: order.email, ...mail }, { dedupeKey: `status-mail:${order.id}:${status}` });
    },

    async onRefunded(trx, event) {
      const order = await loadOrder(trx, event.orderId);
      const refund = await loadRefund(trx, event.refundId);
      const mail = renderRefunded({
        orderNumber: publicOrderId(order.provider_order_id),
        serviceName: order.service_name,
        amountText: money(refund.amount_e4, order.currency),
        kind: refund.origin,
        // The automatic refund's reason is the order's status: the sentence already says why.
        reason: refund.origin === 'owner' ? refund.reason : null,
        toWallet: refund.method === 'crypto',
        trackingUrl: trackingUrl(order.provider_order_id),
        email: order.email,
      });
      await enqueueMail(trx, { to: order.email, ...mail }, { dedupeKey: refundMailKey(event.refundId) });
    },

    async onRefundAddressNeeded(trx, event) {
      const order = await loadOrder(trx, event.orderId);
      const refund = await loadRefund(trx, event.refundId);
      const mail = renderRefundAddressRequest({
        orderNumber: publicOrderId(order.provider_order_id),
        serviceName: order.service_name,
        amountText: money(refund.amount_e4, order.currency),
        refundUrl: new URL(`/refund/${event.token}`, options.publicUrl).toString(),
        email: order.email,
      });
      await enqueueMail(trx, { to: order.email, ...mail }, { dedupeKey: refundAddressMailKey(event.refundId) });
    },
  };
}
