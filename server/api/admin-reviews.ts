/**
 * Review moderation over HTTP (decision 039): the list (pending first), the pending count for the
 * admin navigation, approve and reject (compare-and-set on the review's state). Thin: the rules
 * are in core/reviews/reviews.ts. Every route needs an admin bearer token; the guard runs first
 * (onRequest), so a request without one gets 401 before anything is read.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ADMIN_REVIEW_MESSAGES,
  AdminReviewListReplySchema,
  ReviewDecisionSchema,
  ReviewIdParamsSchema,
  ReviewListQuerySchema,
  ReviewPendingCountSchema,
} from '../../core/reviews/contracts.ts';
import type { Reviews } from '../../core/reviews/reviews.ts';
import { auditChangeOf } from './admin-audit.ts';
import { type AuthenticateToken, OWNER_AND_SUPPORT, noteAudit, requireAdmin } from './admin-guard.ts';
import { FailureSchema, envelopeOf, failure, ok } from './envelope.ts';
import { specValidationErrors } from './spec-validation.ts';

interface AdminReviewsApiOptions {
  reviews: Reviews;
  authenticate: AuthenticateToken;
}

const refusals = { 400: FailureSchema, 401: FailureSchema, 404: FailureSchema };

export const adminReviewsApi: FastifyPluginAsyncZod<AdminReviewsApiOptions> = async (app, options) => {
  const { reviews } = options;
  // Owners and support both moderate reviews (decision 041).
  app.addHook('onRequest', requireAdmin(options.authenticate, OWNER_AND_SUPPORT));
  app.setErrorHandler(specValidationErrors());

  const adminIdOf = (request: { admin?: { adminId: number } | undefined }): number => {
    if (!request.admin) throw new Error('admin guard did not run');
    return request.admin.adminId;
  };

  app.get(
    '/admin/reviews',
    {
      schema: {
        tags: ['admin'],
        summary: 'Customer reviews: pending first, then newest first; status (all, pending, approved, rejected), pages',
        querystring: ReviewListQuerySchema,
        response: { 200: AdminReviewListReplySchema, 400: FailureSchema, 401: FailureSchema },
      },
    },
    async (request) => {
      const result = await reviews.list(request.query);
      return {
        isSuccessful: true as const,
        message: result.count === 0 ? 'No reviews found' : 'Success',
        data: result.rows,
        count: result.count,
        totalPages: result.totalPages,
        currentPage: result.currentPage,
      };
    },
  );

  app.get(
    '/admin/reviews/pending-count',
    {
      schema: {
        tags: ['admin'],
        summary: 'How many reviews wait for approval (the admin navigation shows it)',
        response: { 200: envelopeOf(ReviewPendingCountSchema), 401: FailureSchema },
      },
    },
    async () => ok({ count: await reviews.pendingCount() }),
  );

  for (const [action, state] of [
    ['approve', 'approved'],
    ['reject', 'rejected'],
  ] as const) {
    app.post(
      `/admin/reviews/:id/${action}`,
      {
        schema: {
          tags: ['admin'],
          summary:
            action === 'approve'
              ? 'Approve a review: it shows on the home page and counts in its service page’s rating (compare-and-set)'
              : 'Reject a review: it is not shown, or no longer shown (compare-and-set)',
          params: ReviewIdParamsSchema,
          response: { 200: envelopeOf(ReviewDecisionSchema), ...refusals },
        },
      },
      async (request, reply) => {
        const result = await reviews.decide(request.params.id, state, adminIdOf(request), {
          audit: auditChangeOf(request),
        });
        if (!result.found) return reply.status(404).send(failure(ADMIN_REVIEW_MESSAGES.notFound));
        // Decided that way already: the log still says so (nothing moved).
        if (!result.changed) noteAudit(request, { before: { state: result.state }, after: { state: result.state } });
        const message =
          state === 'approved'
            ? result.changed
              ? ADMIN_REVIEW_MESSAGES.approved
              : ADMIN_REVIEW_MESSAGES.alreadyApproved
            : result.changed
              ? ADMIN_REVIEW_MESSAGES.rejected
              : ADMIN_REVIEW_MESSAGES.alreadyRejected;
        return ok({ id: result.id, state: result.state, changed: result.changed }, message);
      },
    );
  }
};
