/**
 * Admin invitations and the team of admins (decision 041).
 *
 * - An owner invites an e-mail with a role. The invitation holds only the SHA-256 of a random
 *   32-byte token; the token goes out once, in the e-mailed link, and expires after 72 hours.
 *   Inviting the same e-mail again replaces the open invitation (the old link stops working).
 * - Accepting sets the password (the same rules and hashing as every admin password) and creates
 *   the admin with the invited role, unverified: the first login asks for the e-mailed code like
 *   every login (decision 016), so the new admin completes the second factor before any session.
 *   The invitation is claimed with a compare-and-set, so two tabs racing with one link make one
 *   admin and one refusal.
 * - Owners change roles and remove admins; the store always keeps an owner, and an owner cannot
 *   demote or remove themself (another owner must), so nobody locks themself out by accident.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { recordAudit } from '../audit/audit.ts';
import type { Clock } from '../clock.ts';
import { enqueueMail } from '../mail/send-mail-job.ts';
import { requireEmail } from './admin-errors.ts';
import { revokeAdminTokens } from './admin-sessions.ts';
import { renderAdminInvitation } from './invitation-mail.ts';
import { hashPassword, passwordProblem } from './passwords.ts';
import { type AdminRole, isAdminRole, storedRole } from './roles.ts';

const INVITATION_HOURS = 72;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const INVITATION_MESSAGES = {
  invited: 'Invitation sent.',
  alreadyAdmin: 'This e-mail already belongs to an admin.',
  roleInvalid: 'Choose a role: owner or support.',
  invalidLink: 'This invitation link is not valid. Ask the store owner for a new invitation.',
  expired: 'This invitation has expired. Ask the store owner for a new one.',
  used: 'This invitation has already been used. Log in instead.',
  accepted: 'Your password is set. Log in: we will e-mail you a code to finish.',
  lastOwner: 'The store needs at least one owner: make another admin an owner first.',
  notYourself: 'You cannot change your own role or remove yourself; ask another owner.',
  noSuchAdmin: 'There is no such admin.',
  roleChanged: 'Role changed.',
  removed: 'Admin removed.',
  invitationRevoked: 'Invitation withdrawn.',
  noSuchInvitation: 'There is no such invitation.',
} as const;

class TeamError extends Error {
  readonly expose = true;
  constructor(
    message: string,
    readonly statusCode: 400 | 404 | 409 | 410,
  ) {
    super(message);
    this.name = 'TeamError';
  }
}

export interface TeamMember {
  id: number;
  email: string;
  role: AdminRole;
  isVerified: boolean;
  lastLoginAt: string | null;
  secondFactor: 'email' | 'totp';
  createdAt: string;
}

export interface PendingInvitation {
  id: number;
  email: string;
  role: AdminRole;
  createdAt: string;
  expiresAt: string;
  invitedBy: string | null;
}

export interface Actor {
  adminId: number;
  email: string;
}

interface AdminTeamOptions {
  db: Kysely<Database>;
  now: Clock;
  publicUrl: string;
  /** True for PostgreSQL: the owner count is taken under row locks there (SQLite serialises writers). */
  lockRows: boolean;
}

export interface AdminTeam {
  list(): Promise<{ admins: TeamMember[]; invitations: PendingInvitation[] }>;
  invite(actor: Actor, email: unknown, role: unknown): Promise<PendingInvitation>;
  revokeInvitation(id: number): Promise<{ email: string }>;
  /** What an invitation link is for, or a TeamError (400 invalid, 410 expired or used). */
  checkInvitation(token: unknown): Promise<{ email: string; role: AdminRole; expiresAt: string }>;
  acceptInvitation(token: unknown, password: unknown): Promise<{ email: string; role: AdminRole }>;
  changeRole(
    actor: Actor,
    adminId: number,
    role: unknown,
  ): Promise<{ email: string; before: AdminRole; after: AdminRole }>;
  remove(actor: Actor, adminId: number): Promise<{ email: string; role: AdminRole }>;
}

export const hashInvitationToken = (token: string) => createHash('sha256').update(token).digest('hex');

function requireRole(raw: unknown): AdminRole {
  if (!isAdminRole(raw)) throw new TeamError(INVITATION_MESSAGES.roleInvalid, 400);
  return raw;
}

export function createAdminTeam({ db, now, publicUrl, lockRows }: AdminTeamOptions): AdminTeam {
  async function findByToken(token: unknown) {
    if (typeof token !== 'string' || !TOKEN_PATTERN.test(token)) {
      throw new TeamError(INVITATION_MESSAGES.invalidLink, 400);
    }
    const row = await db
      .selectFrom('admin_invitations')
      .selectAll()
      .where('token_hash', '=', hashInvitationToken(token))
      .executeTakeFirst();
    if (!row) throw new TeamError(INVITATION_MESSAGES.invalidLink, 400);
    if (row.accepted_at !== null) throw new TeamError(INVITATION_MESSAGES.used, 410);
    if (Date.parse(row.expires_at) <= now().getTime()) throw new TeamError(INVITATION_MESSAGES.expired, 410);
    return row;
  }

  /**
   * The owners other than `adminId`. On PostgreSQL every owner row is locked in id order until
   * the transaction ends, so two owners demoting each other at once take turns (no deadlock) and
   * the second sees the first's change: the store never ends up without an owner.
   */
  async function otherOwners(trx: Transaction<Database>, adminId: number): Promise<number> {
    let query = trx.selectFrom('admins').select('id').where('role', '=', 'owner').orderBy('id');
    if (lockRows) query = query.forUpdate();
    return (await query.execute()).filter((row) => row.id !== adminId).length;
  }

  return {
    async list() {
      const atIso = now().toISOString();
      const admins = await db
        .selectFrom('admins')
        .select((eb) => [
          'admins.id',
          'admins.email',
          'admins.role',
          'admins.is_verified',
          'admins.last_login_at',
          'admins.created_at',
          eb
            .selectFrom('admin_second_factors')
            .select('admin_second_factors.totp_secret')
            .whereRef('admin_second_factors.admin_id', '=', 'admins.id')
            .as('totp_secret'),
        ])
        .orderBy('admins.id')
        .execute();
      const invitations = await db
        .selectFrom('admin_invitations')
        .leftJoin('admins', 'admins.id', 'admin_invitations.invited_by')
        .select([
          'admin_invitations.id',
          'admin_invitations.email',
          'admin_invitations.role',
          'admin_invitations.created_at',
          'admin_invitations.expires_at',
          'admins.email as invited_by',
        ])
        .where('admin_invitations.accepted_at', 'is', null)
        .where('admin_invitations.expires_at', '>', atIso)
        .orderBy('admin_invitations.id')
        .execute();
      return {
        admins: admins.map((row) => ({
          id: row.id,
          email: row.email,
          role: storedRole(row.role),
          isVerified: row.is_verified === 1,
          lastLoginAt: row.last_login_at ?? null,
          secondFactor: row.totp_secret ? ('totp' as const) : ('email' as const),
          createdAt: row.created_at,
        })),
        invitations: invitations.map((row) => ({
          id: row.id,
          email: row.email,
          role: storedRole(row.role),
          createdAt: row.created_at,
          expiresAt: row.expires_at,
          invitedBy: row.invited_by ?? null,
        })),
      };
    },

    async invite(actor, rawEmail, rawRole) {
      const email = requireEmail(rawEmail);
      const role = requireRole(rawRole);
      const at = now();
      const token = randomBytes(32).toString('base64url');
      const expiresAt = new Date(at.getTime() + INVITATION_HOURS * 60 * 60_000);
      const mail = renderAdminInvitation({ token, role, invitedBy: actor.email, hours: INVITATION_HOURS, publicUrl });
      return db.transaction().execute(async (trx) => {
        const existing = await trx.selectFrom('admins').select('id').where('email', '=', email).executeTakeFirst();
        if (existing) throw new TeamError(INVITATION_MESSAGES.alreadyAdmin, 409);
        // Re-inviting replaces the open invitation (and an accepted one of a since-removed admin).
        await trx.deleteFrom('admin_invitations').where('email', '=', email).execute();
        const row = await trx
          .insertInto('admin_invitations')
          .values({
            email,
            role,
            token_hash: hashInvitationToken(token),
            invited_by: actor.adminId,
            created_at: at.toISOString(),
            expires_at: expiresAt.toISOString(),
            accepted_at: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await enqueueMail(trx, { to: email, ...mail, headers: { 'Auto-Submitted': 'auto-generated' } }, { now: at });
        return {
          id: row.id,
          email,
          role,
          createdAt: at.toISOString(),
          expiresAt: expiresAt.toISOString(),
          invitedBy: actor.email,
        };
      });
    },

    async revokeInvitation(id) {
      const row = await db
        .deleteFrom('admin_invitations')
        .where('id', '=', id)
        .where('accepted_at', 'is', null)
        .returning('email')
        .executeTakeFirst();
      if (!row) throw new TeamError(INVITATION_MESSAGES.noSuchInvitation, 404);
      return { email: row.email };
    },

    async checkInvitation(token) {
      const row = await findByToken(token);
      return { email: row.email, role: storedRole(row.role), expiresAt: row.expires_at };
    },

    async acceptInvitation(token, rawPassword) {
      const invitation = await findByToken(token);
      if (typeof rawPassword !== 'string') throw new TeamError('Password is required', 400);
      const problem = passwordProblem(rawPassword);
      if (problem) throw new TeamError(problem, 400);
      const passwordHash = await hashPassword(rawPassword);
      const at = now();
      const atIso = at.toISOString();
      const role = storedRole(invitation.role);
      return db.transaction().execute(async (trx) => {
        // The claim: only one request turns an open, unexpired invitation into an accepted one.
        const claimed = await trx
          .updateTable('admin_invitations')
          .set({ accepted_at: atIso })
          .where('id', '=', invitation.id)
          .where('accepted_at', 'is', null)
          .where('expires_at', '>', atIso)
          .executeTakeFirst();
        if (Number(claimed.numUpdatedRows) !== 1) throw new TeamError(INVITATION_MESSAGES.used, 410);
        const taken = await trx
          .selectFrom('admins')
          .select('id')
          .where('email', '=', invitation.email)
          .executeTakeFirst();
        if (taken) throw new TeamError(INVITATION_MESSAGES.used, 410);
        const admin = await trx
          .insertInto('admins')
          .values({
            email: invitation.email,
            password_hash: passwordHash,
            role,
            // Unverified: the first login's e-mailed code is the second factor (decision 016).
            is_verified: 0,
            locked_until: null,
            last_failed_at: null,
            created_at: atIso,
            updated_at: atIso,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await recordAudit(trx, {
          at,
          adminId: admin.id,
          adminEmail: invitation.email,
          action: 'admin.invitation.accept',
          targetType: 'admins',
          targetId: admin.id,
          outcome: 200,
          after: { email: invitation.email, role },
        });
        return { email: invitation.email, role };
      });
    },

    async changeRole(actor, adminId, rawRole) {
      const role = requireRole(rawRole);
      if (adminId === actor.adminId) throw new TeamError(INVITATION_MESSAGES.notYourself, 409);
      return db.transaction().execute(async (trx) => {
        const admin = await trx
          .selectFrom('admins')
          .select(['email', 'role'])
          .where('id', '=', adminId)
          .executeTakeFirst();
        if (!admin) throw new TeamError(INVITATION_MESSAGES.noSuchAdmin, 404);
        const before = storedRole(admin.role);
        if (before === 'owner' && role !== 'owner' && (await otherOwners(trx, adminId)) === 0) {
          throw new TeamError(INVITATION_MESSAGES.lastOwner, 409);
        }
        await trx
          .updateTable('admins')
          .set({ role, updated_at: now().toISOString() })
          .where('id', '=', adminId)
          .execute();
        return { email: admin.email, before, after: role };
      });
    },

    async remove(actor, adminId) {
      if (adminId === actor.adminId) throw new TeamError(INVITATION_MESSAGES.notYourself, 409);
      return db.transaction().execute(async (trx) => {
        const admin = await trx
          .selectFrom('admins')
          .select(['email', 'role'])
          .where('id', '=', adminId)
          .executeTakeFirst();
        if (!admin) throw new TeamError(INVITATION_MESSAGES.noSuchAdmin, 404);
        const role = storedRole(admin.role);
        if (role === 'owner' && (await otherOwners(trx, adminId)) === 0) {
          throw new TeamError(INVITATION_MESSAGES.lastOwner, 409);
        }
        // Sessions end at once; the rows that reference the admin go with it (foreign keys).
        await revokeAdminTokens(trx, adminId, now().toISOString());
        await trx
          .updateTable('admin_invitations')
          .set({ invited_by: null })
          .where('invited_by', '=', adminId)
          .execute();
        await trx.deleteFrom('admins').where('id', '=', adminId).execute();
        return { email: admin.email, role };
      });
    },
  };
}
