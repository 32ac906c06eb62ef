/**
 * TOTP (RFC 6238, through otplib: SHA-1, 6 digits, 30-second steps, as every authenticator app
 * reads them) and recovery codes for the admin's second factor (decision 016).
 *
 * - The secret is kept encrypted, shown once at enrolment and never returned again; nothing
 *   here logs. Decision 022: AES-256-GCM under TOTP_ENCRYPTION_KEY from the environment, with
 *   the admin's id as associated data, so a copy of the database alone opens nothing; secrets
 *   sealed under the older key kept in the database (still used in development without the
 *   variable) are re-encrypted at boot (second-factor.ts).
 * - A code is accepted one step either side of now (clock drift), and never twice: the step it
 *   matched is recorded and only later steps are accepted afterwards.
 * - Recovery codes: 10 random codes of 10 base-32 characters (`xxxxx-xxxxx`), kept only as an
 *   HMAC, each usable once; the HMAC key is kept in `settings` sealed under the environment key.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, randomInt } from 'node:crypto';
import { authenticator } from 'otplib';

const TOTP_STEP_SECONDS = 30;
/** Steps either side of the current one that are still accepted. */
const TOTP_WINDOW = 1;
const TOTP_ISSUER = 'Boostly';
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

/**
 * TOTP_ENCRYPTION_KEY and TOTP_ENCRYPTION_KEY_PREVIOUS (decision 022): 32 random bytes, written
 * as base64 (`openssl rand -base64 32`) or as 64 hex digits. Null when the text is neither.
 */
export function parseTotpKey(text: string): Buffer | null {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (!/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(trimmed)) return null;
  const bytes = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return bytes.length === 32 ? bytes : null;
}

/** How an operator makes a key, for the messages that ask for one. */
export const TOTP_KEY_HINT = 'make one with `openssl rand -base64 32`';

/** The keys from the environment: `current` encrypts, both decrypt (decision 022). */
export interface TotpEnvironmentKeys {
  current: Buffer;
  previous: Buffer | null;
}

interface DerivedKey {
  /** Names the key inside a sealed value without revealing it (an HMAC of it, cut short). */
  id: string;
  aes: Buffer;
}

function deriveKey(raw: Buffer): DerivedKey {
  return {
    id: createHmac('sha256', raw).update('boostly admin totp key id').digest('hex').slice(0, 12),
    aes: Buffer.from(hkdfSync('sha256', raw, Buffer.alloc(0), 'boostly admin totp secrets v2', 32)),
  };
}

/** Sealed under an environment key: `v2:<key id>:<iv>:<tag>:<ciphertext>`, bound to `associated`. */
const SEALED_V2 = 'v2';
/** Sealed under the key derived from the database's install secret (before decision 022). */
const SEALED_V1 = 'v1';

/** A sealed value names a key that is neither TOTP_ENCRYPTION_KEY nor TOTP_ENCRYPTION_KEY_PREVIOUS. */
export class UnknownTotpKeyError extends Error {
  constructor() {
    super('sealed under a key that is neither TOTP_ENCRYPTION_KEY nor TOTP_ENCRYPTION_KEY_PREVIOUS');
    this.name = 'UnknownTotpKeyError';
  }
}

/**
 * AES-256-GCM under environment keys, with associated data (the admin a TOTP secret belongs to),
 * so a ciphertext copied onto another admin's row does not open.
 */
export interface EnvironmentSealer {
  seal(associated: string, plain: Buffer): string;
  /** Throws `UnknownTotpKeyError` for a key it does not hold, and for anything not sealed by it. */
  open(associated: string, sealed: string): Buffer;
  /** Whether `sealed` is already under the current key (nothing to re-encrypt). */
  isCurrent(sealed: string): boolean;
}

export function createEnvironmentSealer(keys: TotpEnvironmentKeys): EnvironmentSealer {
  const current = deriveKey(keys.current);
  const byId = new Map<string, DerivedKey>([[current.id, current]]);
  if (keys.previous) {
    const previous = deriveKey(keys.previous);
    if (!byId.has(previous.id)) byId.set(previous.id, previous);
  }
  return {
    seal(associated, plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', current.aes, iv);
      cipher.setAAD(Buffer.from(associated, 'utf8'));
      const body = Buffer.concat([cipher.update(plain), cipher.final()]);
      return [
        SEALED_V2,
        current.id,
        iv.toString('base64'),
        cipher.getAuthTag().toString('base64'),
        body.toString('base64'),
      ].join(':');
    },
    open(associated, sealed) {
      const [version, id, iv, tag, body] = sealed.split(':');
      if (version !== SEALED_V2 || !id || !iv || !tag || body === undefined) throw new UnknownTotpKeyError();
      const key = byId.get(id);
      if (!key) throw new UnknownTotpKeyError();
      const decipher = createDecipheriv('aes-256-gcm', key.aes, Buffer.from(iv, 'base64'));
      decipher.setAAD(Buffer.from(associated, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]);
    },
    isCurrent: (sealed) => sealed.startsWith(`${SEALED_V2}:${current.id}:`),
  };
}

/** Whether a sealed value was made under an environment key (any), or under the database's key. */
export function isSealedUnderEnvironmentKey(sealed: string): boolean {
  return sealed.startsWith(`${SEALED_V2}:`);
}

/**
 * The key derived from the database's install secret, as every secret was sealed before
 * decision 022 and still is in development without TOTP_ENCRYPTION_KEY. No associated data.
 */
export interface DatabaseKeyBox {
  seal(plain: string): string;
  open(sealed: string): string;
  /** The recovery codes' MAC key under this install secret (moved, sealed, to the environment key). */
  macKey: Buffer;
}

export function createDatabaseKeyBox(installSecret: string): DatabaseKeyBox {
  if (!installSecret) throw new TypeError('the second-factor key must not be empty');
  const encryptionKey = createHmac('sha256', installSecret).update('admin-totp-encryption').digest();
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', encryptionKey, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [SEALED_V1, iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(
        ':',
      );
    },
    open(sealed) {
      const [version, iv, tag, body] = sealed.split(':');
      if (version !== SEALED_V1 || !iv || !tag || body === undefined) throw new Error('unreadable sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', encryptionKey, Buffer.from(iv, 'base64'));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
    },
    macKey: createHmac('sha256', installSecret).update('admin-recovery-codes').digest(),
  };
}

/** What the second-factor service seals TOTP secrets and hashes recovery codes with. */
export interface SecretBox {
  seal(adminId: number, plain: string): string;
  open(adminId: number, sealed: string): string;
  /** HMAC-SHA256 as hex, for recovery codes. */
  mac(value: string): string;
}

/** The associated data of an admin's TOTP secret. */
export const totpSecretContext = (adminId: number) => `admin-totp-secret:${adminId}`;

/** Sealing under the environment keys; recovery codes under `macKey` (kept sealed in `settings`). */
export function createEnvironmentBox(sealer: EnvironmentSealer, macKey: Buffer): SecretBox {
  return {
    seal: (adminId, plain) => sealer.seal(totpSecretContext(adminId), Buffer.from(plain, 'utf8')),
    open: (adminId, sealed) => sealer.open(totpSecretContext(adminId), sealed).toString('utf8'),
    mac: (value) => createHmac('sha256', macKey).update(value).digest('hex'),
  };
}

/** Sealing as before decision 022, under the database's install secret (development only). */
export function createDatabaseBox(installSecret: string): SecretBox {
  const box = createDatabaseKeyBox(installSecret);
  return {
    seal: (_adminId, plain) => box.seal(plain),
    open: (_adminId, sealed) => box.open(sealed),
    mac: (value) => createHmac('sha256', box.macKey).update(value).digest('hex'),
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
