/**
 * The admin inbox over HTTP (decision 026): the contact messages' list, unread count, one message
 * (opening it marks it read), mark handled / mark as new, and replies. Thin: core/contact/inbox.ts
 * holds every rule. Every route needs an admin bearer token; the guard runs first (onRequest), so
 * a request without one gets 401 'No access token found.' before anything is read.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  INBOX_MESSAGES,
  InboxListQuerySchema,
  InboxListReplySchema,
  InboxMessageParamsSchema,
  InboxMessageSchema,
  InboxReplyBodySchema,
  InboxReplyCreatedSchema,
  InboxTransitionSchema,
  InboxUnreadCountSchema,
} from '../../core/contact/inbox-contracts.ts';
import type { ContactInbox, InboxAdmin } from '../../core/contact/inbox.ts';
import { auditChangeOf } from './admin-audit.ts';
import { type AuthenticateToken, OWNER_AND_SUPPORT, noteAudit, requireAdmin } from './admin-guard.ts';
import { FailureSchema, envelopeOf, ok } from './envelope.ts';
import { specValidationErrors } from './spec-validation.ts';

interface AdminMessagesApiOptions {
  inbox: ContactInbox;
  authenticate: AuthenticateToken;
}

/** Each reply sends an e-mail: a stolen token must not turn the inbox into a mail cannon. */
const REPLY_RATE_LIMIT = { max: 30, timeWindow: '1 minute' } as const;

const refusals = { 400: FailureSchema, 401: FailureSchema, 404: FailureSchema };

export const adminMessagesApi: FastifyPluginAsyncZod<AdminMessagesApiOptions> = async (app, options) => {
  const { inbox } = options;
  app.addHook('onRequest', requireAdmin(options.authenticate, OWNER_AND_SUPPORT));
  // The schemas carry their own messages ('Reply is required'): answered as they are, per field.
  app.setErrorHandler(specValidationErrors());

  /** The guard has run: every handler here has an admin. */
  const adminOf = (request: { admin?: InboxAdmin | undefined }): InboxAdmin => {
    if (!request.admin) throw new Error('admin guard did not run');
    return { adminId: request.admin.adminId, email: request.admin.email };
  };

  app.get(
    '/admin/messages',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Contact messages, newest first: keyword (e-mail, order id, text; case-insensitive), status (new, handled, all), pages',
        querystring: InboxListQuerySchema,
        response: { 200: InboxListReplySchema, 400: FailureSchema, 401: FailureSchema },
      },
    },
    async (request) => {
      const result = await inbox.list(request.query);
      return {
        isSuccessful: true,
        message: result.count === 0 ? 'No messages found' : 'Success',
        data: result.rows,
        count: result.count,
        totalPages: result.totalPages,
        currentPage: result.currentPage,
      };
    },
  );

  app.get(
    '/admin/messages/unread-count',
    {
      schema: {
        tags: ['admin'],
        summary: 'How many contact messages no admin has opened yet (the admin navigation shows it)',
        response: { 200: envelopeOf(InboxUnreadCountSchema), 401: FailureSchema },
      },
    },
    async () => ok({ count: await inbox.unreadCount() }),
  );

  app.get(
    '/admin/messages/:id',
    {
      schema: {
        tags: ['admin'],
        summary:
          'One contact message with its replies and the linked order (facts and timeline); opening it marks it read',
        params: InboxMessageParamsSchema,
        response: { 200: envelopeOf(InboxMessageSchema), ...refusals },
      },
    },
    async (request) => ok(await inbox.open(request.params.id)),
  );

  app.post(
    '/admin/messages/:id/handled',
    {
      schema: {
        tags: ['admin'],
        summary: 'Mark a new message handled (compare-and-set: when it is handled already, nothing changes)',
        params: InboxMessageParamsSchema,
        response: { 200: envelopeOf(InboxTransitionSchema), ...refusals },
      },
    },
    async (request) => {
      const result = await inbox.markHandled(request.params.id, adminOf(request));
      // The compare-and-set moves only a new message: when it changed one, that was its state before.
      noteAudit(request, {
        before: { status: result.changed ? 'new' : result.status },
        after: { status: result.status, handledAt: result.handledAt },
      });
      return ok(result, result.changed ? INBOX_MESSAGES.handled : INBOX_MESSAGES.alreadyHandled);
    },
  );

  app.post(
    '/admin/messages/:id/reopen',
    {
      schema: {
        tags: ['admin'],
        summary: 'Mark a handled message new again (compare-and-set: when it is new already, nothing changes)',
        params: InboxMessageParamsSchema,
        response: { 200: envelopeOf(InboxTransitionSchema), ...refusals },
      },
    },
    async (request) => {
      const result = await inbox.reopen(request.params.id);
      // The compare-and-set moves only a handled message: when it changed one, it was handled.
      noteAudit(request, {
        before: { status: result.changed ? 'handled' : result.status },
        after: { status: result.status, handledAt: result.handledAt },
      });
      return ok(result, result.changed ? INBOX_MESSAGES.reopened : INBOX_MESSAGES.alreadyNew);
    },
  );

  app.post(
    '/admin/messages/:id/replies',
    {
      config: { rateLimit: REPLY_RATE_LIMIT },
      schema: {
        tags: ['admin'],
        summary:
          'Reply to a message: stored on its thread and e-mailed to the sender (jobs outbox); marks it handled unless markHandled is false',
        params: InboxMessageParamsSchema,
        body: InboxReplyBodySchema,
        response: { 201: envelopeOf(InboxReplyCreatedSchema), ...refusals, 429: FailureSchema },
      },
    },
    async (request, reply) => {
      const { body, markHandled } = request.body;
      const created = await inbox.reply(request.params.id, body, adminOf(request), {
        markHandled,
        audit: auditChangeOf(request),
      });
      return reply.code(201).send(ok(created, INBOX_MESSAGES.replied));
    },
  );
};
