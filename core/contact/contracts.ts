/**
 * The contact form's payload and reply (spec sections 3, 5 and 7), once: `POST /api/contact`
 * declares them (validation and the OpenAPI document) and the /contact page validates with the
 * same schema before sending. Browser-safe: no database, mail or Node imports.
 */
import { z } from 'zod';
import { UNSAFE_TEXT_MESSAGE, hasUnsafeCharacters, requiredEmail, requiredText } from '../form-fields.ts';

/** The spec's messages (section 5), 'Invalid Email ' with its trailing space. */
export const CONTACT_FORM_MESSAGES = {
  emailRequired: 'Email is required',
  emailInvalid: 'Invalid Email ',
  messageRequired: 'Message is required',
  messageTooLong: 'Message is too long (at most 5000 characters)',
  orderIdInvalid: 'Order ID must be at most 64 characters of text',
} as const;

/** The longest message taken (after trimming): a long complaint fits, a pasted book does not. */
export const MAX_CONTACT_MESSAGE_LENGTH = 5000;
/** Order ids are `order_` plus 14 characters; this leaves room for what a customer may paste. */
export const MAX_CONTACT_ORDER_ID_LENGTH = 64;

/** The one reply to every accepted message, whether or not the order was linked or a bot was turned away. */
export const CONTACT_SENT_MESSAGE = 'Thank you! Your message has been sent. We will reply to you by e-mail.';

export const ContactPayload = z.object({
  email: requiredEmail({ required: CONTACT_FORM_MESSAGES.emailRequired, invalid: CONTACT_FORM_MESSAGES.emailInvalid }),
  /** Optional: blank is the same as absent. */
  orderId: z
    .string({ error: CONTACT_FORM_MESSAGES.orderIdInvalid })
    .max(MAX_CONTACT_ORDER_ID_LENGTH, { error: CONTACT_FORM_MESSAGES.orderIdInvalid })
    .refine((value) => !hasUnsafeCharacters(value), { error: UNSAFE_TEXT_MESSAGE })
    .nullish()
    .transform((value) => value?.trim() || undefined),
  message: requiredText(CONTACT_FORM_MESSAGES.messageRequired, { multiline: true }).max(MAX_CONTACT_MESSAGE_LENGTH, {
    error: CONTACT_FORM_MESSAGES.messageTooLong,
  }),
  /**
   * The honeypot: a field people never see (hidden from view and from assistive technology) that
   * form-filling bots complete. Any text here is answered like a success and nothing is kept or sent.
   */
  website: z.string().max(2000).nullish(),
});
export type ContactPayloadInput = z.input<typeof ContactPayload>;
export type ContactMessageInput = z.output<typeof ContactPayload>;

export const ContactReplySchema = z.object({ isSuccessful: z.literal(true), message: z.string() });
