/**
 * Admin auth, one façade over its three parts, so callers (the API, the CLI, the store) see one
 * service:
 *
 * - accounts (admin-accounts.ts): create, password reset, list;
 * - sessions (admin-sessions.ts): opaque bearer tokens, issued at login, authenticated on every
 *   admin call, revoked by logout or a password reset;
 * - the login flow (admin-login.ts): password, the e-mailed code that verifies an account at its
 *   first login, and the lockout against password guessing, without revealing which e-mails
 *   are admins'.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { type Clock, systemClock } from '../clock.ts';
import { type AdminAccounts, createAdminAccounts } from './admin-accounts.ts';
import { type AdminLogin, createAdminLogin } from './admin-login.ts';
import { type AdminSession, createAdminSessions } from './admin-sessions.ts';
import type { OneTimeCodes } from './one-time-codes.ts';

export { type AdminSummary } from './admin-accounts.ts';
export { ADMIN_MESSAGES, AdminAuthError } from './admin-errors.ts';
export {
  ADMIN_CODE_MINUTES,
  ADMIN_LOGIN_PURPOSE,
  DEFAULT_LOCKOUT_MS,
  DEFAULT_MAX_FAILED_LOGINS,
  type LoginResult,
  StrangerFailures,
} from './admin-login.ts';
export { type AdminSession, DEFAULT_TOKEN_TTL_MS, hashToken } from './admin-sessions.ts';

export interface AdminAuthOptions {
  db: Kysely<Database>;
  codes: OneTimeCodes;
  /** The store's public origin, for the link in the code e-mail. */
  publicUrl: string;
  now?: Clock | undefined;
  tokenTtlMs?: number;
  maxFailedLogins?: number;
  lockoutMs?: number;
}

export interface AdminAuth extends AdminAccounts, AdminLogin {
  /** The session of a live token (not revoked, not expired, admin verified), or null. */
  authenticate(token: string): Promise<AdminSession | null>;
  /** Revokes the token; whether it was live. */
  logout(token: string): Promise<boolean>;
}

export function createAdminAuth(options: AdminAuthOptions): AdminAuth {
  const { db, codes, publicUrl, now = systemClock } = options;
  const sessions = createAdminSessions({
    db,
    now,
    ...(options.tokenTtlMs === undefined ? {} : { tokenTtlMs: options.tokenTtlMs }),
  });
  const accounts = createAdminAccounts({ db, now });
  const login = createAdminLogin({
    db,
    codes,
    sessions,
    publicUrl,
    now,
    ...(options.maxFailedLogins === undefined ? {} : { maxFailedLogins: options.maxFailedLogins }),
    ...(options.lockoutMs === undefined ? {} : { lockoutMs: options.lockoutMs }),
  });
  return {
    ...accounts,
    ...login,
    authenticate: (token) => sessions.authenticate(token),
    logout: (token) => sessions.revoke(token),
  };
}
