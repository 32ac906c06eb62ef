/**
 * `POST /api/refunds/address` (a crypto refund's wallet address, from the page the e-mailed link
 * opens; rules in core/orders/refund-links.ts). The link's token travels in the body, never in a
 * path or query a log would keep. Rate-limited per client: it checks a secret.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { RefundAddressBodySchema, RefundAddressReplySchema } from '../../core/orders/refund-contracts.ts';
import type { RefundLinks } from '../../core/orders/refund-links.ts';
import { FailureSchema, envelopeOf, ok } from './envelope.ts';

interface RefundsApiOptions {
  links: RefundLinks;
}

export const refundsApi: FastifyPluginAsyncZod<RefundsApiOptions> = async (app, { links }) => {
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'private, no-store');
  });

  app.post(
    '/refunds/address',
    {
      config: { rateLimit: { max: 10, timeWindow: '10 minutes' } },
      schema: {
        tags: ['refunds'],
        summary:
          "The wallet address for a crypto refund, with the token of the customer's e-mailed single-use link; the refund goes out to it",
        body: RefundAddressBodySchema,
        response: {
          200: envelopeOf(RefundAddressReplySchema),
          400: FailureSchema,
          404: FailureSchema,
          409: FailureSchema,
          429: FailureSchema,
        },
      },
    },
    async (request) => {
      const result = await links.giveAddress(request.body.token, request.body.address);
      return ok({ sent: result.sent, amountText: result.amountText }, result.message);
    },
  );
};
