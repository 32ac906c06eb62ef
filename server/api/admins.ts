/**
 * The owner's team console and the audit log (decision 041), plus the invitation link's two
 * public calls:
 *
 * - `GET /api/admin/admins`: admins (role, last login, second factor) and open invitations;
 * - `POST /api/admin/admins/invitations`: invite an e-mail with a role (the e-mail is queued);
 *   `DELETE /api/admin/admins/invitations/:id` withdraws one;
 * - `PATCH /api/admin/admins/:id` changes a role, `DELETE /api/admin/admins/:id` removes an
 *   admin: never the last owner, never yourself;
 * - `GET /api/admin/audit`: the log, newest first, searchable and filtered, one page at a time;
 * - `POST /api/auth/invitation` (what a link is for) and `POST /api/auth/invitation/accept` (set
 *   the password): the token goes in the body, never the URL, so no request log holds it;
 *   rate-limited per client.
 *
 * Owner-only routes refuse support admins with 403; every change here is audited with its
 * before/after (server/api/admin-audit.ts).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { AUDIT_PAGE_SIZE, auditActions, listAudit } from '../../core/audit/audit.ts';
import { INVITATION_MESSAGES, type AdminTeam } from '../../core/auth/invitations.ts';
import { ADMIN_ROLES } from '../../core/auth/roles.ts';
import type { Database } from '../../db/schema.ts';
import { type AuthenticateToken, OWNER_ONLY, noteAudit, requireAdmin } from './admin-guard.ts';
import { FailureSchema, envelopeOf, ok } from './envelope.ts';
import { idParam } from '../../core/integer-columns.ts';

interface AdminsApiOptions {
  team: AdminTeam;
  db: Kysely<Database>;
  authenticate: AuthenticateToken;
}

const RoleSchema = z.enum(ADMIN_ROLES, { error: 'must be owner or support' });
const IdParams = z.object({
  id: idParam('must be an admin id'),
});

const TeamMemberSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  role: RoleSchema,
  isVerified: z.boolean(),
  lastLoginAt: z.string().nullable(),
  secondFactor: z.enum(['email', 'totp']),
  createdAt: z.string(),
});
const InvitationSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  role: RoleSchema,
  createdAt: z.string(),
  expiresAt: z.string(),
  invitedBy: z.string().nullable(),
});
const AuditEntrySchema = z.object({
  id: z.number().int(),
  createdAt: z.string(),
  adminId: z.number().int().nullable(),
  adminEmail: z.string(),
  action: z.string(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  outcome: z.number().int(),
  summary: z.object({ before: z.unknown().optional(), after: z.unknown().optional() }).nullable(),
});
const AuditQuery = z.object({
  q: z.string().max(200, 'is too long').optional(),
  action: z.string().max(200, 'is too long').optional(),
  adminId: idParam('must be an admin id').optional(),
  targetType: z.string().max(100, 'is too long').optional(),
  targetId: z.string().max(200, 'is too long').optional(),
  before: z.string().max(100, 'is too long').optional(),
});
const TokenBody = z.object({ token: z.string({ error: 'is required' }).max(100, 'is too long') });
const AcceptBody = TokenBody.extend({ password: z.string({ error: 'is required' }).max(1024, 'is too long') });

const limit = (max: number) => ({ rateLimit: { max, timeWindow: '1 minute' } });
const refusals = { 400: FailureSchema, 401: FailureSchema, 403: FailureSchema, 404: FailureSchema, 409: FailureSchema };

export const adminsApi: FastifyPluginAsyncZod<AdminsApiOptions> = async (app, { team, db, authenticate }) => {
  // The invitation link is public: its token is the credential.
  await app.register(async (open: typeof app) => {
    open.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'private, no-store');
    });
    open.post(
      '/auth/invitation',
      {
        config: limit(20),
        schema: {
          tags: ['admin auth'],
          summary: 'What an invitation link is for (e-mail, role, expiry); 400 unknown link, 410 expired or used',
          body: TokenBody,
          response: {
            200: envelopeOf(z.object({ email: z.string(), role: RoleSchema, expiresAt: z.string() })),
            400: FailureSchema,
            410: FailureSchema,
          },
        },
      },
      async (request) => ok(await team.checkInvitation(request.body.token)),
    );
    open.post(
      '/auth/invitation/accept',
      {
        config: limit(10),
        schema: {
          tags: ['admin auth'],
          summary:
            "Accept an invitation: set the password (the store's password rules); the first login then asks for the e-mailed code",
          body: AcceptBody,
          response: {
            200: envelopeOf(z.object({ email: z.string(), role: RoleSchema })),
            400: FailureSchema,
            410: FailureSchema,
          },
        },
      },
      async (request) =>
        ok(await team.acceptInvitation(request.body.token, request.body.password), INVITATION_MESSAGES.accepted),
    );
  });

  await app.register(async (owner: typeof app) => {
    owner.addHook('onRequest', requireAdmin(authenticate, OWNER_ONLY));

    owner.get(
      '/admin/admins',
      {
        schema: {
          tags: ['admin'],
          summary: 'Admins (role, last login, second factor) and open invitations',
          response: {
            200: envelopeOf(z.object({ admins: z.array(TeamMemberSchema), invitations: z.array(InvitationSchema) })),
            401: FailureSchema,
            403: FailureSchema,
          },
        },
      },
      async () => ok(await team.list()),
    );

    owner.post(
      '/admin/admins/invitations',
      {
        config: limit(20),
        schema: {
          tags: ['admin'],
          summary: 'Invite an e-mail as owner or support: a single-use link valid 72 hours (re-inviting replaces it)',
          body: z.object({ email: z.string({ error: 'is required' }).max(254, 'is too long'), role: RoleSchema }),
          response: { 201: envelopeOf(InvitationSchema), ...refusals },
        },
      },
      async (request, reply) => {
        noteAudit(request, { action: 'admin.invite', targetType: 'invitation', targetId: request.body.email });
        const invitation = await team.invite(request.admin!, request.body.email, request.body.role);
        noteAudit(request, {
          targetId: invitation.email,
          // A new invitation (re-inviting replaces the open one): nothing before it.
          before: null,
          after: { email: invitation.email, role: invitation.role, expiresAt: invitation.expiresAt },
        });
        return reply.code(201).send(ok(invitation, INVITATION_MESSAGES.invited));
      },
    );

    owner.delete(
      '/admin/admins/invitations/:id',
      {
        schema: {
          tags: ['admin'],
          summary: 'Withdraw an open invitation (its link stops working)',
          params: IdParams,
          response: { 200: envelopeOf(z.object({ email: z.string() })), ...refusals },
        },
      },
      async (request) => {
        noteAudit(request, {
          action: 'admin.invitation.withdraw',
          targetType: 'invitation',
          targetId: request.params.id,
        });
        const withdrawn = await team.revokeInvitation(request.params.id);
        noteAudit(request, { before: withdrawn });
        return ok(withdrawn, INVITATION_MESSAGES.invitationRevoked);
      },
    );

    owner.patch(
      '/admin/admins/:id',
      {
        schema: {
          tags: ['admin'],
          summary: "Change an admin's role; 409 for your own role or the last owner",
          params: IdParams,
          body: z.object({ role: RoleSchema }),
          response: {
            200: envelopeOf(z.object({ email: z.string(), before: RoleSchema, after: RoleSchema })),
            ...refusals,
          },
        },
      },
      async (request) => {
        noteAudit(request, { action: 'admin.role.change', targetType: 'admin', targetId: request.params.id });
        const changed = await team.changeRole(request.admin!, request.params.id, request.body.role);
        noteAudit(request, {
          before: { email: changed.email, role: changed.before },
          after: { email: changed.email, role: changed.after },
        });
        return ok(changed, INVITATION_MESSAGES.roleChanged);
      },
    );

    owner.delete(
      '/admin/admins/:id',
      {
        schema: {
          tags: ['admin'],
          summary: 'Remove an admin (their sessions end); 409 for yourself or the last owner',
          params: IdParams,
          response: { 200: envelopeOf(z.object({ email: z.string(), role: RoleSchema })), ...refusals },
        },
      },
      async (request) => {
        noteAudit(request, { action: 'admin.remove', targetType: 'admin', targetId: request.params.id });
        const removed = await team.remove(request.admin!, request.params.id);
        noteAudit(request, { before: removed });
        return ok(removed, INVITATION_MESSAGES.removed);
      },
    );

    owner.get(
      '/admin/audit',
      {
        schema: {
          tags: ['admin'],
          summary: 'The audit log, newest first: text search over action, target and admin; filters; `before` pages on',
          querystring: AuditQuery,
          response: {
            200: envelopeOf(
              z.object({ entries: z.array(AuditEntrySchema), next: z.string().nullable(), pageSize: z.number().int() }),
            ),
            400: FailureSchema,
            401: FailureSchema,
            403: FailureSchema,
          },
        },
      },
      async (request) => {
        const page = await listAudit(db, request.query);
        return ok({ ...page, pageSize: AUDIT_PAGE_SIZE });
      },
    );

    owner.get(
      '/admin/audit/actions',
      {
        schema: {
          tags: ['admin'],
          summary: 'The actions the log holds (the filter menu)',
          response: { 200: envelopeOf(z.array(z.string())), 401: FailureSchema, 403: FailureSchema },
        },
      },
      async () => ok(await auditActions(db)),
    );
  });
};
