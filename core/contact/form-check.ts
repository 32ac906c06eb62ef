/**
 * The contact form's check in the browser, without zod (decision 036: zod and conform would
 * put the /contact page 35 KB over its first-load JavaScript budget). The same rules, the same
 * messages and the same order as `ContactPayload` in ./contracts.ts, which the API still applies:
 * tests/unit/contact-form-check.test.ts compares the two on generated input, so they cannot
 * drift apart. Browser-safe.
 */
import { isEmail } from '../email.ts';
import { UNSAFE_TEXT_MESSAGE, hasUnsafeCharacters } from '../text-rules.ts';
import type { ContactPayloadInput } from './contracts.ts';
import { CONTACT_FORM_MESSAGES, MAX_CONTACT_MESSAGE_LENGTH, MAX_CONTACT_ORDER_ID_LENGTH } from './rules.ts';

export type ContactFieldName = 'email' | 'orderId' | 'message';

/** What the form holds: each field's text as typed (a missing field reads as empty). */
type ContactFormValues = Readonly<Record<ContactFieldName | 'website', string>>;

type ContactFormCheck =
  { ok: true; payload: ContactPayloadInput } | { ok: false; errors: Partial<Record<ContactFieldName, string>> };

function emailError(value: string): string | undefined {
  const trimmed = value.trim();
  if (trimmed === '') return CONTACT_FORM_MESSAGES.emailRequired;
  if (hasUnsafeCharacters(trimmed)) return UNSAFE_TEXT_MESSAGE;
  return isEmail(trimmed) ? undefined : CONTACT_FORM_MESSAGES.emailInvalid;
}

function orderIdError(value: string): string | undefined {
  if (value.length > MAX_CONTACT_ORDER_ID_LENGTH) return CONTACT_FORM_MESSAGES.orderIdInvalid;
  return hasUnsafeCharacters(value) ? UNSAFE_TEXT_MESSAGE : undefined;
}

function messageError(value: string): string | undefined {
  const trimmed = value.trim();
  if (trimmed === '') return CONTACT_FORM_MESSAGES.messageRequired;
  if (hasUnsafeCharacters(trimmed, { multiline: true })) return UNSAFE_TEXT_MESSAGE;
  return trimmed.length > MAX_CONTACT_MESSAGE_LENGTH ? CONTACT_FORM_MESSAGES.messageTooLong : undefined;
}

/**
 * Each field's first problem, as `ContactPayload` words it; when there is none, the payload to
 * send (as typed: the server trims and normalises the same way, and the honeypot goes too, so
 * a bot gets the usual reply).
 */
export function checkContactForm(values: ContactFormValues): ContactFormCheck {
  const errors: Partial<Record<ContactFieldName, string>> = {};
  const email = emailError(values.email);
  const orderId = orderIdError(values.orderId);
  const message = messageError(values.message);
  if (email) errors.email = email;
  if (orderId) errors.orderId = orderId;
  if (message) errors.message = message;
  if (email || orderId || message) return { ok: false, errors };
  return {
    ok: true,
    payload: {
      email: values.email,
      message: values.message,
      ...(values.orderId ? { orderId: values.orderId } : {}),
      ...(values.website ? { website: values.website } : {}),
    },
  };
}
