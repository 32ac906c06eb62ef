/**
 * The order history forms' check in the browser (the /client page), without zod (decision 037):
 * `HistoryCodePayload` and `HistoryLookupPayload`'s rules and messages (./contracts.ts, which the
 * API still applies) in plain code; tests/unit/form-checks.test.ts holds them to the schemas.
 * Browser-safe.
 */
import {
  type FormCheck,
  acceptedCode,
  acceptedEmail,
  checkResult,
  codeError,
  requiredEmailError,
} from '../form-check.ts';

export const HISTORY_FORM_MESSAGES = {
  emailRequired: 'Email is required',
  emailInvalid: 'Invalid email',
  codeRequired: 'Code is required',
  codeFormat: 'The code has 6 digits',
} as const;

const historyEmailError = (email: string) =>
  requiredEmailError(email, {
    required: HISTORY_FORM_MESSAGES.emailRequired,
    invalid: HISTORY_FORM_MESSAGES.emailInvalid,
  });

/** Step 1: the e-mail a code goes to. */
export function checkHistoryCodeForm(input: { email: string }): FormCheck<'email', { email: string }> {
  return checkResult([['email', historyEmailError(input.email)]], () => ({ email: acceptedEmail(input.email) }));
}

/** Step 2: the e-mail (kept from step 1) and the 6-digit code. */
export function checkHistoryLookupForm(input: {
  email: string;
  code: string;
}): FormCheck<'email' | 'code', { email: string; code: string }> {
  return checkResult(
    [
      ['email', historyEmailError(input.email)],
      [
        'code',
        codeError(input.code, /^\d{6}$/, {
          required: HISTORY_FORM_MESSAGES.codeRequired,
          format: HISTORY_FORM_MESSAGES.codeFormat,
        }),
      ],
    ],
    () => ({ email: acceptedEmail(input.email), code: acceptedCode(input.code) }),
  );
}
