/**
 * The admin login forms' check in the browser (the /login page), without zod (decision 037):
 * `AdminLoginPayload` and `AdminOtpPayload`'s rules and messages (./contracts.ts, which the API
 * still applies) in plain code. The messages are a copy of `LOGIN_FORM_MESSAGES` kept here so the
 * page does not load the schemas' module; tests/unit/form-checks.test.ts holds the copy and the
 * checks to the schemas. Browser-safe.
 */
import {
  type FormCheck,
  acceptedCode,
  acceptedEmail,
  checkResult,
  codeError,
  requiredEmailError,
  requiredTextError,
  tooLongMessage,
} from '../form-check.ts';

export const LOGIN_FORM_CHECK_MESSAGES = {
  emailRequired: 'Email is required',
  emailInvalid: 'Invalid email',
  passwordRequired: 'Password is required',
  codeRequired: 'Code is required',
  codeFormat: 'The code has 6 digits',
} as const;

const MAX_LOGIN_EMAIL_LENGTH = 1000;
const MAX_PASSWORD_LENGTH = 4096;
/** 6 digits, or a recovery code `xxxxx-xxxxx` (the hyphen optional). */
const SECOND_FACTOR_CODE = /^(?:\d{6}|[A-Za-z0-9]{5}-?[A-Za-z0-9]{5})$/;

/** Step 1: e-mail (only required here: the server answers a wrong one) and password (taken as typed). */
export function checkAdminLoginForm(input: {
  email: string;
  password: string;
}): FormCheck<'email' | 'password', { email: string; password: string }> {
  const emailProblem =
    requiredTextError(input.email, LOGIN_FORM_CHECK_MESSAGES.emailRequired) ??
    (input.email.trim().length > MAX_LOGIN_EMAIL_LENGTH ? tooLongMessage(MAX_LOGIN_EMAIL_LENGTH) : undefined);
  // The schema's `z.string({ error })` words every password problem, its length too, as "required".
  const passwordProblem =
    input.password === '' || input.password.length > MAX_PASSWORD_LENGTH
      ? LOGIN_FORM_CHECK_MESSAGES.passwordRequired
      : undefined;
  return checkResult(
    [
      ['email', emailProblem],
      ['password', passwordProblem],
    ],
    () => ({ email: input.email.trim(), password: input.password }),
  );
}

/** Step 2: the e-mail (kept from step 1) and the second factor's code. */
export function checkAdminOtpForm(input: {
  email: string;
  otp: string;
}): FormCheck<'email' | 'otp', { email: string; otp: string }> {
  return checkResult(
    [
      [
        'email',
        requiredEmailError(input.email, {
          required: LOGIN_FORM_CHECK_MESSAGES.emailRequired,
          invalid: LOGIN_FORM_CHECK_MESSAGES.emailInvalid,
        }),
      ],
      [
        'otp',
        codeError(input.otp, SECOND_FACTOR_CODE, {
          required: LOGIN_FORM_CHECK_MESSAGES.codeRequired,
          format: LOGIN_FORM_CHECK_MESSAGES.codeFormat,
        }),
      ],
    ],
    () => ({ email: acceptedEmail(input.email), otp: acceptedCode(input.otp) }),
  );
}
