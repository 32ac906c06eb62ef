/**
 * Every admin call checks its bearer token on the server (spec section 6 keeps the token in the
 * browser's local storage and sends it as `Authorization: Bearer …`).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { failure } from './envelope.ts';

export interface AdminSession {
  adminId: number;
  email: string;
  tokenId: number;
}

export type AuthenticateToken = (token: string) => Promise<AdminSession | null>;

declare module 'fastify' {
  interface FastifyRequest {
    admin?: AdminSession;
  }
}

export const NO_TOKEN_MESSAGE = 'No access token found.';
export const BAD_TOKEN_MESSAGE = 'Your session has expired. Please log in again.';

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}

/**
 * A preHandler for admin routes: 401 without a valid token, `request.admin` with one. Named, so the
 * OpenAPI transform in app.ts can see which routes carry it and document their bearer scheme.
 */
export function requireAdmin(authenticate: AuthenticateToken) {
  return async function adminGuard(request: FastifyRequest, reply: FastifyReply) {
    reply.header('cache-control', 'private, no-store');
    const token = bearerToken(request);
    if (!token) return reply.status(401).send(failure(NO_TOKEN_MESSAGE));
    const session = await authenticate(token);
    if (!session) return reply.status(401).send(failure(BAD_TOKEN_MESSAGE));
    request.admin = session;
  };
}
