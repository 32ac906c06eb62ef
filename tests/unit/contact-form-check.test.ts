import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ContactFieldName, checkContactForm } from '../../core/contact/form-check.ts';
import { CONTACT_FORM_MESSAGES, ContactPayload } from '../../core/contact/contracts.ts';
import { UNSAFE_TEXT_MESSAGE } from '../../core/form-fields.ts';
import { FORM_TEXT_PIECES, aroundLimit, emailOf, emptyAsAbsent, schemaVerdict, textOf } from '../support/form-check.ts';

/**
 * The /contact page checks its form in the browser without zod (core/contact/form-check.ts,
 * decision 036); the API checks the same form with `ContactPayload`. These tests hold the two
 * to the same verdict and the same first message per field, on hand-picked and generated input.
 */

const FIELDS: ContactFieldName[] = ['email', 'orderId', 'message'];

/** What the page sent before: conform's parseWithZod reads an empty field as absent. */
function schemaVerdictOf(values: Record<ContactFieldName | 'website', string>) {
  const verdict = schemaVerdict(ContactPayload, emptyAsAbsent(values), FIELDS);
  return verdict.ok ? { ok: true as const, errors: {} } : verdict;
}

function browserVerdict(values: Record<ContactFieldName | 'website', string>) {
  const check = checkContactForm(values);
  return check.ok ? { ok: true as const, errors: {} } : { ok: false as const, errors: check.errors };
}

const form = (values: Partial<Record<ContactFieldName | 'website', string>>) => ({
  email: '',
  orderId: '',
  message: '',
  website: '',
  ...values,
});

describe('contact form check in the browser', () => {
  it('gives the spec messages for the cases the page shows', () => {
    expect(checkContactForm(form({}))).toEqual({
      ok: false,
      errors: { email: CONTACT_FORM_MESSAGES.emailRequired, message: CONTACT_FORM_MESSAGES.messageRequired },
    });
    expect(checkContactForm(form({ email: 'someone@example', message: '   ' }))).toEqual({
      ok: false,
      errors: { email: 'Invalid Email ', message: CONTACT_FORM_MESSAGES.messageRequired },
    });
    expect(checkContactForm(form({ email: 'a@b.co', message: 'x'.repeat(5001), orderId: 'o'.repeat(65) }))).toEqual({
      ok: false,
      errors: { message: CONTACT_FORM_MESSAGES.messageTooLong, orderId: CONTACT_FORM_MESSAGES.orderIdInvalid },
    });
    expect(checkContactForm(form({ email: 'a@b.co', message: 'hi\u202Ethere' }))).toEqual({
      ok: false,
      errors: { message: UNSAFE_TEXT_MESSAGE },
    });
    // Sent as typed, with the honeypot; a blank order id is left out.
    expect(checkContactForm(form({ email: ' A@Example.COM ', message: 'Hello\nthere', website: 'bot' }))).toEqual({
      ok: true,
      payload: { email: ' A@Example.COM ', message: 'Hello\nthere', website: 'bot' },
    });
  });

  it('agrees with the API schema on every generated form', () => {
    const text = textOf(FORM_TEXT_PIECES);
    const email = emailOf(text);
    const long = aroundLimit;
    fc.assert(
      fc.property(
        email,
        fc.oneof(text, long(64)),
        fc.oneof(text, long(5000)),
        text,
        (emailValue, orderId, message, website) => {
          const values = form({ email: emailValue, orderId, message, website });
          expect(browserVerdict(values)).toEqual(schemaVerdictOf(values));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
