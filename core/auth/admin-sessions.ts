/**
 * Admin sessions: opaque bearer tokens. A token is 32 random bytes (base64url); only its SHA-256
 * is stored, so a copy of the database opens no session. It expires `tokenTtlMs` (12 h) after
 * the login, whatever the use (no sliding expiry); logout or a password reset revokes it.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import { type AdminRole, storedRole } from './roles.ts';

const DEFAULT_TOKEN_TTL_MS = 12 * 60 * 60_000;
/** `last_used_at` is written at most this often per token. */
const LAST_USED_RESOLUTION_MS = 60_000;
/** Expired tokens are deleted this long after they expired (at the admin's next login). */
const EXPIRED_TOKEN_KEEP_MS = 30 * 24 * 60 * 60_000;
/** 32 bytes in base64url. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** The same shape as server/api/admin-guard.ts's `AdminSession`. */
export interface AdminSession {
  adminId: number;
  email: string;
  tokenId: number;
  /** Read on every call, so a role change applies to live sessions at once. */
  role: AdminRole;
}

interface AdminSessionsOptions {
  db: Kysely<Database>;
  now: Clock;
  tokenTtlMs?: number;
}

export interface AdminSessions {
  /** A new token for a verified admin who just logged in at `at`. */
  issue(adminId: number, at: Date): Promise<{ token: string; expiresAt: Date }>;
  /** The session of a live token (not revoked, not expired, admin verified), or null. */
  authenticate(token: string): Promise<AdminSession | null>;
  /** Revokes the token; whether it was live. */
  revoke(token: string): Promise<boolean>;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Revokes every live token of an admin (inside the caller's transaction); how many it revoked. */
export async function revokeAdminTokens(db: Kysely<Database>, adminId: number, atIso: string): Promise<number> {
  const result = await db
    .updateTable('admin_tokens')
    .set({ revoked_at: atIso })
    .where('admin_id', '=', adminId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', atIso)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export function createAdminSessions(options: AdminSessionsOptions): AdminSessions {
  const { db, now, tokenTtlMs = DEFAULT_TOKEN_TTL_MS } = options;

  return {
    async issue(adminId, at) {
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
      await db.updateTable('admins').set({ last_login_at: at.toISOString() }).where('id', '=', adminId).execute();
      // Housekeeping: one row per login would otherwise pile up.
      await db
        .deleteFrom('admin_tokens')
        .where('admin_id', '=', adminId)
        .where('expires_at', '<', new Date(at.getTime() - EXPIRED_TOKEN_KEEP_MS).toISOString())
        .execute();
      return { token, expiresAt };
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
          'admins.role',
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
      return { adminId: row.adminId, email: row.email, tokenId: row.tokenId, role: storedRole(row.role) };
    },

    async revoke(token) {
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
