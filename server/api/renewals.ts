/**
 * A subscription's renewal reminders over HTTP (rules in core/renewals/renewals.ts).
 *
 * - `POST /order/subscription/reminders`: turns the reminders on or off, from /client (the proof
 *   is the per-order token its verified lookup handed out, as for refills) or from the reminder
 *   e-mail's "Stop renewal reminders" page (the proof is the e-mailed renewal token).
 *   Rate-limited per client, never cached.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  SubscriptionRemindersBodySchema,
  SubscriptionRemindersReplySchema,
} from '../../core/subscriptions/renewal-contracts.ts';
import type { Renewals } from '../../core/renewals/renewals.ts';
import { FailureSchema, envelopeOf, ok } from './envelope.ts';

interface RenewalsApiOptions {
  renewals: Renewals;
}

const refusals = { 400: FailureSchema, 403: FailureSchema, 409: FailureSchema, 429: FailureSchema };

export const renewalsApi: FastifyPluginAsyncZod<RenewalsApiOptions> = async (app, { renewals }) => {
  // Personal: the reply (errors and 429s included) must not be stored by any cache.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'private, no-store');
  });

  app.post(
    '/order/subscription/reminders',
    {
      config: { rateLimit: { max: 5, timeWindow: '1 minute' } },
      schema: {
        tags: ['order history'],
        summary:
          "Turn a subscription's renewal reminders on or off, with the token its order-history lookup returned or the reminder e-mail's renewal token",
        body: SubscriptionRemindersBodySchema,
        response: { 200: envelopeOf(SubscriptionRemindersReplySchema), ...refusals },
      },
    },
    async (request) => {
      const { message, ...result } = await renewals.setReminders(request.body);
      return ok(result, message);
    },
  );
};
