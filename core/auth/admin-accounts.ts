/**
 * Admin accounts: made by the operator (`npm run admin -- create`), unverified until the first
 * login's e-mailed code (admin-login.ts); a password reset sets a new password, ends any lockout
 * and revokes the admin's tokens.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import { ADMIN_MESSAGES, AdminAuthError, requireEmail } from './admin-errors.ts';
import { revokeAdminTokens } from './admin-sessions.ts';
import { hashPassword, passwordProblem } from './passwords.ts';

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

export interface AdminAccountsOptions {
  db: Kysely<Database>;
  now: Clock;
}

export interface AdminAccounts {
  /** A new, unverified admin; throws `AdminAuthError` (400 bad e-mail or weak password, 409 taken). */
  createAdmin(email: string, password: string): Promise<{ id: number; email: string }>;
  /** Sets a new password, ends any lockout and revokes the admin's tokens; 404 if unknown. */
  resetPassword(email: string, password: string): Promise<{ email: string; revokedTokens: number }>;
  listAdmins(): Promise<AdminSummary[]>;
}

export function findAdminByEmail(db: Kysely<Database>, email: string) {
  return db.selectFrom('admins').selectAll().where('email', '=', email).executeTakeFirst();
}

/** Milliseconds a lockout ending at `lockedUntil` still lasts at `at`, or 0. */
export function lockRemainingMs(lockedUntil: string | null, at: number): number {
  return lockedUntil ? Math.max(0, Date.parse(lockedUntil) - at) : 0;
}

function checkPassword(password: unknown): string {
  if (typeof password !== 'string') throw new AdminAuthError('Password is required', 400);
  const problem = passwordProblem(password);
  if (problem) throw new AdminAuthError(problem, 400);
  return password;
}

export function createAdminAccounts({ db, now }: AdminAccountsOptions): AdminAccounts {
  return {
    async createAdmin(rawEmail, rawPassword) {
      const email = requireEmail(rawEmail);
      const password = checkPassword(rawPassword);
      if (await findAdminByEmail(db, email)) throw new AdminAuthError(ADMIN_MESSAGES.adminExists, 409);
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
        if (await findAdminByEmail(db, email)) throw new AdminAuthError(ADMIN_MESSAGES.adminExists, 409);
        throw error;
      }
    },

    async resetPassword(rawEmail, rawPassword) {
      const email = requireEmail(rawEmail);
      const password = checkPassword(rawPassword);
      const admin = await findAdminByEmail(db, email);
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
        return revokeAdminTokens(trx, admin.id, at);
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
        lockedUntil: lockRemainingMs(row.locked_until, at.getTime()) > 0 ? row.locked_until : null,
        createdAt: row.created_at,
        activeTokens: Number(row.active_tokens ?? 0),
      }));
    },
  };
}
