/**
 * Admin accounts: password login, a one-time code that verifies the account at its first login,
 * opaque bearer tokens, and a lockout against password guessing.
 *
 * - Accounts are made by the operator (`npm run admin -- create`), unverified. The first login
 *   with the right password answers 409 and e-mails a 6-digit code (core/auth/one-time-codes.ts,
 *   purpose 'admin-login': hashed, 10 minutes, single use, 5 attempts, resend throttled);
 *   `verifyOtp` marks the account verified; from then on a login returns a token.
 * - Tokens are 32 random bytes (base64url); only their SHA-256 is stored, so a copy of the
 *   database opens no session. They expire `tokenTtlMs` (12 h) after the login, whatever the
 *   use (no sliding expiry), and logout or a password reset revokes them.
 * - Nothing reveals whether an e-mail belongs to an admin: an unknown e-mail gets the same
 *   401 as a wrong password, after checking the password against a dummy hash so the reply
 *   takes as long; it is locked out the same way; `verifyOtp` and `resendOtp` run the same
 *   code checks and throttles for every address, and only e-mail an actual unverified admin.
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
import { createHash, randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { enqueueMail } from '../mail/send-mail-job.ts';
import { renderAdminCode } from '../mail/templates/admin-code.ts';
import { isEmail } from '../orders/validation.ts';
import { CODE_FAILURE_MESSAGES, type OneTimeCodes, throttledMessage } from './one-time-codes.ts';
import { hashPassword, needsRehash, passwordProblem, verifyPassword } from './passwords.ts';

/** What the code proves; also the codes table's `purpose`. */
export const ADMIN_LOGIN_PURPOSE = 'admin-login';
/** As configured in the codes service (its default TTL). */
export const ADMIN_CODE_MINUTES = 10;
export const DEFAULT_TOKEN_TTL_MS = 12 * 60 * 60_000;
export const DEFAULT_MAX_FAILED_LOGINS = 5;
export const DEFAULT_LOCKOUT_MS = 15 * 60_000;
/** `last_used_at` is written at most this often per token. */
const LAST_USED_RESOLUTION_MS = 60_000;
/** Expired tokens are deleted this long after they expired (at the admin's next login). */
const EXPIRED_TOKEN_KEEP_MS = 30 * 24 * 60 * 60_000;
/** Mail retries with backoff from 5 s doubling: 6 attempts span about 2.5 minutes. */
const CODE_MAIL_MAX_ATTEMPTS = 6;
/** 32 bytes in base64url. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const ADMIN_MESSAGES = {
  loginRequired: 'Email and password are required',
  invalidLogin: 'Invalid email or password.',
  tooManyAttempts: 'Too many attempts. Try again later.',
  loggedIn: 'Logged in',
  notVerified: 'Your account is not verified yet. Enter the 6-digit code we sent to your e-mail.',
  emailRequired: 'Email is required',
  emailInvalid: 'Invalid email',
  codeRequired: 'Code is required',
  codeSent: 'A new code has been sent to your e-mail.',
  verified: 'Your account is verified. Log in to continue.',
  invalid: CODE_FAILURE_MESSAGES.invalid,
  expired: CODE_FAILURE_MESSAGES.expired,
  locked: CODE_FAILURE_MESSAGES.locked,
  missing: CODE_FAILURE_MESSAGES.missing,
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

/** The same shape as server/api/admin-guard.ts's `AdminSession`. */
export interface AdminSession {
  adminId: number;
  email: string;
  tokenId: number;
}

export type LoginResult =
  | { status: 200; access_token: string; isVerified: true; expiresAt: Date; message: string }
  | { status: 409; isVerified: false; message: string }
  | { status: 400 | 401; message: string }
  | { status: 429; message: string; retryAfterMs: number };

export interface AdminSummary {
  id: number;
  email: string;
  isVerified: boolean;
  /** While a lockout lasts, its end (ISO-8601); otherwise null. */
  lockedUntil: string | null;
  createdAt: string;
  /** Tokens neither expired nor revoked. */
  activeTokens: number;
}

export interface AdminAuthOptions {
  db: Kysely<Database>;
  codes: OneTimeCodes;
  /** The store's public origin, for the link in the code e-mail. */
  publicUrl: string;
  now?: (() => Date) | undefined;
  tokenTtlMs?: number;
  maxFailedLogins?: number;
  lockoutMs?: number;
}

export interface AdminAuth {
  /** A new, unverified admin; throws `AdminAuthError` (400 bad e-mail or weak password, 409 taken). */
  createAdmin(email: string, password: string): Promise<{ id: number; email: string }>;
  /** Sets a new password, ends any lockout and revokes the admin's tokens; 404 if unknown. */
  resetPassword(email: string, password: string): Promise<{ email: string; revokedTokens: number }>;
  listAdmins(): Promise<AdminSummary[]>;
  /** Never throws for bad credentials: the result carries the HTTP status and message. */
  login(email: string, password: string): Promise<LoginResult>;
  /** Verifies the account with its e-mailed code; throws `AdminAuthError` (400). */
  verifyOtp(email: string, otp: string): Promise<{ ok: true }>;
  /** E-mails a new code to an unverified admin; the same reply for any address; 429 when throttled. */
  resendOtp(email: string): Promise<{ message: string }>;
  /** The session of a live token (not revoked, not expired, admin verified), or null. */
  authenticate(token: string): Promise<AdminSession | null>;
  /** Revokes the token; whether it was live. */
  logout(token: string): Promise<boolean>;
}

function normaliseEmail(raw: unknown): string {
  return typeof raw === 'string' ? raw.trim().toLowerCase() : '';
}

/** Validates an e-mail for the code calls (400 with the spec's wording). */
function requireEmail(raw: unknown): string {
  const email = normaliseEmail(raw);
  if (!email) throw new AdminAuthError(ADMIN_MESSAGES.emailRequired, 400);
  if (!isEmail(email)) throw new AdminAuthError(ADMIN_MESSAGES.emailInvalid, 400);
  return email;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
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

export function createAdminAuth(options: AdminAuthOptions): AdminAuth {
  const {
    db,
    codes,
    publicUrl,
    now = () => new Date(),
    tokenTtlMs = DEFAULT_TOKEN_TTL_MS,
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

  const findAdmin = (email: string) =>
    db.selectFrom('admins').selectAll().where('email', '=', email).executeTakeFirst();

  const lockedFor = (lockedUntil: string | null, at: number) =>
    lockedUntil ? Math.max(0, Date.parse(lockedUntil) - at) : 0;

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
    return row && row.failed_logins >= maxFailedLogins ? lockedFor(row.locked_until, at.getTime()) : 0;
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

  async function issueToken(adminId: number, at: Date): Promise<{ token: string; expiresAt: Date }> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(at.getTime() + tokenTtlMs);
    await db
      .insertInto('admin_tokens')
      .values({
        admin_id: adminId,
        token_hash: hashToken(token),
        created_at: at.toISOString(),
        expires_at: expiresAt.toISOString(),
        revoked_at: null,
        last_used_at: null,
      })
      .execute();
    // Housekeeping: one row per login would otherwise pile up.
    await db
      .deleteFrom('admin_tokens')
      .where('admin_id', '=', adminId)
      .where('expires_at', '<', new Date(at.getTime() - EXPIRED_TOKEN_KEEP_MS).toISOString())
      .execute();
    return { token, expiresAt };
  }

  function checkPassword(password: unknown): string {
    if (typeof password !== 'string') throw new AdminAuthError('Password is required', 400);
    const problem = passwordProblem(password);
    if (problem) throw new AdminAuthError(problem, 400);
    return password;
  }

  return {
    async createAdmin(rawEmail, rawPassword) {
      const email = requireEmail(rawEmail);
      const password = checkPassword(rawPassword);
      if (await findAdmin(email)) throw new AdminAuthError(ADMIN_MESSAGES.adminExists, 409);
      const passwordHash = await hashPassword(password);
      const at = now().toISOString();
      try {
        const row = await db
          .insertInto('admins')
          .values({
            email,
            password_hash: passwordHash,
            locked_until: null,
            last_failed_at: null,
            created_at: at,
            updated_at: at,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        return { id: row.id, email };
      } catch (error) {
        // Created by someone else between the check and the insert: the unique e-mail refused it.
        if (await findAdmin(email)) throw new AdminAuthError(ADMIN_MESSAGES.adminExists, 409);
        throw error;
      }
    },

    async resetPassword(rawEmail, rawPassword) {
      const email = requireEmail(rawEmail);
      const password = checkPassword(rawPassword);
      const admin = await findAdmin(email);
      if (!admin) throw new AdminAuthError(ADMIN_MESSAGES.noSuchAdmin, 404);
      const passwordHash = await hashPassword(password);
      const at = now().toISOString();
      const revoked = await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('admins')
          .set({
            password_hash: passwordHash,
            failed_logins: 0,
            last_failed_at: null,
            locked_until: null,
            updated_at: at,
          })
          .where('id', '=', admin.id)
          .execute();
        const result = await trx
          .updateTable('admin_tokens')
          .set({ revoked_at: at })
          .where('admin_id', '=', admin.id)
          .where('revoked_at', 'is', null)
          .where('expires_at', '>', at)
          .executeTakeFirst();
        return Number(result.numUpdatedRows);
      });
      return { email, revokedTokens: revoked };
    },

    async listAdmins() {
      const at = now();
      const atIso = at.toISOString();
      const rows = await db
        .selectFrom('admins')
        .select((eb) => [
          'admins.id',
          'admins.email',
          'admins.is_verified',
          'admins.locked_until',
          'admins.created_at',
          eb
            .selectFrom('admin_tokens')
            .select((inner) => inner.fn.countAll<number>().as('n'))
            .whereRef('admin_tokens.admin_id', '=', 'admins.id')
            .where('admin_tokens.revoked_at', 'is', null)
            .where('admin_tokens.expires_at', '>', atIso)
            .as('active_tokens'),
        ])
        .orderBy('admins.id')
        .execute();
      return rows.map((row) => ({
        id: row.id,
        email: row.email,
        isVerified: row.is_verified === 1,
        lockedUntil: lockedFor(row.locked_until, at.getTime()) > 0 ? row.locked_until : null,
        createdAt: row.created_at,
        activeTokens: Number(row.active_tokens ?? 0),
      }));
    },

    async login(rawEmail, rawPassword) {
      const email = normaliseEmail(rawEmail);
      const password = typeof rawPassword === 'string' ? rawPassword : '';
      if (!email || !password) return { status: 400, message: ADMIN_MESSAGES.loginRequired };
      const at = now();
      const admin = isEmail(email) ? await findAdmin(email) : undefined;

      if (!admin) {
        const locked = strangers.lockedFor(email, at.getTime());
        if (locked > 0) return tooMany(locked);
        await verifyPassword(password, await dummy());
        const lock = strangers.fail(email, at.getTime());
        return lock > 0 ? tooMany(lock) : invalidLogin;
      }

      const locked = lockedFor(admin.locked_until, at.getTime());
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

      const { token, expiresAt } = await issueToken(admin.id, at);
      return { status: 200, access_token: token, isVerified: true, expiresAt, message: ADMIN_MESSAGES.loggedIn };
    },

    async verifyOtp(rawEmail, rawOtp) {
      const email = requireEmail(rawEmail);
      const otp = typeof rawOtp === 'string' ? rawOtp.trim() : '';
      if (!otp) throw new AdminAuthError(ADMIN_MESSAGES.codeRequired, 400);
      // Every address goes through the same checks: an unknown e-mail answers like an admin's.
      const verified = await codes.verify(ADMIN_LOGIN_PURPOSE, email, otp);
      if (!verified.ok) throw new AdminAuthError(CODE_FAILURE_MESSAGES[verified.reason], 400);
      const admin = await findAdmin(email);
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
      const admin = await findAdmin(email);
      if (admin && admin.is_verified !== 1) await sendCode(email, issued.code);
      return { message: ADMIN_MESSAGES.codeSent };
    },

    async authenticate(token) {
      if (typeof token !== 'string' || !TOKEN_PATTERN.test(token)) return null;
      const at = now();
      const row = await db
        .selectFrom('admin_tokens')
        .innerJoin('admins', 'admins.id', 'admin_tokens.admin_id')
        .select([
          'admin_tokens.id as tokenId',
          'admin_tokens.expires_at',
          'admin_tokens.revoked_at',
          'admin_tokens.last_used_at',
          'admins.id as adminId',
          'admins.email',
          'admins.is_verified',
        ])
        .where('admin_tokens.token_hash', '=', hashToken(token))
        .executeTakeFirst();
      if (!row || row.revoked_at !== null || Date.parse(row.expires_at) <= at.getTime() || row.is_verified !== 1)
        return null;
      if (!row.last_used_at || at.getTime() - Date.parse(row.last_used_at) >= LAST_USED_RESOLUTION_MS) {
        const atIso = at.toISOString();
        const staleBefore = new Date(at.getTime() - LAST_USED_RESOLUTION_MS).toISOString();
        await db
          .updateTable('admin_tokens')
          .set({ last_used_at: atIso })
          .where('id', '=', row.tokenId)
          .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', staleBefore)]))
          .execute();
      }
      return { adminId: row.adminId, email: row.email, tokenId: row.tokenId };
    },

    async logout(token) {
      if (typeof token !== 'string' || !TOKEN_PATTERN.test(token)) return false;
      const result = await db
        .updateTable('admin_tokens')
        .set({ revoked_at: now().toISOString() })
        .where('token_hash', '=', hashToken(token))
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}
