import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HistoryCodePayload, HistoryLookupPayload, HistoryRowSchema } from '../../core/orders/contracts.ts';
import { ORDER_HISTORY_MESSAGES, type OrderHistory } from '../../core/orders/history.ts';
import { FailureSchema, envelopeOf, ok } from './envelope.ts';
import { specValidationErrors } from './spec-validation.ts';

/**
 * The customer's order history, behind an e-mailed one-time code (core/orders/history.ts).
 * Both calls are rate-limited per client on top of the codes' own limits (resend throttle,
 * 5 attempts per code), and neither reply may be stored by any cache. The payloads are the
 * client page's form schemas (core/orders/contracts.ts): their messages are the spec's, answered
 * as they are, each with its field.
 */

interface OrderHistoryApiOptions {
  history: OrderHistory;
}

const limit = (max: number) => ({ rateLimit: { max, timeWindow: '1 minute' } });

export const orderHistoryApi: FastifyPluginAsyncZod<OrderHistoryApiOptions> = async (app, { history }) => {
  app.setErrorHandler(specValidationErrors());
  // Every reply of these routes, errors and 429s included, is personal.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'private, no-store');
  });

  app.post(
    '/order/order-history/code',
    {
      config: limit(5),
      schema: {
        tags: ['order history'],
        summary:
          'E-mail a 6-digit code that unlocks the order history of an address (same reply whether or not it has orders)',
        body: HistoryCodePayload,
        response: {
          200: z.object({ isSuccessful: z.literal(true), message: z.string() }),
          400: FailureSchema,
          429: FailureSchema,
        },
      },
    },
    async (request) => {
      await history.requestCode(request.body.email);
      return { isSuccessful: true as const, message: ORDER_HISTORY_MESSAGES.codeSent };
    },
  );

  app.patch(
    '/order/order-history',
    {
      config: limit(10),
      schema: {
        tags: ['order history'],
        summary:
          'The orders of an address, newest first (at most 200; abandoned checkouts left out), for its e-mailed code',
        body: HistoryLookupPayload,
        response: { 200: envelopeOf(z.array(HistoryRowSchema)), 400: FailureSchema, 429: FailureSchema },
      },
    },
    async (request) => {
      const rows = await history.lookup(request.body.email, request.body.code);
      return ok(rows, rows.length ? `${rows.length} order${rows.length === 1 ? '' : 's'}` : 'You have no orders yet.');
    },
  );
};
