/**
 * Admin passwords: scrypt (memory-hard, in node:crypto, no native add-on) with the parameters
 * OWASP lists for it (N=2^15, r=8, p=1), a 16-byte random salt and a 32-byte key, encoded as
 * `scrypt$N$r$p$salt$hash` (salt and hash in base64) so the parameters can be raised later
 * without breaking stored hashes. Hashing takes some tens of milliseconds on the libuv thread
 * pool, never the event loop.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

export const SCRYPT_N = 2 ** 15;
export const SCRYPT_R = 8;
export const SCRYPT_P = 1;
/** The N of new hashes in the test suites' in-process apps (`useTestHashCost`). */
export const TEST_SCRYPT_N = 2 ** 12;

/** The N new hashes get and below which a stored hash is re-hashed: SCRYPT_N but in tests. */
let newHashN = SCRYPT_N;

/**
 * For the Vitest suites' in-process apps only (tests/support/app.ts): new hashes get N=2^12.
 * At production's N every hash and every check of one takes 32 MiB and a tenth of a second or
 * more, and the login suites make hundreds: most of their time went to scrypt. 2^12 stays above
 * the older hashes the suites seed (2^10, tests/support/admin-accounts.ts), so the re-hash at
 * login is still exercised. The store never calls this (it refuses outside Vitest); production's
 * parameters are checked by the hashing's unit test and by the admin CLI's test, a child process.
 */
export function useTestHashCost(): void {
  if (!process.env.VITEST) throw new Error('The lower password-hash cost is for the Vitest suites only.');
  newHashN = TEST_SCRYPT_N;
}

/** Back to production's N, for a test of production's parameters in a process that lowered it. */
export function useProductionHashCost(): void {
  newHashN = SCRYPT_N;
}

/** The N new hashes get now: SCRYPT_N, or TEST_SCRYPT_N in a test process that asked for it. */
export function newHashCost(): number {
  return newHashN;
}
const SALT_BYTES = 16;
const KEY_BYTES = 32;

/** Password policy: length only (NIST SP 800-63B), with a cap so hashing stays cheap. */
const PASSWORD_MIN_LENGTH = 12;
const PASSWORD_MAX_LENGTH = 1024;

export const PASSWORD_MESSAGES = {
  tooShort: `The password must be at least ${PASSWORD_MIN_LENGTH} characters long.`,
  tooLong: `The password must be at most ${PASSWORD_MAX_LENGTH} characters long.`,
} as const;

/** Upper bounds for parameters read back from a stored hash (a tampered row must not stall us). */
const MAX_N = 2 ** 20;
const MAX_R = 32;
const MAX_P = 16;

/** scrypt needs 128·N·r bytes; Node's default limit (32 MiB) is just too small for N=2^15, r=8. */
function maxmem(n: number, r: number, p: number): number {
  return 128 * n * r * p + 32 * 1024 * 1024;
}

function derive(password: string, salt: Buffer, n: number, r: number, p: number, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, length, { N: n, r, p, maxmem: maxmem(n, r, p) }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** Why a password is refused, or null if it meets the policy. Counts characters, not bytes. */
export function passwordProblem(password: string): string | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return PASSWORD_MESSAGES.tooShort;
  if (length > PASSWORD_MAX_LENGTH) return PASSWORD_MESSAGES.tooLong;
  return null;
}

/** `scrypt$32768$8$1$<salt>$<hash>`. Does not check the policy (see `passwordProblem`). */
export async function hashPassword(password: string): Promise<string> {
  if (typeof password !== 'string') throw new TypeError('password must be a string');
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, newHashN, SCRYPT_R, SCRYPT_P, KEY_BYTES);
  return ['scrypt', newHashN, SCRYPT_R, SCRYPT_P, salt.toString('base64'), key.toString('base64')].join('$');
}

interface ParsedHash {
  n: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

/** A cost parameter of up to eight digits, or NaN (which every range check below rejects). */
function parseParameter(part: string | undefined): number {
  return part !== undefined && /^\d{1,8}$/.test(part) ? Number(part) : NaN;
}

function parseHash(encoded: string): ParsedHash | null {
  if (typeof encoded !== 'string') return null;
  const parts = encoded.split('$');
  if (parts.length !== 6) return null;
  const [scheme, nPart, rPart, pPart, saltPart, keyPart] = parts;
  if (scheme !== 'scrypt' || saltPart === undefined || keyPart === undefined) return null;
  const n = parseParameter(nPart);
  const r = parseParameter(rPart);
  const p = parseParameter(pPart);
  if (!Number.isInteger(n) || n < 2 || n > MAX_N || (n & (n - 1)) !== 0) return null;
  if (!Number.isInteger(r) || r < 1 || r > MAX_R || !Number.isInteger(p) || p < 1 || p > MAX_P) return null;
  const salt = Buffer.from(saltPart, 'base64');
  const key = Buffer.from(keyPart, 'base64');
  if (salt.length < 8 || key.length < 16 || key.length > 64) return null;
  return { n, r, p, salt, key };
}

/**
 * Whether `password` matches `encoded`, compared in constant time. A malformed hash is a
 * mismatch, not an error.
 */
export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  if (typeof password !== 'string') return false;
  const parsed = parseHash(encoded);
  if (!parsed) return false;
  const key = await derive(password, parsed.salt, parsed.n, parsed.r, parsed.p, parsed.key.length);
  return timingSafeEqual(key, parsed.key);
}

/** Whether a stored hash uses weaker parameters than today's (re-hash it at the next login). */
export function needsRehash(encoded: string): boolean {
  const parsed = parseHash(encoded);
  return !parsed || parsed.n < newHashN || parsed.r < SCRYPT_R || parsed.p < SCRYPT_P || parsed.key.length < KEY_BYTES;
}
