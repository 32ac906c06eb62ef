import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';

/** JSON, files and anything else that is not a page: nothing may run, load or frame it. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";

export function newNonce(): string {
  return randomBytes(16).toString('base64');
}

/** Pages: our own scripts plus the one inline bootstrap script carrying this response's nonce. */
export function pageCsp(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    // React renders a few `style` attributes (e.g. carousel offsets); styles cannot run code.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function setPageCsp(reply: FastifyReply, nonce: string): void {
  reply.header('content-security-policy', pageCsp(nonce));
}
