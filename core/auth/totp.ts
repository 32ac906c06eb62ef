/**
 * TOTP (RFC 6238, through otplib: SHA-1, 6 digits, 30-second steps, as every authenticator app
 * reads them) and recovery codes for the admin's second factor (decision 016).
 *
 * - The secret is kept encrypted (AES-256-GCM under a key derived from an install secret kept
 *   in the settings table, apart from the rows), shown once at enrolment and never returned
 *   again; nothing here logs.
 * - A code is accepted one step either side of now (clock drift), and never twice: the step it
 *   matched is recorded and only later steps are accepted afterwards.
 * - Recovery codes: 10 random codes of 10 base-32 characters (`xxxxx-xxxxx`), kept only as an
 *   HMAC under the same key, each usable once.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes, randomInt } from 'node:crypto';
import { authenticator } from 'otplib';

export const TOTP_STEP_SECONDS = 30;
/** Steps either side of the current one that are still accepted. */
export const TOTP_WINDOW = 1;
export const TOTP_ISSUER = 'Boostly';
export const RECOVERY_CODE_COUNT = 10;
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const RECOVERY_PATTERN = /^[a-z0-9]{10}$/;

/** A fresh base-32 secret (20 random bytes, as RFC 4226 recommends). */
export function generateTotpSecret(): string {
  return authenticator.generateSecret(20);
}

/** The URL an authenticator app reads from a QR code (or typed in). */
export function otpauthUrl(account: string, secret: string): string {
  return authenticator.keyuri(account, TOTP_ISSUER, secret);
}

/** The 6-digit code for `secret` at `at` (tests and the enrolment check use it). */
export function totpCode(secret: string, at: Date): string {
  return authenticator.clone({ epoch: at.getTime() }).generate(secret);
}

/**
 * The time step `code` matches within the window around `at`, or null. otplib's `checkDelta`
 * answers the offset in steps, which with the current step gives the absolute one.
 */
export function matchTotpStep(secret: string, code: string, at: Date): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = authenticator.clone({ epoch: at.getTime(), window: TOTP_WINDOW }).checkDelta(code, secret);
  if (delta === null) return null;
  return Math.floor(at.getTime() / 1000 / TOTP_STEP_SECONDS) + delta;
}

/** Encrypts and decrypts secrets at rest under a key derived from the install secret. */
export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
  /** HMAC-SHA256 as hex, for recovery codes. */
  mac(value: string): string;
}

export function createSecretBox(installSecret: string): SecretBox {
  if (!installSecret) throw new TypeError('the second-factor key must not be empty');
  const encryptionKey = createHmac('sha256', installSecret).update('admin-totp-encryption').digest();
  const macKey = createHmac('sha256', installSecret).update('admin-recovery-codes').digest();
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', encryptionKey, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':');
    },
    open(sealed) {
      const [version, iv, tag, body] = sealed.split(':');
      if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('unreadable sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', encryptionKey, Buffer.from(iv, 'base64'));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
    },
    mac(value) {
      return createHmac('sha256', macKey).update(value).digest('hex');
    },
  };
}

/** `xxxxx-xxxxx` from a CSPRNG. */
export function generateRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < 10; i += 1) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** A typed recovery code as stored (lowercase, without the dash and spaces), or null if it cannot be one. */
export function normaliseRecoveryCode(raw: string): string | null {
  const code = raw.toLowerCase().replace(/[\s-]/g, '');
  return RECOVERY_PATTERN.test(code) ? code : null;
}

/** What is stored for a recovery code of an admin: bound to the admin, so a hash is useless elsewhere. */
export function recoveryCodeHash(box: SecretBox, adminId: number, normalised: string): string {
  return box.mac(`${adminId}:${normalised}`);
}
