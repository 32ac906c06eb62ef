/**
 * Renewal without stored cards (decision 057). The store keeps no card, so nothing renews by
 * itself: 3 days before a subscription's period ends, the reminder job e-mails the customer a
 * single-use link that opens the order page for the same package and account at today's price.
 * The renewal is an ordinary order on the same lane, so the fulfilment queue starts it when the
 * current period ends; this module only links the two orders and lets the customer stop the
 * reminders.
 *
 * - The reminder job is recurring (once per slot across instances) and each subscription is
 *   reminded once: the compare-and-set on `reminder_sent_at` decides which run sends, and the
 *   e-mail is queued in the same transaction under a dedupe key.
 * - A token links the order made with it (`renewal_of_order_id`) when that order is created; the
 *   renewed order learns of its renewal (`renewed_by_order_id`) when the renewal is paid, by
 *   compare-and-set: the first paid renewal wins, a later one is an ordinary order.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Catalogue } from '../catalogue/catalogue.ts';
import { orderPath } from '../catalogue/order-path.ts';
import { isRefillTokenValid } from '../fulfilment/refills/tokens.ts';
import { defineRecurringJob } from '../jobs/recurring.ts';
import { enqueueMail } from '../mail/send-mail-job.ts';
import type { OrderEventSubscriber } from '../orders/events.ts';
import { findPackage } from '../orders/form-detail.ts';
import { providerOrderIdFrom, publicOrderId } from '../orders/types.ts';
import { REMINDER_MESSAGES, type ReminderStopView, type RenewalLinkView } from '../subscriptions/renewal-contracts.ts';
import { renderRenewalReminder } from '../subscriptions/renewal-mail.ts';
import {
  isRenewalTokenShape,
  isStaleRenewal,
  newRenewalToken,
  renewalTokenHash,
  subscriptionOfToken,
} from '../subscriptions/renewal-tokens.ts';
import { DAY_MS, coverageText, deliveryQuantityOf, isSubscriptionKind } from '../subscriptions/terms.ts';

export { RENEWAL_LINK_GRACE_MS } from '../subscriptions/renewal-tokens.ts';

export const RENEWAL_REMINDER_JOB = defineRecurringJob('subscriptions.renewal_reminders');
/** How often the job looks for subscriptions to remind: a reminder is late by at most this. */
export const RENEWAL_REMINDER_EVERY_MS = 10 * 60 * 1000;
/** The reminder goes out this long before the period ends. */
export const REMINDER_LEAD_MS = 3 * DAY_MS;
/** Reminders one run sends at most; the next run takes the rest. */
const REMINDER_BATCH = 200;

export interface RenewalDeps {
  db: Kysely<Database>;
  catalogue: Catalogue;
  publicUrl: string;
  /** The /client per-order proof's key (core/fulfilment/refills/tokens.ts). */
  tokenKey: string;
  now: () => Date;
}

export class RenewalError extends Error {
  /** Read by the API's error handler. */
  readonly expose = true;
  constructor(
    message: string,
    readonly statusCode: 400 | 403 | 404 | 409,
  ) {
    super(message);
    this.name = 'RenewalError';
  }
}

export function renewalMailKey(orderId: number): string {
  return `renewal-reminder:${orderId}`;
}

const numberFormat = new Intl.NumberFormat('en-US');

function deliveredText(row: {
  kind: string;
  per_unit: number;
  posts: number | null;
  posts_served: number | null;
  runs: number | null;
  runs_done: number | null;
}): string {
  if (row.kind === 'automatic_likes') {
    const served = row.posts_served ?? 0;
    return `Likes on ${numberFormat.format(served)} of up to ${numberFormat.format(row.posts ?? 0)} new posts`;
  }
  const runs = row.runs ?? 0;
  const delivered = Math.min(runs, row.runs_done ?? 0) * row.per_unit;
  const total = deliveryQuantityOf({ kind: 'daily_followers', perUnit: row.per_unit, runs });
  return `${numberFormat.format(delivered)} of ${numberFormat.format(total)} followers`;
}

/**
 * Reminds the running subscriptions that end within 3 days, each once: not ended, reminders on,
 * not reminded yet, not renewed. Safe to run twice or on two instances at once.
 */
export async function sendRenewalReminders(deps: RenewalDeps): Promise<{ sent: number }> {
  const now = deps.now();
  const base = deps.publicUrl.replace(/\/+$/, '');
  // subscriptions_running_ends (partial on ended_at is null): the running ones by their end.
  const due = await deps.db
    .selectFrom('subscriptions as s')
    .innerJoin('orders as o', 'o.id', 's.order_id')
    .select([
      's.order_id',
      's.kind',
      's.per_unit',
      's.posts',
      's.posts_served',
      's.runs',
      's.runs_done',
      's.delay_minutes',
      's.interval_minutes',
      's.period_days',
      's.ends_at',
      'o.provider_order_id',
      'o.email',
      'o.service_name',
      'o.target',
      'o.payment_status',
    ])
    .where('s.ended_at', 'is', null)
    .where('s.ends_at', '>', now.toISOString())
    .where('s.ends_at', '<=', new Date(now.getTime() + REMINDER_LEAD_MS).toISOString())
    .where('s.reminders', '=', 1)
    .where('s.reminder_sent_at', 'is', null)
    .where('s.renewed_by_order_id', 'is', null)
    .orderBy('s.ends_at')
    .limit(REMINDER_BATCH)
    .execute();

  let sent = 0;
  for (const row of due) {
    if (!isSubscriptionKind(row.kind) || row.ends_at === null || row.payment_status !== 'paid') continue;
    const endsAt = row.ends_at;
    const kind = row.kind;
    const token = newRenewalToken();
    const won = await deps.db.transaction().execute(async (trx) => {
      const claimed = await trx
        .updateTable('subscriptions')
        .set({ reminder_sent_at: now.toISOString(), renewal_token_hash: renewalTokenHash(token) })
        .where('order_id', '=', row.order_id)
        .where('reminder_sent_at', 'is', null)
        .where('reminders', '=', 1)
        .where('ended_at', 'is', null)
        .where('renewed_by_order_id', 'is', null)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) return false;
      const coverage = coverageText(
        {
          kind,
          perUnit: row.per_unit,
          periodDays: row.period_days,
          posts: row.posts,
          delayMinutes: row.delay_minutes,
          runs: row.runs,
          intervalMinutes: row.interval_minutes,
        },
        endsAt,
      );
      const mail = renderRenewalReminder({
        orderNumber: publicOrderId(row.provider_order_id),
        serviceName: row.service_name,
        kind,
        target: row.target,
        coverage,
        delivered: deliveredText(row),
        endsAt,
        periodDays: row.period_days,
        renewUrl: `${base}/renew/${token}`,
        stopUrl: `${base}/renew/${token}/stop`,
        email: row.email,
      });
      await enqueueMail(
        trx,
        { to: row.email, ...mail, headers: { 'List-Unsubscribe': `<${base}/renew/${token}/stop>` } },
        { dedupeKey: renewalMailKey(row.order_id), now },
      );
      return true;
    });
    if (won) sent += 1;
  }
  return { sent };
}

/**
 * Hears that a renewal was paid: the renewed order records it, once. A second paid order made
 * with the same link loses the compare-and-set and is unlinked: it is an ordinary order.
 */
export const renewalSubscriber: OrderEventSubscriber = {
  name: 'renewals',
  async onPaid(trx, event) {
    const renewal = await trx
      .selectFrom('subscriptions')
      .select('renewal_of_order_id')
      .where('order_id', '=', event.orderId)
      .executeTakeFirst();
    const renewedId = renewal?.renewal_of_order_id ?? null;
    if (renewedId === null) return;
    await trx
      .updateTable('subscriptions')
      .set({ renewed_by_order_id: event.orderId })
      .where('order_id', '=', renewedId)
      .where('renewed_by_order_id', 'is', null)
      .execute();
    const renewed = await trx
      .selectFrom('subscriptions')
      .select('renewed_by_order_id')
      .where('order_id', '=', renewedId)
      .executeTakeFirst();
    if (renewed?.renewed_by_order_id !== event.orderId)
      await trx
        .updateTable('subscriptions')
        .set({ renewal_of_order_id: null })
        .where('order_id', '=', event.orderId)
        .execute();
  },
};

/** What a renewal link leads to (the page at /renew/:token). */
export async function viewRenewalLink(deps: RenewalDeps, token: string): Promise<RenewalLinkView> {
  const found = await subscriptionOfToken(deps.db, token);
  if (!found) return { state: 'invalid' };
  if (found.renewed_by_order_id !== null) {
    const renewal = await deps.db
      .selectFrom('orders')
      .select('provider_order_id')
      .where('id', '=', found.renewed_by_order_id)
      .executeTakeFirst();
    if (renewal) {
      const orderNumber = publicOrderId(renewal.provider_order_id);
      return { state: 'used', orderNumber, confirmPath: `/order-confirm/${encodeURIComponent(orderNumber)}` };
    }
  }
  const service = await deps.catalogue.getService(found.service_slug);
  const servicePath = service ? `/service/${service.slug}` : null;
  if (isStaleRenewal(found.ends_at, deps.now()))
    return { state: 'expired', serviceName: found.service_name, servicePath };
  const lookup = await findPackage(deps.catalogue, {
    slug: found.service_slug,
    type: found.plan_type,
    qty: found.quantity,
  });
  // A package sold now as something else (a one-off) is not a renewal of the subscription.
  if (!lookup.ok || lookup.choice.service.kind !== found.kind)
    return { state: 'gone', serviceName: found.service_name, servicePath };
  const { service: sold, plan, tier } = lookup.choice;
  const query = new URLSearchParams({ target: found.target, renewal: token });
  return { state: 'open', orderPath: `${orderPath(sold.slug, tier.qty, plan.type)}&${query.toString()}` };
}

/** What the e-mail's "Stop renewal reminders" page shows before its button is pressed. */
export async function viewReminderStop(deps: RenewalDeps, token: string): Promise<ReminderStopView> {
  const found = await subscriptionOfToken(deps.db, token);
  if (!found) return { state: 'invalid' };
  return {
    state: 'open',
    orderId: publicOrderId(found.provider_order_id),
    serviceName: found.service_name,
    target: found.target,
    reminders: found.reminders === 1,
    ended: found.ended_at !== null,
  };
}

/**
 * Turns a subscription's renewal reminders on or off. The proof is the /client lookup's per-order
 * token or the e-mailed renewal link's token; a wrong one and an unknown order get the same 403,
 * so the endpoint says nothing about which orders exist.
 */
export async function setReminders(
  deps: RenewalDeps,
  request: { orderId: string; token: string; reminders: boolean },
): Promise<{ orderId: string; reminders: boolean; message: string }> {
  const order = await deps.db
    .selectFrom('orders')
    .select(['id', 'provider_order_id', 'email'])
    .where('provider_order_id', '=', providerOrderIdFrom(request.orderId.trim()))
    .executeTakeFirst();
  if (!order) throw new RenewalError(REMINDER_MESSAGES.badToken, 403);
  const token = request.token.trim();
  const proven = isRenewalTokenShape(token)
    ? (await subscriptionOfToken(deps.db, token))?.order_id === order.id
    : isRefillTokenValid(deps.tokenKey, deps.now().getTime(), token, order);
  if (!proven) throw new RenewalError(REMINDER_MESSAGES.badToken, 403);
  const subscription = await deps.db
    .selectFrom('subscriptions')
    .select(['ended_at', 'renewed_by_order_id'])
    .where('order_id', '=', order.id)
    .executeTakeFirst();
  if (!subscription) throw new RenewalError(REMINDER_MESSAGES.notSubscription, 409);
  if (subscription.ended_at !== null) throw new RenewalError(REMINDER_MESSAGES.ended, 409);
  if (request.reminders && subscription.renewed_by_order_id !== null)
    throw new RenewalError(REMINDER_MESSAGES.renewed, 409);
  await deps.db
    .updateTable('subscriptions')
    .set({ reminders: request.reminders ? 1 : 0 })
    .where('order_id', '=', order.id)
    .execute();
  return {
    orderId: publicOrderId(order.provider_order_id),
    reminders: request.reminders,
    message: request.reminders ? REMINDER_MESSAGES.on : REMINDER_MESSAGES.off,
  };
}

/** The use cases over one set of deps, for the API, the pages and the tests. */
export function createRenewals(deps: RenewalDeps) {
  return {
    sendReminders: () => sendRenewalReminders(deps),
    viewLink: (token: string) => viewRenewalLink(deps, token),
    viewStop: (token: string) => viewReminderStop(deps, token),
    setReminders: (request: { orderId: string; token: string; reminders: boolean }) => setReminders(deps, request),
  };
}

export type Renewals = ReturnType<typeof createRenewals>;
