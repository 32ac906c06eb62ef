/**
 * Failed mail for the admin (docs/decisions/015-mail-delivery-and-log-secrets.md): the list, the
 * count the admin navigation shows, and "send again". Every route needs an admin bearer token;
 * the guard runs first (onRequest), before parameters are read.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { FailedMailConsole } from '../../core/mail/failed-mail.ts';
import { type AuthenticateToken, OWNER_ONLY, noteAudit, requireAdmin } from './admin-guard.ts';
import { FailureSchema, envelopeOf, failure, ok } from './envelope.ts';
import { idParam } from '../../core/integer-columns.ts';

interface AdminMailApiOptions {
  failedMail: FailedMailConsole;
  authenticate: AuthenticateToken;
}

const FailedMailSchema = z.object({
  id: z.number().int(),
  to: z.string(),
  subject: z.string(),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  queuedAt: z.string(),
  failedAt: z.string(),
});

const ResendParamsSchema = z.object({
  id: idParam('must be a mail id'),
});

export const RESEND_QUEUED_MESSAGE = 'The e-mail will be sent again.';
const RESEND_NOT_FOUND_MESSAGE = 'No such e-mail.';
export const RESEND_NOT_FAILED_MESSAGE = 'This e-mail has not failed (it is queued or was sent).';

export const adminMailApi: FastifyPluginAsyncZod<AdminMailApiOptions> = async (app, options) => {
  const { failedMail } = options;
  app.addHook('onRequest', requireAdmin(options.authenticate, OWNER_ONLY));

  app.get(
    '/admin/mail/failed',
    {
      schema: {
        tags: ['admin'],
        summary: 'E-mails given up for good, newest first: recipient, subject, attempts, last error',
        response: { 200: envelopeOf(z.array(FailedMailSchema)), 401: FailureSchema },
      },
    },
    async () => ok(await failedMail.list()),
  );

  app.get(
    '/admin/mail/failed/count',
    {
      schema: {
        tags: ['admin'],
        summary: 'How many e-mails failed for good (the admin navigation shows it)',
        response: { 200: envelopeOf(z.object({ count: z.number().int() })), 401: FailureSchema },
      },
    },
    async () => ok({ count: await failedMail.count() }),
  );

  app.post(
    '/admin/mail/:id/resend',
    {
      schema: {
        tags: ['admin'],
        summary: 'Queue one more attempt of a failed e-mail',
        params: ResendParamsSchema,
        response: {
          202: envelopeOf(z.object({ id: z.number().int() })),
          400: FailureSchema,
          401: FailureSchema,
          404: FailureSchema,
          409: FailureSchema,
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const result = await failedMail.resend(id);
      if (result.ok) {
        // The compare-and-set moves only a failed mail job back to the queue.
        noteAudit(request, { before: { status: 'failed' }, after: { status: 'pending' } });
        return reply.code(202).send(ok({ id }, RESEND_QUEUED_MESSAGE));
      }
      return result.reason === 'not-found'
        ? reply.code(404).send(failure(RESEND_NOT_FOUND_MESSAGE))
        : reply.code(409).send(failure(RESEND_NOT_FAILED_MESSAGE));
    },
  );
};
