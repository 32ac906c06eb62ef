import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ReviewPayload, ReviewSentSchema } from '../../core/reviews/contracts.ts';
import type { Reviews } from '../../core/reviews/reviews.ts';
import { REVIEW_LINK_MESSAGES, REVIEW_SENT_MESSAGE } from '../../core/reviews/rules.ts';
import { FailureSchema, failure } from './envelope.ts';
import { specValidationErrors } from './spec-validation.ts';

/**
 * `POST /api/reviews` (decision 039): the review page's form. The link's token travels in the
 * JSON body, never in the path or query, so no request log line carries it. A link that cannot be
 * used answers 410 with why (unknown, used, expired), which the page shows with a way to contact
 * support. Rate-limited per client like the store's other public writes.
 */

interface ReviewsApiOptions {
  reviews: Reviews;
}

/** A customer writes one review per order; more from one client in a short time is a script. */
const REVIEW_RATE_LIMIT = { max: 10, timeWindow: '10 minutes' } as const;

export const reviewsApi: FastifyPluginAsyncZod<ReviewsApiOptions> = async (app, { reviews }) => {
  app.setErrorHandler(specValidationErrors());
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'private, no-store');
  });

  app.post(
    '/reviews',
    {
      config: { rateLimit: REVIEW_RATE_LIMIT },
      schema: {
        tags: ['reviews'],
        summary:
          'Send the review a completion e-mail invited (token from its link): stored for the admin to approve; the link works once',
        body: ReviewPayload,
        response: { 201: ReviewSentSchema, 400: FailureSchema, 410: FailureSchema, 429: FailureSchema },
      },
    },
    async (request, reply) => {
      const result = await reviews.submit(request.body);
      if (!result.ok) return reply.status(410).send(failure(REVIEW_LINK_MESSAGES[result.problem]));
      return reply.status(201).send({ isSuccessful: true as const, message: REVIEW_SENT_MESSAGE });
    },
  );
};
