/**
 * One-time codes: a customer proving they own an e-mail before seeing their order history,
 * an admin verifying their account at login. Following OWASP: 6 digits from a CSPRNG, a short
 * expiry, single use, a strict attempt limit, stored only as an HMAC under an install-wide
 * pepper kept outside the row (a plain hash of 6 digits is brute-forced offline in a second),
 * a new code on resend that replaces the old one, and resends throttled.
 *
 * Codes are never logged: this module logs nothing, and callers must not log `issue`'s result.
 *
 * Concurrency: every state change is a compare-and-set UPDATE that counts only if it changed
 * a row, so several app instances (or parallel requests) can neither count more wrong guesses
 * than `max_attempts`, nor consume one code twice, nor send past the throttle.
 */
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import { loadInstallSecret } from '../settings/install-secret.ts';
import type { Database } from '../../db/schema.ts';

/** Number of digits in a code. */
const CODE_LENGTH = 6;
const CODE_SPACE = 10 ** CODE_LENGTH;
const CODE_PATTERN = /^\d{6}$/;
/** Purposes are fixed identifiers such as 'order-history' or 'admin-login'. */
const PURPOSE_PATTERN = /^[a-z0-9][a-z0-9-]*$/;
/** Length of the send-count window (`maxSendsPerHour`). */
const SEND_WINDOW_MS = 60 * 60_000;

const PEPPER_KEY = 'otp.pepper';

export type IssueResult =
  { ok: true; code: string; expiresAt: Date } | { ok: false; reason: 'throttled'; retryAfterMs: number };

type VerifyFailure = 'invalid' | 'expired' | 'locked' | 'missing';
export type VerifyResult = { ok: true } | { ok: false; reason: VerifyFailure };

/** What a person is told for each refusal, wherever codes are used (order history, admin login). */
export const CODE_FAILURE_MESSAGES: Record<VerifyFailure, string> = {
  invalid: 'Invalid code',
  expired: 'This code has expired. Ask for a new one.',
  locked: 'Too many wrong codes. Ask for a new one.',
  missing: 'Ask for a code first.',
};

/** The reply to a resend asked for too soon. */
export function throttledMessage(retryAfterMs: number): string {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return `Please wait ${seconds} second${seconds === 1 ? '' : 's'} before asking for a new code.`;
}

export interface OneTimeCodesOptions {
  db: Kysely<Database>;
  /** Install-wide HMAC key (see `loadCodePepper`). */
  pepper: string;
  now?: () => Date;
  ttlMs?: number;
  maxAttempts?: number;
  resendIntervalMs?: number;
  maxSendsPerHour?: number;
  /** `crypto.randomInt`-compatible: an integer in [min, max). Tests stub it. */
  random?: (min: number, max: number) => number;
}

export interface OneTimeCodes {
  /**
   * Makes a new code for (purpose, subject), replacing any earlier one (fresh attempts, not
   * consumed), unless the resend throttle refuses. The caller sends `code` and forgets it.
   */
  issue(purpose: string, subject: string): Promise<IssueResult>;
  /**
   * Checks a code. 'missing': no code was issued, or it was already used (a consumed code is
   * gone: a second verify of the same code gets 'missing'). 'expired': past its expiry.
   * 'locked': the attempt limit is used up (the guess that uses up the last attempt already
   * gets 'locked'; the right code is refused from then on until a new code is issued).
   * 'invalid': a wrong guess, counted (also for input that is not 6 digits).
   */
  verify(purpose: string, subject: string, code: string): Promise<VerifyResult>;
  /**
   * Deletes rows whose code expired before `olderThan`; returns how many. The row also holds
   * the resend throttle, so pass a date at least an hour ago (the retention job uses 2 years).
   */
  purge(olderThan: Date): Promise<number>;
}

/** The subject as stored and hashed: an e-mail, trimmed and lowercased. */
export function normaliseSubject(subject: string): string {
  return subject.trim().toLowerCase();
}

/** Zero-pads a number in [0, 10^6) to a 6-digit code. */
export function formatCode(value: number): string {
  if (!Number.isInteger(value) || value < 0 || value >= CODE_SPACE) {
    throw new RangeError('one-time code value out of range');
  }
  return String(value).padStart(CODE_LENGTH, '0');
}

/** A fresh 6-digit code from `random` (a CSPRNG: `crypto.randomInt` by default). */
export function generateCode(random: (min: number, max: number) => number = randomInt): string {
  return formatCode(random(0, CODE_SPACE));
}

/**
 * HMAC-SHA256(pepper, `${purpose}:${subject}:${code}`) as hex. `subject` must already be
 * normalised. Unambiguous: purposes contain no ':' and the code has a fixed length.
 */
export function hashCode(pepper: string, purpose: string, subject: string, code: string): string {
  return createHmac('sha256', pepper).update(`${purpose}:${subject}:${code}`).digest('hex');
}

function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}

/** The pepper is made once per installation and kept in the database, apart from the codes. */
export function loadCodePepper(db: Kysely<Database>): Promise<string> {
  return loadInstallSecret(db, PEPPER_KEY);
}

function checkPurpose(purpose: string): void {
  if (typeof purpose !== 'string' || !PURPOSE_PATTERN.test(purpose)) {
    throw new TypeError('one-time code purpose must be a lowercase identifier');
  }
}

function checkSubject(subject: string): string {
  const normalised = typeof subject === 'string' ? normaliseSubject(subject) : '';
  if (!normalised) throw new TypeError('one-time code subject must not be empty');
  return normalised;
}

const changed = (result: { numUpdatedRows?: bigint | undefined; numInsertedOrUpdatedRows?: bigint | undefined }) =>
  Number(result.numUpdatedRows ?? result.numInsertedOrUpdatedRows ?? 0) > 0;

/** How many times to re-read and retry after losing a compare-and-set race. */
const MAX_RACES = 5;

export function createOneTimeCodes(options: OneTimeCodesOptions): OneTimeCodes {
  const {
    pepper,
    now = () => new Date(),
    ttlMs = 10 * 60_000,
    maxAttempts = 5,
    resendIntervalMs = 60_000,
    maxSendsPerHour = 5,
    random = randomInt,
  } = options;
  if (typeof pepper !== 'string' || pepper.length === 0) throw new TypeError('one-time code pepper must not be empty');
  const { db } = options;

  const find = (purpose: string, subject: string) =>
    db
      .selectFrom('one_time_codes')
      .selectAll()
      .where('purpose', '=', purpose)
      .where('subject', '=', subject)
      .executeTakeFirst();

  type Row = NonNullable<Awaited<ReturnType<typeof find>>>;

  /** Why a row cannot take a verify attempt now, or null if it can. */
  function refusal(row: Row | undefined, at: Date): VerifyFailure | null {
    if (!row || row.consumed_at !== null) return 'missing';
    if (row.attempts >= row.max_attempts) return 'locked';
    if (Date.parse(row.expires_at) <= at.getTime()) return 'expired';
    return null;
  }

  /** Milliseconds until (purpose, subject) may be sent a code again, or 0. */
  function throttle(row: Row, at: number): number {
    let wait = 0;
    const sinceLast = at - Date.parse(row.last_sent_at);
    // The interval spaces out codes nobody used; after a used one (a login that has just ended,
    // say) the next may follow at once. The hourly cap below still counts it.
    if (row.consumed_at === null && sinceLast < resendIntervalMs) {
      wait = Math.min(resendIntervalMs, resendIntervalMs - sinceLast);
    }
    const windowStart = Date.parse(row.window_started_at);
    if (at - windowStart < SEND_WINDOW_MS && row.sends_in_window >= maxSendsPerHour) {
      wait = Math.max(wait, Math.min(SEND_WINDOW_MS, windowStart + SEND_WINDOW_MS - at));
    }
    return wait;
  }

  return {
    async issue(purpose, rawSubject) {
      checkPurpose(purpose);
      const subject = checkSubject(rawSubject);
      for (let race = 0; race < MAX_RACES; race++) {
        const at = now();
        const atIso = at.toISOString();
        const expiresAt = new Date(at.getTime() + ttlMs);
        const code = generateCode(random);
        const fresh = {
          code_hash: hashCode(pepper, purpose, subject, code),
          expires_at: expiresAt.toISOString(),
          attempts: 0,
          max_attempts: maxAttempts,
          consumed_at: null,
          last_sent_at: atIso,
        };

        const row = await find(purpose, subject);
        if (!row) {
          const inserted = await db
            .insertInto('one_time_codes')
            .values({ purpose, subject, ...fresh, sends_in_window: 1, window_started_at: atIso, created_at: atIso })
            .onConflict((oc) => oc.columns(['purpose', 'subject']).doNothing())
            .executeTakeFirst();
          if (changed(inserted)) return { ok: true, code, expiresAt };
          continue; // another request created it meanwhile: re-read and apply the throttle
        }

        const wait = throttle(row, at.getTime());
        if (wait > 0) return { ok: false, reason: 'throttled', retryAfterMs: wait };

        const windowOpen = at.getTime() - Date.parse(row.window_started_at) < SEND_WINDOW_MS;
        const updated = await db
          .updateTable('one_time_codes')
          .set({
            ...fresh,
            sends_in_window: windowOpen ? row.sends_in_window + 1 : 1,
            window_started_at: windowOpen ? row.window_started_at : atIso,
          })
          .where('id', '=', row.id)
          // Compare-and-set: only if nobody sent (or verified) since we read the row.
          .where('last_sent_at', '=', row.last_sent_at)
          .where('code_hash', '=', row.code_hash)
          .executeTakeFirst();
        if (changed(updated)) return { ok: true, code, expiresAt };
      }
      return { ok: false, reason: 'throttled', retryAfterMs: resendIntervalMs };
    },

    async verify(purpose, rawSubject, rawCode) {
      checkPurpose(purpose);
      const subject = checkSubject(rawSubject);
      const code = typeof rawCode === 'string' ? rawCode.trim() : '';
      const wellFormed = CODE_PATTERN.test(code);
      const guessHash = wellFormed ? hashCode(pepper, purpose, subject, code) : '';

      for (let race = 0; race < MAX_RACES; race++) {
        const at = now();
        const atIso = at.toISOString();
        const row = await find(purpose, subject);
        const refused = refusal(row, at);
        if (refused || !row) return { ok: false, reason: refused ?? 'missing' };

        // Every compare-and-set below requires the row to still hold the code we compared
        // against, be unconsumed and unlocked; if it lost a race we re-read and decide again.
        const live = db
          .updateTable('one_time_codes')
          .where('id', '=', row.id)
          .where('code_hash', '=', row.code_hash)
          .where('consumed_at', 'is', null)
          .where((eb) => eb('attempts', '<', eb.ref('max_attempts')));

        if (wellFormed && hashesEqual(guessHash, row.code_hash)) {
          const consumed = await live.set({ consumed_at: atIso }).where('expires_at', '>', atIso).executeTakeFirst();
          if (changed(consumed)) return { ok: true };
          continue;
        }

        // A wrong (or malformed) guess counts, but only while attempts remain: concurrent
        // guesses cannot push the count past max_attempts. RETURNING gives the count after
        // this guess (both dialects support it), so the guess that used up the last attempt
        // is told 'locked'.
        const counted = await live
          .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
          .returning(['attempts', 'max_attempts'])
          .executeTakeFirst();
        if (counted) return { ok: false, reason: counted.attempts >= counted.max_attempts ? 'locked' : 'invalid' };
      }
      return { ok: false, reason: 'invalid' };
    },

    async purge(olderThan) {
      const result = await db
        .deleteFrom('one_time_codes')
        .where('expires_at', '<', olderThan.toISOString())
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
