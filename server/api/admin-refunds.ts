/**
 * The owner's refunds over HTTP: `POST /api/admin/orders/{orderId}/refunds` (the order's public
 * id, as the detail page names it). The rules are in core/admin/order-refunds.ts and
 * core/orders/refunds.ts; this parses, calls, and answers the refund in words. Only the roles in
 * REFUND_ROLES (the owner) may call it; a support admin gets 403. Every call is audit-logged
 * (admin-audit.ts), refusals included, with the refund it made.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { OrderDetailParamsSchema } from '../../core/admin/contracts.ts';
import { refundOrderByOwner } from '../../core/admin/order-refunds.ts';
import { AdminRefundBodySchema, AdminRefundResultSchema } from '../../core/admin/refund-contracts.ts';
import { REFUND_ROLES } from '../../core/auth/roles.ts';
import type { RefundDeps } from '../../core/orders/refunds.ts';
import { type AuthenticateToken, noteAudit, requireAdmin } from './admin-guard.ts';
import { FailureSchema, envelopeOf } from './envelope.ts';

interface AdminRefundsApiOptions {
  refunds: RefundDeps;
  authenticate: AuthenticateToken;
}

const RefundReply = envelopeOf(AdminRefundResultSchema);

export const adminRefundsApi: FastifyPluginAsyncZod<AdminRefundsApiOptions> = async (app, options) => {
  app.addHook('onRequest', requireAdmin(options.authenticate, REFUND_ROLES));

  app.post(
    '/admin/orders/:orderId/refunds',
    {
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: {
        tags: ['admin'],
        summary:
          'Refund all or part of what is left of a payment of the order, through the provider that took it, with a reason; the same idempotencyKey is the same refund however often it is sent. 200: done or refused by the provider; 202: waiting for the customer (crypto) or for the provider',
        params: OrderDetailParamsSchema,
        body: AdminRefundBodySchema,
        response: {
          200: RefundReply,
          202: RefundReply,
          400: FailureSchema,
          401: FailureSchema,
          403: FailureSchema,
          404: FailureSchema,
          409: FailureSchema,
          429: FailureSchema,
        },
      },
    },
    async (request, reply) => {
      const outcome = await refundOrderByOwner(
        options.refunds,
        request.params.orderId,
        request.body,
        request.admin?.email ?? null,
      );
      noteAudit(request, outcome.audit);
      const { state } = outcome.result;
      return reply
        .code(state === 'done' || state === 'failed' ? 200 : 202)
        .send({ isSuccessful: state !== 'failed', message: outcome.message, data: outcome.result });
    },
  );
};
