import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ContactFieldName, checkContactForm } from '../../core/contact/form-check.ts';
import { CONTACT_FORM_MESSAGES, ContactPayload } from '../../core/contact/contracts.ts';
import { UNSAFE_TEXT_MESSAGE } from '../../core/form-fields.ts';

/**
 * The /contact page checks its form in the browser without zod (core/contact/form-check.ts,
 * decision 036); the API checks the same form with `ContactPayload`. These tests hold the two
 * to the same verdict and the same first message per field, on hand-picked and generated input.
 */

const FIELDS: ContactFieldName[] = ['email', 'orderId', 'message'];

/** What the page sent before: conform's parseWithZod reads an empty field as absent. */
function schemaVerdict(values: Record<ContactFieldName | 'website', string>) {
  const input = Object.fromEntries(
    Object.entries(values).map(([name, value]) => [name, value === '' ? undefined : value]),
  );
  const result = ContactPayload.safeParse(input);
  if (result.success) return { ok: true as const, errors: {} };
  const errors: Partial<Record<ContactFieldName, string>> = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as ContactFieldName;
    if (FIELDS.includes(field)) errors[field] ??= issue.message;
  }
  return { ok: false as const, errors };
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
    const pieces = [
      'a',
      'Z',
      '0',
      '.',
      '@',
      '-',
      '_',
      ' ',
      '\n',
      '\t',
      '\u0000',
      '\u202E',
      'é',
      'example',
      'com',
      'xn--p1ai',
    ];
    const text = fc.array(fc.constantFrom(...pieces), { maxLength: 12 }).map((parts) => parts.join(''));
    const email = fc.oneof(
      text,
      fc.tuple(text, text).map(([local, domain]) => `${local}@${domain}.com`),
      fc.emailAddress(),
    );
    const long = (around: number) =>
      fc
        .integer({ min: around - 2, max: around + 2 })
        .chain((length) =>
          fc.constantFrom(' ', 'x', '\n').map((padding) => `x${padding.repeat(Math.max(0, length - 2))}x`),
        );
    fc.assert(
      fc.property(
        email,
        fc.oneof(text, long(64)),
        fc.oneof(text, long(5000)),
        text,
        (emailValue, orderId, message, website) => {
          const values = form({ email: emailValue, orderId, message, website });
          expect(browserVerdict(values)).toEqual(schemaVerdict(values));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
