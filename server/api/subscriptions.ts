/**
 * Cancelling a running subscription over HTTP (decision 057; rules in
 * core/fulfilment/subscription-cancel.ts).
 *
 * - `POST /order/subscription/cancel`: the customer's "Cancel subscription" from /client, with
 *   the token the verified order-history lookup gave for that order (the refill's proof);
 *   rate-limited like the refill, never cached.
 * - `POST /admin/orders/:orderId/cancel-subscription`: the store's, from the order detail (owner
 *   and support, like the other order actions), audit-logged.
 *
 * Both answer `{ ended, message }`: ended once the supplier confirmed the end (the refund by the
 * rule follows); 409 when it is not a running subscription.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { OrderDetailParamsSchema } from '../../core/admin/contracts.ts';
import type { SubscriptionCancels } from '../../core/fulfilment/subscription-cancel.ts';
import {
  CustomerSubscriptionCancelSchema,
  SubscriptionCancelResultSchema,
} from '../../core/subscriptions/contracts.ts';
import { type AuthenticateToken, OWNER_AND_SUPPORT, noteAudit, requireAdmin } from './admin-guard.ts';
import { FailureSchema, envelopeOf, ok } from './envelope.ts';

interface SubscriptionsApiOptions {
  cancels: SubscriptionCancels;
}

interface AdminSubscriptionsApiOptions extends SubscriptionsApiOptions {
  authenticate: AuthenticateToken;
}

const limit = (max: number) => ({ rateLimit: { max, timeWindow: '1 minute' } });
const refusals = { 400: FailureSchema, 403: FailureSchema, 404: FailureSchema, 409: FailureSchema, 429: FailureSchema };
const CancelReply = envelopeOf(SubscriptionCancelResultSchema);

export const subscriptionsApi: FastifyPluginAsyncZod<SubscriptionsApiOptions> = async (app, { cancels }) => {
  // Personal: the reply (errors and 429s included) must not be stored by any cache.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'private, no-store');
  });

  app.post(
    '/order/subscription/cancel',
    {
      config: limit(5),
      schema: {
        tags: ['order history'],
        summary:
          'Cancel a running subscription (automatic likes, daily followers) at the supplier, with the token its order-history lookup returned; what was not served is refunded by the rule once the supplier confirms the end',
        body: CustomerSubscriptionCancelSchema,
        response: { 200: CancelReply, ...refusals },
      },
    },
    async (request) => {
      const result = await cancels.byCustomer(request.body.orderId, request.body.token);
      return ok(result, result.message);
    },
  );
};

export const adminSubscriptionsApi: FastifyPluginAsyncZod<AdminSubscriptionsApiOptions> = async (app, options) => {
  const { cancels } = options;
  app.addHook('onRequest', requireAdmin(options.authenticate, OWNER_AND_SUPPORT));

  app.post(
    '/admin/orders/:orderId/cancel-subscription',
    {
      config: limit(20),
      schema: {
        tags: ['admin'],
        summary:
          'Cancel a running subscription (automatic likes, daily followers) at the supplier for the store; what was not served is refunded by the rule once the supplier confirms the end',
        params: OrderDetailParamsSchema,
        response: { 200: CancelReply, 401: FailureSchema, ...refusals },
      },
    },
    async (request) => {
      const result = await cancels.byOwner(request.params.orderId);
      noteAudit(request, {
        action: 'order.cancel_subscription',
        targetType: 'order',
        targetId: request.params.orderId,
        before: { running: true },
        after: { ended: result.ended, answer: result.message },
      });
      return ok(result, result.message);
    },
  );
};
