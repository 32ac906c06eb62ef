/**
 * Renewal links and reminders as the pages and the API see them: the request and reply of
 * `POST /api/order/subscription/reminders`, what a renewal link's page says, and the messages.
 * Browser-safe (zod only): /client, the renewal pages and the API import it.
 */
import { z } from 'zod';

export const REMINDER_MESSAGES = {
  badToken:
    'This link or page has expired. Look your orders up again on the Client page, or use the link in our e-mail.',
  notSubscription: 'This order is not a subscription, so it has no renewal reminders.',
  ended: 'This subscription has ended, so there is nothing to remind you of.',
  renewed: 'This subscription has been renewed already; the new order sends its own reminder.',
  on: 'Renewal reminders are on: 3 days before the end we e-mail you a link to renew.',
  off: 'Renewal reminders are off: we will not e-mail you about renewing this subscription.',
} as const;

/**
 * `POST /api/order/subscription/reminders`. `token` is the proof that the caller reads this
 * customer's mail: the per-order token a verified /client lookup hands out (the refill proof), or
 * the renewal link's token from the reminder e-mail.
 */
export const SubscriptionRemindersBodySchema = z.object({
  orderId: z.string().trim().min(1, 'orderId is required').max(100),
  token: z.string().trim().min(1, 'token is required').max(300),
  reminders: z.boolean({ error: 'reminders must be true or false' }),
});
export type SubscriptionRemindersBody = z.input<typeof SubscriptionRemindersBodySchema>;

export const SubscriptionRemindersReplySchema = z.object({
  orderId: z.string(),
  reminders: z.boolean(),
});
export type SubscriptionRemindersReply = z.infer<typeof SubscriptionRemindersReplySchema>;

/**
 * What `/renew/:token` finds. open: the order page to send the buyer to; used: the renewal was
 * made (its confirmation page); gone: the service or its package is no longer sold; expired: the
 * link is too old to renew the same period; invalid: no such link.
 */
export type RenewalLinkView =
  | { state: 'open'; orderPath: string }
  | { state: 'used'; orderNumber: string; confirmPath: string }
  | { state: 'gone'; serviceName: string; servicePath: string | null }
  | { state: 'expired'; serviceName: string; servicePath: string | null }
  | { state: 'invalid' };

/** What `/renew/:token/stop` shows before its button is pressed. */
export type ReminderStopView =
  | { state: 'open'; orderId: string; serviceName: string; target: string; reminders: boolean; ended: boolean }
  | { state: 'invalid' };
