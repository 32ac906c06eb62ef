/**
 * The admin login flow: password, the one-time code that verifies an account at its first
 * login, and the lockout against password guessing.
 *
 * - The first login of an unverified account with the right password answers 409 and e-mails a
 *   6-digit code (one-time-codes.ts, purpose 'admin-login': hashed, 10 minutes, single use,
 *   5 attempts, resend throttled); `verifyOtp` marks the account verified; from then on a login
 *   returns a token (admin-sessions.ts).
 * - Nothing reveals whether an e-mail belongs to an admin: an unknown e-mail gets the same 401 as
 *   a wrong password, after checking the password against a dummy hash so the reply takes as
 *   long; it is locked out the same way; `verifyOtp` and `resendOtp` run the same code checks
 *   and throttles for every address, and only e-mail an actual unverified admin.
 *
 * Lockout: a run of failed logins, each within `lockoutMs` (15 min) of the previous one, locks
 * the account for `lockoutMs` once it reaches `maxFailedLogins` (5); the attempt that reaches it
 * is already told 429, and while locked even the right password gets 429 (without being
 * checked). A success ends the run. For admins the run lives in their row (`failed_logins`,
 * `last_failed_at`, `locked_until`), updated in one statement so parallel guesses all count.
 * For e-mails that are not admins the same rules run on an in-memory map keyed by e-mail
 * (`StrangerFailures`), capped at 10,000 entries, each forgotten when its run ends. Its limits:
 * it is per process (several instances each count on their own) and a restart forgets it; the
 * per-client rate limit on the login route (10 a minute) bounds both.
 */
import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import { enqueueMail } from '../mail/send-mail-job.ts';
import { renderAdminCode } from '../mail/templates/admin-code.ts';
import { isEmail } from '../email.ts';
import { findAdminByEmail, lockRemainingMs } from './admin-accounts.ts';
import { ADMIN_MESSAGES, AdminAuthError, normaliseEmail, requireEmail } from './admin-errors.ts';
import type { AdminSessions } from './admin-sessions.ts';
import { CODE_FAILURE_MESSAGES, type OneTimeCodes, throttledMessage } from './one-time-codes.ts';
import { hashPassword, needsRehash, verifyPassword } from './passwords.ts';

/** What the code proves; also the codes table's `purpose`. */
export const ADMIN_LOGIN_PURPOSE = 'admin-login';
/** As configured in the codes service (its default TTL). */
export const ADMIN_CODE_MINUTES = 10;
export const DEFAULT_MAX_FAILED_LOGINS = 5;
export const DEFAULT_LOCKOUT_MS = 15 * 60_000;
/** Mail retries with backoff from 5 s doubling: 6 attempts span about 2.5 minutes. */
const CODE_MAIL_MAX_ATTEMPTS = 6;

export type LoginResult =
  | { status: 200; access_token: string; isVerified: true; expiresAt: Date; message: string }
  | { status: 409; isVerified: false; message: string }
  | { status: 400 | 401; message: string }
  | { status: 429; message: string; retryAfterMs: number };

export interface AdminLoginOptions {
  db: Kysely<Database>;
  codes: OneTimeCodes;
  sessions: AdminSessions;
  /** The store's public origin, for the link in the code e-mail. */
  publicUrl: string;
  now: Clock;
  maxFailedLogins?: number;
  lockoutMs?: number;
}

export interface AdminLogin {
  /** Never throws for bad credentials: the result carries the HTTP status and message. */
  login(email: string, password: string): Promise<LoginResult>;
  /** Verifies the account with its e-mailed code; throws `AdminAuthError` (400). */
  verifyOtp(email: string, otp: string): Promise<{ ok: true }>;
  /** E-mails a new code to an unverified admin; the same reply for any address; 429 when throttled. */
  resendOtp(email: string): Promise<{ message: string }>;
}

/**
 * The lockout rules of admin rows, for e-mails that are not admins, in memory. Entries stay in
 * order of their last failure (updated ones move to the end), so the stale ones are at the front.
 */
export class StrangerFailures {
  private readonly entries = new Map<string, { failures: number; lastFailedAt: number; lockedUntil: number }>();
  constructor(
    private readonly maxFailures: number,
    private readonly lockoutMs: number,
    private readonly capacity = 10_000,
  ) {}

  /** Milliseconds the e-mail stays locked, or 0. */
  lockedFor(email: string, at: number): number {
    const entry = this.entries.get(email);
    return entry ? Math.max(0, entry.lockedUntil - at) : 0;
  }

  /** Counts a failure; returns how long the e-mail is now locked for (0: not locked). */
  fail(email: string, at: number): number {
    this.prune(at);
    const entry = this.entries.get(email);
    const run = entry && at - entry.lastFailedAt < this.lockoutMs ? entry.failures : 0;
    const failures = run + 1;
    const lockedUntil = failures >= this.maxFailures ? at + this.lockoutMs : (entry?.lockedUntil ?? 0);
    this.entries.delete(email);
    this.entries.set(email, { failures, lastFailedAt: at, lockedUntil });
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    return Math.max(0, lockedUntil - at);
  }

  get size(): number {
    return this.entries.size;
  }

  private prune(at: number): void {
    for (const [email, entry] of this.entries) {
      if (at - entry.lastFailedAt < this.lockoutMs || entry.lockedUntil > at) break;
      this.entries.delete(email);
    }
  }
}

export function createAdminLogin(options: AdminLoginOptions): AdminLogin {
  const {
    db,
    codes,
    sessions,
    publicUrl,
    now,
    maxFailedLogins = DEFAULT_MAX_FAILED_LOGINS,
    lockoutMs = DEFAULT_LOCKOUT_MS,
  } = options;
  const strangers = new StrangerFailures(maxFailedLogins, lockoutMs);
  // Unknown e-mails are checked against this, so they cost the same scrypt work as a real admin.
  let dummyHash: Promise<string> | undefined;
  const dummy = () => (dummyHash ??= hashPassword(randomBytes(18).toString('base64')));
  void dummy().catch(() => {
    dummyHash = undefined;
  });

  const tooMany = (retryAfterMs: number): LoginResult => ({
    status: 429,
    message: ADMIN_MESSAGES.tooManyAttempts,
    retryAfterMs,
  });
  const invalidLogin: LoginResult = { status: 401, message: ADMIN_MESSAGES.invalidLogin };

  /** Counts a failed login in one statement (parallel guesses all count); returns the lock in ms. */
  async function recordFailure(adminId: number, at: Date): Promise<number> {
    const atIso = at.toISOString();
    const runStart = new Date(at.getTime() - lockoutMs).toISOString();
    const lockEnd = new Date(at.getTime() + lockoutMs).toISOString();
    const failures = sql<number>`(case when last_failed_at is not null and last_failed_at > ${runStart} then failed_logins + 1 else 1 end)`;
    const row = await db
      .updateTable('admins')
      .set({
        failed_logins: failures,
        last_failed_at: atIso,
        locked_until: sql<
          string | null
        >`(case when ${failures} >= ${maxFailedLogins} then ${lockEnd} else locked_until end)`,
      })
      .where('id', '=', adminId)
      .returning(['failed_logins', 'locked_until'])
      .executeTakeFirst();
    return row && row.failed_logins >= maxFailedLogins ? lockRemainingMs(row.locked_until, at.getTime()) : 0;
  }

  async function sendCode(email: string, code: string): Promise<void> {
    const mail = renderAdminCode({ code, minutes: ADMIN_CODE_MINUTES, publicUrl });
    // No dedupe key: every issued code replaces the previous one and must be delivered.
    await enqueueMail(
      db,
      { to: email, ...mail, headers: { 'Auto-Submitted': 'auto-generated' } },
      { maxAttempts: CODE_MAIL_MAX_ATTEMPTS },
    );
  }

  return {
    async login(rawEmail, rawPassword) {
      const email = normaliseEmail(rawEmail);
      const password = typeof rawPassword === 'string' ? rawPassword : '';
      if (!email || !password) return { status: 400, message: ADMIN_MESSAGES.loginRequired };
      const at = now();
      const admin = isEmail(email) ? await findAdminByEmail(db, email) : undefined;

      if (!admin) {
        const locked = strangers.lockedFor(email, at.getTime());
        if (locked > 0) return tooMany(locked);
        await verifyPassword(password, await dummy());
        const lock = strangers.fail(email, at.getTime());
        return lock > 0 ? tooMany(lock) : invalidLogin;
      }

      const locked = lockRemainingMs(admin.locked_until, at.getTime());
      if (locked > 0) return tooMany(locked);
      if (!(await verifyPassword(password, admin.password_hash))) {
        const lock = await recordFailure(admin.id, at);
        return lock > 0 ? tooMany(lock) : invalidLogin;
      }

      // The right password ends the run of failures (and re-hashes with today's parameters).
      const rehash = needsRehash(admin.password_hash) ? await hashPassword(password) : null;
      if (admin.failed_logins > 0 || admin.last_failed_at !== null || admin.locked_until !== null || rehash) {
        await db
          .updateTable('admins')
          .set({
            failed_logins: 0,
            last_failed_at: null,
            locked_until: null,
            ...(rehash ? { password_hash: rehash } : {}),
          })
          .where('id', '=', admin.id)
          .execute();
      }

      if (admin.is_verified !== 1) {
        const issued = await codes.issue(ADMIN_LOGIN_PURPOSE, email);
        // Throttled: a code sent moments ago is still valid, and the reply must not fail.
        if (issued.ok) await sendCode(email, issued.code);
        return { status: 409, isVerified: false, message: ADMIN_MESSAGES.notVerified };
      }

      const { token, expiresAt } = await sessions.issue(admin.id, at);
      return { status: 200, access_token: token, isVerified: true, expiresAt, message: ADMIN_MESSAGES.loggedIn };
    },

    async verifyOtp(rawEmail, rawOtp) {
      const email = requireEmail(rawEmail);
      const otp = typeof rawOtp === 'string' ? rawOtp.trim() : '';
      if (!otp) throw new AdminAuthError(ADMIN_MESSAGES.codeRequired, 400);
      // Every address goes through the same checks: an unknown e-mail answers like an admin's.
      const verified = await codes.verify(ADMIN_LOGIN_PURPOSE, email, otp);
      if (!verified.ok) throw new AdminAuthError(CODE_FAILURE_MESSAGES[verified.reason], 400);
      const admin = await findAdminByEmail(db, email);
      // Codes for other addresses are never sent, so this is a lucky guess at most.
      if (!admin) throw new AdminAuthError(ADMIN_MESSAGES.invalid, 400);
      if (admin.is_verified !== 1) {
        await db
          .updateTable('admins')
          .set({ is_verified: 1, updated_at: now().toISOString() })
          .where('id', '=', admin.id)
          .execute();
      }
      return { ok: true };
    },

    async resendOtp(rawEmail) {
      const email = requireEmail(rawEmail);
      // Issued (and throttled) for every address, so neither the reply nor the throttle differs.
      const issued = await codes.issue(ADMIN_LOGIN_PURPOSE, email);
      if (!issued.ok) throw new AdminAuthError(throttledMessage(issued.retryAfterMs), 429, issued.retryAfterMs);
      const admin = await findAdminByEmail(db, email);
      if (admin && admin.is_verified !== 1) await sendCode(email, issued.code);
      return { message: ADMIN_MESSAGES.codeSent };
    },
  };
}
