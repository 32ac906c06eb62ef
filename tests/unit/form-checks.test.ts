import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { AdminLoginPayload, AdminOtpPayload, LOGIN_FORM_MESSAGES } from '../../core/auth/contracts.ts';
import { LOGIN_FORM_CHECK_MESSAGES, checkAdminLoginForm, checkAdminOtpForm } from '../../core/auth/login-form-check.ts';
import type { TargetKind } from '../../core/catalogue/types.ts';
import type { FormCheck } from '../../core/form-check.ts';
import { UNSAFE_TEXT_MESSAGE } from '../../core/form-fields.ts';
import { HistoryCodePayload, HistoryLookupPayload } from '../../core/orders/contracts.ts';
import { ORDER_FORM_MESSAGES, type OrderFormRules, checkOrderForm } from '../../core/orders/form-check.ts';
import { checkHistoryCodeForm, checkHistoryLookupForm } from '../../core/orders/history-form-check.ts';
import { orderFormSchema } from '../../core/orders/validation.ts';
import { FORM_TEXT_PIECES, aroundLimit, emailOf, emptyAsAbsent, schemaVerdict, textOf } from '../support/form-check.ts';

/**
 * /order, /client and /login check their forms in the browser without zod (core/*\/form-check
 * modules, decision 037); the API checks the same forms with the zod schemas. These tests hold
 * each plain check to its schema: the same verdict, the same first message per field, and on
 * success the same values, on hand-picked and generated forms.
 */

/** What the pages sent before: conform's parseWithZod reads an empty field as absent. */
const schemaVerdictOf = (schema: z.ZodType, values: Record<string, string>) =>
  schemaVerdict(schema, emptyAsAbsent(values));

const plainVerdict = (check: FormCheck<string, unknown>) =>
  check.ok ? { ok: true as const, value: check.value } : { ok: false as const, errors: check.errors };

const text = textOf(FORM_TEXT_PIECES);
const email = emailOf(
  text,
  fc.emailAddress().map((address) => ` ${address.toUpperCase()} `),
);
const around = aroundLimit;
const code = fc.oneof(
  text,
  fc.stringMatching(/^\s?\d{3}\s?\d{3}\s?$/),
  fc.stringMatching(/^[A-Za-z0-9]{5}-?[A-Za-z0-9]{5}$/),
  fc.integer({ min: 95, max: 105 }).map((length) => '1'.repeat(length)),
);
const RUNS = { numRuns: 2000 };

describe('order form check in the browser', () => {
  const rulesOf: fc.Arbitrary<OrderFormRules> = fc.record({
    targetKind: fc.constantFrom<TargetKind>('instagram_username', 'instagram_post_url', 'youtube_video_url'),
    commentRequired: fc.boolean(),
  });

  it('gives the spec messages for the cases the page shows', () => {
    const rules: OrderFormRules = { targetKind: 'youtube_video_url', commentRequired: true };
    expect(checkOrderForm({ name: ' ', email: '', comment: '' }, rules)).toEqual({
      ok: false,
      errors: {
        name: ORDER_FORM_MESSAGES.youtubeRequired,
        email: ORDER_FORM_MESSAGES.emailRequired,
        comment: ORDER_FORM_MESSAGES.commentRequired,
      },
    });
    expect(
      checkOrderForm(
        { name: 'me\u202E', email: 'a@b', comment: '' },
        { targetKind: 'instagram_username', commentRequired: false },
      ),
    ).toEqual({ ok: false, errors: { name: UNSAFE_TEXT_MESSAGE, email: 'Invalid email format' } });
    expect(checkOrderForm({ name: ' me ', email: ' A@Example.COM ', comment: ' one\ntwo ' }, rules)).toEqual({
      ok: true,
      value: { name: 'me', email: 'A@example.com', comment: 'one\ntwo' },
    });
  });

  it('agrees with orderFormSchema on every generated form', () => {
    fc.assert(
      fc.property(rulesOf, text, email, fc.oneof(text, around(5000)), (rules, name, emailValue, comment) => {
        // A service without comments has no comment field: the form sends none.
        const values: Record<string, string> = rules.commentRequired
          ? { name, email: emailValue, comment }
          : { name, email: emailValue };
        const plain = checkOrderForm({ name, email: emailValue, comment: rules.commentRequired ? comment : '' }, rules);
        expect(plainVerdict(plain)).toEqual(schemaVerdictOf(orderFormSchema(rules), values));
      }),
      RUNS,
    );
  });

  it('agrees with the schema on an optional comment that is sent anyway', () => {
    const rules: OrderFormRules = { targetKind: 'instagram_username', commentRequired: false };
    fc.assert(
      fc.property(fc.oneof(text, around(5000)), (comment) => {
        const values = { name: 'me', email: 'a@b.co', comment };
        expect(plainVerdict(checkOrderForm(values, rules))).toEqual(schemaVerdictOf(orderFormSchema(rules), values));
      }),
      RUNS,
    );
  });
});

describe('order history forms check in the browser', () => {
  it('gives the spec messages for the cases the page shows', () => {
    expect(checkHistoryCodeForm({ email: '' })).toEqual({ ok: false, errors: { email: 'Email is required' } });
    expect(checkHistoryCodeForm({ email: 'nope' })).toEqual({ ok: false, errors: { email: 'Invalid email' } });
    expect(checkHistoryLookupForm({ email: 'a@b.co', code: '12345' })).toEqual({
      ok: false,
      errors: { code: 'The code has 6 digits' },
    });
    expect(checkHistoryLookupForm({ email: 'a@B.co', code: ' 123 456 ' })).toEqual({
      ok: true,
      value: { email: 'a@b.co', code: '123456' },
    });
  });

  it('agrees with HistoryCodePayload and HistoryLookupPayload on every generated form', () => {
    fc.assert(
      fc.property(email, code, (emailValue, codeValue) => {
        expect(plainVerdict(checkHistoryCodeForm({ email: emailValue }))).toEqual(
          schemaVerdictOf(HistoryCodePayload, { email: emailValue }),
        );
        const values = { email: emailValue, code: codeValue };
        expect(plainVerdict(checkHistoryLookupForm(values))).toEqual(schemaVerdictOf(HistoryLookupPayload, values));
      }),
      RUNS,
    );
  });
});

describe('admin login forms check in the browser', () => {
  it('words its messages as the API does', () => {
    for (const [name, message] of Object.entries(LOGIN_FORM_CHECK_MESSAGES)) {
      expect(LOGIN_FORM_MESSAGES[name as keyof typeof LOGIN_FORM_MESSAGES]).toBe(message);
    }
    expect(checkAdminLoginForm({ email: ' ', password: '' })).toEqual({
      ok: false,
      errors: { email: 'Email is required', password: 'Password is required' },
    });
    expect(checkAdminOtpForm({ email: 'a@b.co', otp: '12' })).toEqual({
      ok: false,
      errors: { otp: 'The code has 6 digits' },
    });
    expect(checkAdminOtpForm({ email: 'a@b.co', otp: ' abcde-12345 ' })).toEqual({
      ok: true,
      value: { email: 'a@b.co', otp: 'abcde-12345' },
    });
  });

  it('agrees with AdminLoginPayload and AdminOtpPayload on every generated form', () => {
    fc.assert(
      fc.property(
        fc.oneof(email, around(1000)),
        fc.oneof(text, around(4096)),
        email,
        code,
        (loginEmail, password, otpEmail, otp) => {
          const login = { email: loginEmail, password };
          expect(plainVerdict(checkAdminLoginForm(login))).toEqual(schemaVerdictOf(AdminLoginPayload, login));
          const second = { email: otpEmail, otp };
          expect(plainVerdict(checkAdminOtpForm(second))).toEqual(schemaVerdictOf(AdminOtpPayload, second));
        },
      ),
      RUNS,
    );
  });
});
