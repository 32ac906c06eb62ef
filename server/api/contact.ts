import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ContactDesk } from '../../core/contact/contact.ts';
import { CONTACT_SENT_MESSAGE, ContactPayload, ContactReplySchema } from '../../core/contact/contracts.ts';
import { FailureSchema } from './envelope.ts';
import { specValidationErrors } from './spec-validation.ts';

/**
 * `POST /api/contact` (spec section 7): the contact form. The payload is the page's own form
 * schema (core/contact/contracts.ts), so its messages are the spec's, each with its field. Every
 * accepted message gets the same reply, whether its order was linked, belongs to someone else,
 * does not exist, or a bot filled the honeypot (core/contact/contact.ts). It sends two e-mails,
 * so it is rate-limited per client like the other calls that send mail.
 */

interface ContactApiOptions {
  contact: ContactDesk;
}

/** A person writes a handful of messages at most; more from one client is a script. */
const CONTACT_RATE_LIMIT = { max: 5, timeWindow: '10 minutes' } as const;

export const contactApi: FastifyPluginAsyncZod<ContactApiOptions> = async (app, { contact }) => {
  app.setErrorHandler(specValidationErrors());
  // The reply is about this visitor's message: no cache may keep it.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'private, no-store');
  });

  app.post(
    '/contact',
    {
      config: { rateLimit: CONTACT_RATE_LIMIT },
      schema: {
        tags: ['contact'],
        summary:
          'Send a message to support (stored, e-mailed to support, acknowledged to the sender); the same reply whatever the order id',
        body: ContactPayload,
        response: { 200: ContactReplySchema, 400: FailureSchema, 429: FailureSchema },
      },
    },
    async (request) => {
      await contact.submit(request.body);
      return { isSuccessful: true as const, message: CONTACT_SENT_MESSAGE };
    },
  );
};
