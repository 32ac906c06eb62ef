/**
 * The contact desk (decision 024): a message from the contact form is stored, linked to the
 * order it names only when that order belongs to the sender's e-mail, and mailed to support,
 * with a fixed acknowledgement to the sender; both e-mails go through the jobs outbox in the
 * same transaction as the message, so a stored message is always mailed and a failed one never.
 *
 * What the sender learns is the same in every case (own order, someone else's, unknown id, a
 * bot caught by the honeypot): the reply never tells whether an order exists or whose it is.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { type Clock, systemClock } from '../clock.ts';
import { enqueueMail } from '../mail/send-mail-job.ts';
import { providerOrderIdFrom, publicOrderId } from '../orders/types.ts';
import type { ContactMessageInput } from './contracts.ts';
import { contactSearchText } from './inbox-search-text.ts';
import { renderAcknowledgement, renderSupportMail } from './mails.ts';

/**
 * One acknowledgement per address per hour at most: the form can be sent with anyone's address,
 * and a flood of "we got your message" mails to a stranger is abuse even without a text in them.
 */
const ACKNOWLEDGEMENT_WINDOW_MS = 60 * 60 * 1000;

interface ContactDeskOptions {
  db: Kysely<Database>;
  /** The store's public origin: links in the e-mails. */
  publicUrl: string;
  /** Where messages go: the store settings' support address (core/settings/store-info.ts). */
  supportEmail: string;
  now?: Clock | undefined;
}

export type ContactOutcome =
  { stored: false; reason: 'honeypot' } | { stored: true; messageId: number; linkedOrderId: number | null };

export interface ContactDesk {
  /** Where support mail goes, also shown on the contact page. */
  readonly supportEmail: string;
  /** Stores and mails a validated message (core/contact/contracts.ts `ContactPayload`). */
  submit(input: ContactMessageInput): Promise<ContactOutcome>;
}

export function createContactDesk(options: ContactDeskOptions): ContactDesk {
  const { db, publicUrl, supportEmail } = options;
  const clock = options.now ?? systemClock;

  return {
    supportEmail,

    async submit(input) {
      // Bots fill every field; people never see this one. Same reply, nothing kept or sent.
      if (input.website?.trim()) return { stored: false, reason: 'honeypot' };
      const now = clock();
      const receivedAt = now.toISOString();

      return db.transaction().execute(async (trx) => {
        // Only an order of the sender's own address is linked (e-mail compared case-blind, as
        // mailboxes are in practice); anything else is kept as typed in the support mail only.
        const order = input.orderId
          ? await trx
              .selectFrom('orders')
              .select([
                'id',
                'provider_order_id',
                'service_name',
                'target',
                'order_status',
                'payment_status',
                'created_at',
              ])
              .where('provider_order_id', '=', providerOrderIdFrom(input.orderId))
              .where((eb) => eb(eb.fn('lower', ['email']), '=', input.email.toLowerCase()))
              .executeTakeFirst()
          : undefined;

        const row = await trx
          .insertInto('contact_messages')
          .values({
            email: input.email,
            order_id: order?.id ?? null,
            message: input.message,
            status: 'new',
            created_at: receivedAt,
            handled_at: null,
            // The admin inbox searches this one column (decision 026).
            search_text: contactSearchText({
              email: input.email,
              providerOrderId: order?.provider_order_id ?? null,
              message: input.message,
            }),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const messageId = Number(row.id);

        const supportMail = renderSupportMail({
          email: input.email,
          orderIdGiven: input.orderId,
          order: order
            ? {
                orderNumber: publicOrderId(order.provider_order_id),
                serviceName: order.service_name,
                target: order.target,
                orderStatus: order.order_status,
                paymentStatus: order.payment_status,
                createdAt: order.created_at,
                adminUrl: new URL(`/admin/orders/${publicOrderId(order.provider_order_id)}`, publicUrl).toString(),
              }
            : null,
          message: input.message,
          receivedAt,
        });
        await enqueueMail(
          trx,
          { to: supportEmail, ...supportMail, headers: { 'Reply-To': input.email } },
          { dedupeKey: `contact:${messageId}`, now },
        );

        const slot = Math.floor(now.getTime() / ACKNOWLEDGEMENT_WINDOW_MS);
        await enqueueMail(
          trx,
          { to: input.email, ...renderAcknowledgement({ publicUrl }), headers: { 'Auto-Submitted': 'auto-replied' } },
          { dedupeKey: `contact-ack:${input.email.toLowerCase()}:${slot}`, now },
        );
        return { stored: true as const, messageId, linkedOrderId: order?.id ?? null };
      });
    },
  };
}
