/**
 * The 6-digit code an authenticator app shows for `secret` at `at` (RFC 6238 through otplib, with
 * the defaults every app uses): what a test types where an admin would read their phone.
 */
import { authenticator } from 'otplib';

export function totpCode(secret: string, at: Date): string {
  return authenticator.clone({ epoch: at.getTime() }).generate(secret);
}
