/**
 * The contact form's limits and messages, without zod, so the /contact page can check the
 * form in the browser (./form-check.ts) without downloading the schema library (decision 036).
 * ./contracts.ts builds the API's schema from the same values. Browser-safe.
 */

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
