/**
 * The contact form's payload and reply (spec sections 3, 5 and 7), once: `POST /api/contact`
 * declares them (validation and the OpenAPI document) and the /contact page validates with the
 * same rules in the browser without zod (./form-check.ts). Browser-safe: no database, mail or Node imports.
 */
import { z } from 'zod';
import { UNSAFE_TEXT_MESSAGE, hasUnsafeCharacters, requiredEmail, requiredText } from '../form-fields.ts';
// The limits and messages live in ./rules.ts, which the browser's check (./form-check.ts) reads without zod.
import {
  CONTACT_FORM_MESSAGES,
  CONTACT_SENT_MESSAGE,
  MAX_CONTACT_MESSAGE_LENGTH,
  MAX_CONTACT_ORDER_ID_LENGTH,
} from './rules.ts';

export { CONTACT_FORM_MESSAGES, CONTACT_SENT_MESSAGE, MAX_CONTACT_MESSAGE_LENGTH };

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
