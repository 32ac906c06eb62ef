/**
 * The admin login flow: password, then a second factor on every login, and the lockout against
 * guessing (decision 016).
 *
 * - A right password answers 409 / isVerified false (the spec's OTP step, as the browser meets
 *   it) and asks for the second factor: by default a 6-digit code e-mailed to the admin
 *   (one-time-codes.ts, purpose 'admin-login': hashed, 10 minutes, single use, 5 attempts,
 *   resend throttled); for an admin enrolled in TOTP, a code from the authenticator app or a
 *   recovery code (second-factor.ts). `verifyOtp` checks it (the first accepted e-mailed code
 *   also marks the account verified) and leaves a grant: the login the browser then sends again
 *   from the same address returns a token (admin-sessions.ts).
 * - Nothing reveals whether an e-mail belongs to an admin: an unknown e-mail gets the same 401 as
 *   a wrong password, after checking the password against a dummy hash so the reply takes as
 *   long; it is locked out the same way; `verifyOtp` and `resendOtp` run the same code checks
 *   and throttles for every address, and only e-mail an admin who has just given the password.
 * - Lockout per account and source address, with an account-wide slowdown (login-failures.ts):
 *   guesses from other addresses never keep the admin out of their own.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import { enqueueMail } from '../mail/send-mail-job.ts';
import { renderAdminCode } from '../mail/templates/admin-code.ts';
import { isEmail } from '../email.ts';
import { findAdminByEmail } from './admin-accounts.ts';
import { ADMIN_MESSAGES, AdminAuthError, normaliseEmail, requireEmail } from './admin-errors.ts';
import type { AdminSessions } from './admin-sessions.ts';
import { type LoginFailures, createLoginFailures } from './login-failures.ts';
import { CODE_FAILURE_MESSAGES, type OneTimeCodes, throttledMessage } from './one-time-codes.ts';
import { hashPassword, needsRehash, verifyPassword } from './passwords.ts';
import { type SecondFactorMethod, type SecondFactors, createSecondFactors } from './second-factor.ts';

/** What the code proves; also the codes table's `purpose`. */
const ADMIN_LOGIN_PURPOSE = 'admin-login';
/** Codes issued to answer a resend that sends nothing (see `resendOtp`); never e-mailed. */
const ADMIN_DECOY_PURPOSE = 'admin-login-decoy';
/** As configured in the codes service (its default TTL). */
const ADMIN_CODE_MINUTES = 10;
/** Mail retries with backoff from 5 s doubling: 6 attempts span about 2.5 minutes. */
const CODE_MAIL_MAX_ATTEMPTS = 6;

type LoginResult =
  | { status: 200; access_token: string; isVerified: true; expiresAt: Date; message: string }
  | { status: 409; isVerified: false; secondFactor: SecondFactorMethod; message: string }
  | { status: 400 | 401; message: string }
  | { status: 429; message: string; retryAfterMs: number };

interface AdminLoginOptions {
  db: Kysely<Database>;
  codes: OneTimeCodes;
  sessions: AdminSessions;
  secondFactors?: SecondFactors;
  /** The store's public origin, for the link in the code e-mail. */
  publicUrl: string;
  now: Clock;
  maxFailedLogins?: number;
  lockoutMs?: number;
  slowdownAfter?: number;
  slowdownBaseMs?: number;
  slowdownMaxMs?: number;
  /** Holds a failed attempt's reply back (the slowdown); tests record instead of waiting. */
  sleep?: (ms: number) => Promise<void>;
}

export interface AdminLogin {
  /**
   * Never throws for bad credentials: the result carries the HTTP status and message. `source`
   * is the client's address (the lockout's key, with the e-mail).
   */
  login(email: string, password: string, source: string): Promise<LoginResult>;
  /** Checks the second factor (e-mailed code, TOTP or recovery code); throws `AdminAuthError` (400, 429). */
  verifyOtp(email: string, otp: string, source: string): Promise<{ ok: true }>;
  /** E-mails a new code to an admin in the middle of a login; the same reply for any address; 429 when throttled. */
  resendOtp(email: string): Promise<{ message: string }>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createAdminLogin(options: AdminLoginOptions): AdminLogin {
  const { db, codes, sessions, publicUrl, now, sleep = defaultSleep } = options;
  const factors = options.secondFactors ?? createSecondFactors(db);
  const failures: LoginFailures = createLoginFailures({
    db,
    ...(options.maxFailedLogins === undefined ? {} : { maxFailures: options.maxFailedLogins }),
    ...(options.lockoutMs === undefined ? {} : { lockoutMs: options.lockoutMs }),
    ...(options.slowdownAfter === undefined ? {} : { slowdownAfter: options.slowdownAfter }),
    ...(options.slowdownBaseMs === undefined ? {} : { slowdownBaseMs: options.slowdownBaseMs }),
    ...(options.slowdownMaxMs === undefined ? {} : { slowdownMaxMs: options.slowdownMaxMs }),
  });
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

  /** Counts a failure from `source` and holds the reply back by the account-wide slowdown. */
  async function fail(email: string, source: string, at: Date): Promise<number> {
    const { lockedForMs, delayMs } = await failures.fail(email, source, at);
    if (delayMs > 0) await sleep(delayMs);
    return lockedForMs;
  }

  async function refuseLockedSource(email: string, source: string, at: Date): Promise<void> {
    const locked = await failures.lockedFor(email, source, at);
    if (locked > 0) throw new AdminAuthError(ADMIN_MESSAGES.tooManyAttempts, 429, locked);
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
    async login(rawEmail, rawPassword, source) {
      const email = normaliseEmail(rawEmail);
      const password = typeof rawPassword === 'string' ? rawPassword : '';
      if (!email || !password) return { status: 400, message: ADMIN_MESSAGES.loginRequired };
      const at = now();
      const locked = await failures.lockedFor(email, source, at);
      if (locked > 0) return tooMany(locked);

      const admin = isEmail(email) ? await findAdminByEmail(db, email) : undefined;
      let passwordRight = false;
      if (admin) passwordRight = await verifyPassword(password, admin.password_hash);
      else await verifyPassword(password, await dummy()); // the same scrypt work, whatever the answer
      if (!admin || !passwordRight) {
        const lock = await fail(email, source, at);
        return lock > 0 ? tooMany(lock) : invalidLogin;
      }

      // Re-hash with today's parameters while the password is at hand.
      if (needsRehash(admin.password_hash)) {
        await db
          .updateTable('admins')
          .set({ password_hash: await hashPassword(password) })
          .where('id', '=', admin.id)
          .execute();
      }

      // The second factor passed from this address moments ago: this is the login it was for.
      if (admin.is_verified === 1 && (await factors.consumeGrant(admin.id, source, at))) {
        await failures.succeed(email, source);
        const { token, expiresAt } = await sessions.issue(admin.id, at);
        return { status: 200, access_token: token, isVerified: true, expiresAt, message: ADMIN_MESSAGES.loggedIn };
      }

      await factors.openChallenge(admin.id, at);
      const method = admin.is_verified === 1 ? await factors.method(admin.id) : 'email';
      if (method === 'totp') {
        return { status: 409, isVerified: false, secondFactor: 'totp', message: ADMIN_MESSAGES.enterTotp };
      }
      const issued = await codes.issue(ADMIN_LOGIN_PURPOSE, email);
      // Throttled: a code sent moments ago is still valid, and the reply must not fail.
      if (issued.ok) await sendCode(email, issued.code);
      return {
        status: 409,
        isVerified: false,
        secondFactor: 'email',
        message: admin.is_verified === 1 ? ADMIN_MESSAGES.enterEmailedCode : ADMIN_MESSAGES.notVerified,
      };
    },

    async verifyOtp(rawEmail, rawOtp, source) {
      const email = requireEmail(rawEmail);
      const otp = typeof rawOtp === 'string' ? rawOtp.trim() : '';
      if (!otp) throw new AdminAuthError(ADMIN_MESSAGES.codeRequired, 400);
      const at = now();
      await refuseLockedSource(email, source, at);
      const admin = await findAdminByEmail(db, email);

      if (admin && admin.is_verified === 1 && (await factors.method(admin.id)) === 'totp') {
        const answer = await factors.answerChallenge(admin.id, otp, at);
        if (answer === 'no-challenge') throw new AdminAuthError(ADMIN_MESSAGES.missing, 400);
        if (typeof answer === 'object') {
          throw new AdminAuthError(ADMIN_MESSAGES.tooManyAttempts, 429, answer.retryAfterMs);
        }
        if (answer === 'invalid' || answer === 'spent') {
          const lock = await fail(email, source, at);
          if (lock > 0) throw new AdminAuthError(ADMIN_MESSAGES.tooManyAttempts, 429, lock);
          throw new AdminAuthError(answer === 'spent' ? ADMIN_MESSAGES.challengeSpent : ADMIN_MESSAGES.invalid, 400);
        }
        await factors.grant(admin.id, source, at);
        return { ok: true };
      }

      // Every other address goes through the same checks: an unknown e-mail answers like an admin's.
      const verified = await codes.verify(ADMIN_LOGIN_PURPOSE, email, otp);
      if (!verified.ok) {
        // A wrong guess counts towards this address's lockout too; asking without a code does not.
        if (verified.reason === 'invalid' || verified.reason === 'locked') await fail(email, source, at);
        throw new AdminAuthError(CODE_FAILURE_MESSAGES[verified.reason], 400);
      }
      // Codes for other addresses are never sent, so this is a lucky guess at most.
      if (!admin) throw new AdminAuthError(ADMIN_MESSAGES.invalid, 400);
      if (admin.is_verified !== 1) {
        await db
          .updateTable('admins')
          .set({ is_verified: 1, updated_at: at.toISOString() })
          .where('id', '=', admin.id)
          .execute();
      }
      await factors.grant(admin.id, source, at);
      return { ok: true };
    },

    async resendOtp(rawEmail) {
      const email = requireEmail(rawEmail);
      const admin = await findAdminByEmail(db, email);
      // Only an admin who gave the right password moments ago and gets codes by e-mail is sent
      // one. Everyone else gets a decoy, issued and throttled alike so the replies do not differ,
      // under its own purpose: resends without the password can neither replace the admin's
      // code nor use up its hourly sends (that would lock the admin out).
      const live =
        !!admin && (await factors.hasOpenChallenge(admin.id, now())) && (await factors.method(admin.id)) !== 'totp';
      const issued = await codes.issue(live ? ADMIN_LOGIN_PURPOSE : ADMIN_DECOY_PURPOSE, email);
      if (!issued.ok) throw new AdminAuthError(throttledMessage(issued.retryAfterMs), 429, issued.retryAfterMs);
      if (live) await sendCode(email, issued.code);
      return { message: ADMIN_MESSAGES.codeSent };
    },
  };
}
