/**
 * Records every admin request that changes something in the audit log (decision 041,
 * core/admin/audit.ts): one `onSend` hook on the whole app, so a new admin route is recorded
 * without doing anything, and the entry is written before the reply leaves (an admin who sees
 * "done" finds it in the log). A request counts when the admin guard let its token in (refusals by
 * role included: they are recorded with their 403) and its method is not a read. The entry holds
 * the route, the target read from the path (`/admin/orders/:id/reorder` → `orders` + the id), the
 * status, and the body (secrets removed) unless the handler noted a better before/after
 * (`noteAudit`).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { type AuditSink, recordAudit } from '../../core/audit/audit.ts';
import type { Clock } from '../../core/clock.ts';
import type { Database } from '../../db/schema.ts';
import { noteAudit } from './admin-guard.ts';

/**
 * The sink a handler hands to a core function: the change the core made (before and after, as
 * it saw them in its compare-and-set) becomes this request's audit summary.
 */
export function auditChangeOf(request: FastifyRequest): AuditSink {
  return (change) => noteAudit(request, change);
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** `POST /admin/orders/:id/reorder` for the route `/api/admin/orders/:id/reorder`. */
function routeAction(method: string, routeUrl: string): string {
  return `${method} ${routeUrl.replace(/^\/api(?=\/)/, '')}`;
}

const ID_FIELD = /^(id|slug)$|_id$|Id$/;

/**
 * The thing a route acts on: the path segment before its first parameter and that parameter
 * (`/admin/messages/:id/reply` → `messages` + id); a route without one names its first segment
 * after `/api` and `/admin`, and the body's first id field if it has one (`/order/reorder` with
 * `razorpay_order_id`).
 */
function routeTarget(routeUrl: string, params: unknown, body: unknown): { targetType?: string; targetId?: string } {
  const segments = routeUrl.split('/').filter(Boolean);
  const paramIndex = segments.findIndex((segment) => segment.startsWith(':'));
  if (paramIndex > 0) {
    const name = segments[paramIndex]?.slice(1) ?? '';
    const value = params && typeof params === 'object' ? (params as Record<string, unknown>)[name] : undefined;
    return {
      targetType: segments[paramIndex - 1] ?? '',
      ...(typeof value === 'string' || typeof value === 'number' ? { targetId: String(value) } : {}),
    };
  }
  const named = segments.filter((segment) => segment !== 'api' && segment !== 'admin');
  const targetType = named[0];
  const idEntry =
    body && typeof body === 'object' && !Array.isArray(body)
      ? Object.entries(body as Record<string, unknown>).find(
          ([key, value]) => ID_FIELD.test(key) && (typeof value === 'string' || typeof value === 'number'),
        )
      : undefined;
  return {
    ...(targetType ? { targetType } : {}),
    ...(idEntry ? { targetId: String(idEntry[1]) } : {}),
  };
}

export function adminAuditHook(db: Kysely<Database>, now: Clock) {
  return async function recordAdminAction(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const admin = request.admin;
    if (!admin || READ_METHODS.has(request.method)) return;
    const routeUrl = request.routeOptions.url ?? request.url.split('?')[0] ?? '';
    const note = request.auditNote ?? {};
    const target = routeTarget(routeUrl, request.params, request.body);
    const hasBody = request.body !== undefined && request.body !== null;
    try {
      await recordAudit(db, {
        at: now(),
        adminId: admin.adminId,
        adminEmail: admin.email,
        action: note.action ?? routeAction(request.method, routeUrl),
        outcome: reply.statusCode,
        ...target,
        ...(note.targetType === undefined ? {} : { targetType: note.targetType }),
        ...(note.targetId === undefined ? {} : { targetId: note.targetId }),
        ...(note.before === undefined ? {} : { before: note.before }),
        ...(note.after !== undefined ? { after: note.after } : hasBody ? { after: request.body } : {}),
      });
    } catch (error) {
      // The action is done already: its reply still goes out, and the failure is logged loudly.
      request.log.error({ err: error, action: routeAction(request.method, routeUrl) }, 'audit: entry not recorded');
    }
  };
}
