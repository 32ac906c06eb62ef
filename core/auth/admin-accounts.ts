/**
 * Admin accounts: made by the operator (`npm run admin -- create`), unverified until the first
 * login's e-mailed code (admin-login.ts); a password reset sets a new password, ends any lockout
 * and revokes the admin's tokens; a second-factor reset (a lost authenticator) puts the admin
 * back on e-mailed codes.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import { ADMIN_MESSAGES, AdminAuthError, requireEmail } from './admin-errors.ts';
import { revokeAdminTokens } from './admin-sessions.ts';
import { hashPassword, passwordProblem } from './passwords.ts';
import { type AdminRole, storedRole } from './roles.ts';

interface AdminSummary {
  id: number;
  email: string;
  role: AdminRole;
  isVerified: boolean;
  /** While some source address is locked out of the account, the latest lock's end (ISO-8601); otherwise null. */
  lockedUntil: string | null;
  /** The second factor every login asks for. */
  secondFactor: 'email' | 'totp';
  createdAt: string;
  /** Tokens neither expired nor revoked. */
  activeTokens: number;
}

interface AdminAccountsOptions {
  db: Kysely<Database>;
  now: Clock;
}

export interface AdminAccounts {
  /**
   * A new, unverified admin; throws `AdminAuthError` (400 bad e-mail or weak password, 409 taken).
   * An owner unless told otherwise: the operator's CLI is how a store gets its first owner.
   */
  createAdmin(
    email: string,
    password: string,
    role?: AdminRole,
  ): Promise<{ id: number; email: string; role: AdminRole }>;
  /** Sets a new password, ends any lockout and revokes the admin's tokens; 404 if unknown. */
  resetPassword(email: string, password: string): Promise<{ email: string; revokedTokens: number }>;
  listAdmins(): Promise<AdminSummary[]>;
  /** Turns TOTP off (recovery codes gone): logins ask for e-mailed codes again; revokes tokens; 404 if unknown. */
  resetSecondFactor(email: string): Promise<{ email: string; revokedTokens: number }>;
}

export function findAdminByEmail(db: Kysely<Database>, email: string) {
  return db.selectFrom('admins').selectAll().where('email', '=', email).executeTakeFirst();
}

function checkPassword(password: unknown): string {
  if (typeof password !== 'string') throw new AdminAuthError('Password is required', 400);
  const problem = passwordProblem(password);
  if (problem) throw new AdminAuthError(problem, 400);
  return password;
}

export function createAdminAccounts({ db, now }: AdminAccountsOptions): AdminAccounts {
  return {
    async createAdmin(rawEmail, rawPassword, role = 'owner') {
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
            role,
            password_hash: passwordHash,
            locked_until: null,
            last_failed_at: null,
            created_at: at,
            updated_at: at,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        return { id: row.id, email, role };
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
        // Every source's failures end with the old password.
        await trx.deleteFrom('admin_login_failures').where('account', '=', email).execute();
        return revokeAdminTokens(trx, admin.id, at);
      });
      return { email, revokedTokens: revoked };
    },

    async resetSecondFactor(rawEmail) {
      const email = requireEmail(rawEmail);
      const admin = await findAdminByEmail(db, email);
      if (!admin) throw new AdminAuthError(ADMIN_MESSAGES.noSuchAdmin, 404);
      const at = now().toISOString();
      const revoked = await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('admin_second_factors').where('admin_id', '=', admin.id).execute();
        await trx.deleteFrom('admin_recovery_codes').where('admin_id', '=', admin.id).execute();
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
          'admins.role',
          'admins.is_verified',
          'admins.created_at',
          eb
            .selectFrom('admin_login_failures')
            .select((inner) => inner.fn.max('admin_login_failures.locked_until').as('until'))
            .whereRef('admin_login_failures.account', '=', 'admins.email')
            .where('admin_login_failures.locked_until', '>', atIso)
            .as('locked_until'),
          eb
            .selectFrom('admin_second_factors')
            .select('admin_second_factors.totp_secret')
            .whereRef('admin_second_factors.admin_id', '=', 'admins.id')
            .as('totp_secret'),
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
        role: storedRole(row.role),
        isVerified: row.is_verified === 1,
        lockedUntil: row.locked_until ?? null,
        secondFactor: row.totp_secret ? ('totp' as const) : ('email' as const),
        createdAt: row.created_at,
        activeTokens: Number(row.active_tokens ?? 0),
      }));
    },
  };
}
