/**
 * Every admin call checks its bearer token on the server (spec section 6 keeps the token in the
 * browser's local storage and sends it as `Authorization: Bearer …`), and the admin's role
 * (decision 041): `requireAdmin` takes the roles a route allows as a required argument, so no
 * admin plugin can be registered without deciding who may call it.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuditNote } from '../../core/audit/audit.ts';
import type { AdminSession } from '../../core/auth/admin-sessions.ts';
import { type AllowedRoles, ROLE_MESSAGES } from '../../core/auth/roles.ts';
import { failure } from './envelope.ts';

export type { AdminSession } from '../../core/auth/admin-sessions.ts';
export { OWNER_AND_SUPPORT, OWNER_ONLY } from '../../core/auth/roles.ts';

export type AuthenticateToken = (token: string) => Promise<AdminSession | null>;

declare module 'fastify' {
  interface FastifyRequest {
    admin?: AdminSession;
    /** What the handler adds to this request's audit entry (server/api/admin-audit.ts). */
    auditNote?: AuditNote;
  }
}

export const NO_TOKEN_MESSAGE = 'No access token found.';
export const BAD_TOKEN_MESSAGE = 'Your session has expired. Please log in again.';
const FORBIDDEN_MESSAGE = ROLE_MESSAGES.ownerOnly;

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}

/** The guard function, with the roles it lets through (read by the route-table tests and docs). */
type AdminGuard = ((request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) & {
  readonly allowedRoles: AllowedRoles;
};

/**
 * A hook for admin routes: 401 without a valid token, 403 when the admin's role is not one of
 * `allowedRoles`, `request.admin` otherwise. Named, so the OpenAPI transform in app.ts can see
 * which routes carry it and document their bearer scheme.
 */
export function requireAdmin(authenticate: AuthenticateToken, allowedRoles: AllowedRoles): AdminGuard {
  async function adminGuard(request: FastifyRequest, reply: FastifyReply) {
    reply.header('cache-control', 'private, no-store');
    const token = bearerToken(request);
    if (!token) return reply.status(401).send(failure(NO_TOKEN_MESSAGE));
    const session = await authenticate(token);
    if (!session) return reply.status(401).send(failure(BAD_TOKEN_MESSAGE));
    // Set before the role check, so a refused attempt is audited as this admin's.
    request.admin = session;
    if (!allowedRoles.includes(session.role)) return reply.status(403).send(failure(FORBIDDEN_MESSAGE));
    return undefined;
  }
  return Object.assign(adminGuard, { allowedRoles });
}

/** Adds what the handler knows (a name, the target, before/after) to this request's audit entry. */
export function noteAudit(request: FastifyRequest, note: AuditNote): void {
  request.auditNote = { ...request.auditNote, ...note };
}
