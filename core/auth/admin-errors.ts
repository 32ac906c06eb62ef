/** What admin auth tells the person at the keyboard, and the error that carries it to the API. */
import { isEmail } from '../email.ts';
import { CODE_FAILURE_MESSAGES } from './one-time-codes.ts';

export const ADMIN_MESSAGES = {
  loginRequired: 'Email and password are required',
  invalidLogin: 'Invalid email or password.',
  tooManyAttempts: 'Too many attempts. Try again later.',
  loggedIn: 'Logged in',
  notVerified: 'Your account is not verified yet. Enter the 6-digit code we sent to your e-mail.',
  enterEmailedCode: 'Enter the 6-digit code we sent to your e-mail to finish logging in.',
  enterTotp: 'Enter the 6-digit code from your authenticator app, or one of your recovery codes.',
  totpStarted: 'Scan the QR code or type the secret into your authenticator app, then enter the code it shows.',
  totpEnabled: 'Two-step login with an authenticator app is on. Keep your recovery codes somewhere safe.',
  totpDisabled: 'Two-step login with an authenticator app is off: logins use e-mailed codes again.',
  totpNotStarted: 'Start the set-up first.',
  emailRequired: 'Email is required',
  emailInvalid: 'Invalid email',
  codeRequired: 'Code is required',
  codeSent: 'A new code has been sent to your e-mail.',
  verified: 'Your account is verified. Log in to continue.',
  invalid: CODE_FAILURE_MESSAGES.invalid,
  expired: CODE_FAILURE_MESSAGES.expired,
  locked: CODE_FAILURE_MESSAGES.locked,
  missing: CODE_FAILURE_MESSAGES.missing,
  challengeSpent: 'Too many wrong codes. Log in with your password again.',
  adminExists: 'An admin with this e-mail already exists.',
  noSuchAdmin: 'There is no admin with this e-mail.',
  loggedOut: 'Logged out',
} as const;

/** A refusal meant for the person at the keyboard: the API answers with its status and message. */
export class AdminAuthError extends Error {
  /** Read by the API's error handler. */
  readonly expose = true;
  constructor(
    message: string,
    readonly statusCode: 400 | 404 | 409 | 429,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'AdminAuthError';
  }
}

export function normaliseEmail(raw: unknown): string {
  return typeof raw === 'string' ? raw.trim().toLowerCase() : '';
}

/** Validates an e-mail for the account and code calls (400 with the spec's wording). */
export function requireEmail(raw: unknown): string {
  const email = normaliseEmail(raw);
  if (!email) throw new AdminAuthError(ADMIN_MESSAGES.emailRequired, 400);
  if (!isEmail(email)) throw new AdminAuthError(ADMIN_MESSAGES.emailInvalid, 400);
  return email;
}
