/**
 * Admin auth, one façade over its three parts, so callers (the API, the CLI, the store) see one
 * service:
 *
 * - accounts (admin-accounts.ts): create, password reset, list;
 * - sessions (admin-sessions.ts): opaque bearer tokens, issued at login, authenticated on every
 *   admin call, revoked by logout or a password reset;
 * - the login flow (admin-login.ts): password, a second factor on every login (the e-mailed
 *   code, or TOTP with recovery codes: second-factor.ts), and the lockout per account and source
 *   (login-failures.ts), without revealing which e-mails are admins';
 * - the admin's own second-factor settings (the security page): enrol in TOTP, turn it off.
 */
import type { Kysely } from 'kysely';
import { isPostgres } from '../../db/dialect.ts';
import type { Database } from '../../db/schema.ts';
import { type Clock, systemClock } from '../clock.ts';
import { type AdminAccounts, createAdminAccounts } from './admin-accounts.ts';
import { type AdminLogin, createAdminLogin } from './admin-login.ts';
import { type AdminSession, createAdminSessions } from './admin-sessions.ts';
import type { OneTimeCodes } from './one-time-codes.ts';
import { type SecondFactorStatus, createSecondFactors } from './second-factor.ts';
import type { TotpKeySource } from './totp-keys.ts';
import { ADMIN_MESSAGES, AdminAuthError } from './admin-errors.ts';
import { type AdminTeam, createAdminTeam } from './invitations.ts';

export { ADMIN_MESSAGES, AdminAuthError } from './admin-errors.ts';
export { type SecondFactorStatus } from './second-factor.ts';
export { type AdminSession, hashToken } from './admin-sessions.ts';

interface AdminAuthOptions {
  db: Kysely<Database>;
  codes: OneTimeCodes;
  /** The store's public origin, for the link in the code e-mail. */
  publicUrl: string;
  now?: Clock | undefined;
  tokenTtlMs?: number;
  maxFailedLogins?: number;
  lockoutMs?: number;
  slowdownAfter?: number;
  slowdownBaseMs?: number;
  slowdownMaxMs?: number;
  sleep?: (ms: number) => Promise<void>;
  /** Where the TOTP secrets' key comes from (decision 022); the database's key by default (development). */
  totpKeys?: TotpKeySource;
}

export interface AdminAuth extends AdminAccounts, AdminLogin {
  /** Roles, invitations, removals (decision 041, invitations.ts). */
  team: AdminTeam;
  /** The clock admin auth reads (the audit log's entries are stamped with it). */
  clock: Clock;
  /** The session of a live token (not revoked, not expired, admin verified), or null. */
  authenticate(token: string): Promise<AdminSession | null>;
  /** Revokes the token; whether it was live. */
  logout(token: string): Promise<boolean>;
  secondFactorStatus(adminId: number): Promise<SecondFactorStatus>;
  /** A new TOTP secret to enrol: shown once (as text and an otpauth URL), kept encrypted. */
  startTotp(adminId: number, email: string): Promise<{ secret: string; otpauthUrl: string }>;
  /** Enables TOTP with a code from the app; the recovery codes, shown once; 400 for a wrong code. */
  confirmTotp(adminId: number, code: string): Promise<{ recoveryCodes: string[] }>;
  /** Back to e-mailed codes; needs a current TOTP code or a recovery code (400 otherwise). */
  disableTotp(adminId: number, code: string): Promise<void>;
}

export function createAdminAuth(options: AdminAuthOptions): AdminAuth {
  const { db, codes, publicUrl, now = systemClock } = options;
  const sessions = createAdminSessions({
    db,
    now,
    ...(options.tokenTtlMs === undefined ? {} : { tokenTtlMs: options.tokenTtlMs }),
  });
  const accounts = createAdminAccounts({ db, now });
  const secondFactors = createSecondFactors(db, options.totpKeys);
  const { maxFailedLogins, lockoutMs, slowdownAfter, slowdownBaseMs, slowdownMaxMs, sleep } = options;
  const login = createAdminLogin({
    db,
    codes,
    sessions,
    secondFactors,
    publicUrl,
    now,
    ...(maxFailedLogins === undefined ? {} : { maxFailedLogins }),
    ...(lockoutMs === undefined ? {} : { lockoutMs }),
    ...(slowdownAfter === undefined ? {} : { slowdownAfter }),
    ...(slowdownBaseMs === undefined ? {} : { slowdownBaseMs }),
    ...(slowdownMaxMs === undefined ? {} : { slowdownMaxMs }),
    ...(sleep === undefined ? {} : { sleep }),
  });
  return {
    ...accounts,
    ...login,
    team: createAdminTeam({ db, now, publicUrl, lockRows: isPostgres(db) }),
    clock: now,
    authenticate: (token) => sessions.authenticate(token),
    logout: (token) => sessions.revoke(token),
    secondFactorStatus: (adminId) => secondFactors.status(adminId),
    startTotp: (adminId, email) => secondFactors.startTotp(adminId, email, now()),
    async confirmTotp(adminId, code) {
      const enabled = await secondFactors.confirmTotp(adminId, typeof code === 'string' ? code : '', now());
      if (!enabled) {
        const started = await secondFactors.hasPendingTotp(adminId);
        throw new AdminAuthError(started ? ADMIN_MESSAGES.invalid : ADMIN_MESSAGES.totpNotStarted, 400);
      }
      return enabled;
    },
    async disableTotp(adminId, code) {
      const at = now();
      if (!(await secondFactors.checkCode(adminId, typeof code === 'string' ? code : '', at))) {
        throw new AdminAuthError(ADMIN_MESSAGES.invalid, 400);
      }
      await secondFactors.disableTotp(adminId, at);
    },
  };
}
