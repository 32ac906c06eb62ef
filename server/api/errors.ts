/**
 * How the API answers what goes wrong, in the envelope: a refused input names each field at fault
 * (`errors: [{ field, message }]`), a domain refusal keeps its status and message, a rate limit
 * answers 429, a database that cannot write 503, and anything unexpected a 500 that reveals nothing.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { describeDatabaseFailure } from '../../db/database.ts';
import { type FieldError, failure } from './envelope.ts';

/** A validation issue's JSON pointer ('/items/0/qty') as the field name clients use ('items.0.qty'). */
function fieldOf(instancePath: string | undefined): string {
  return (instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
}

export function apiErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (hasZodFastifySchemaValidationErrors(error)) {
    const errors: FieldError[] = error.validation.map((issue) => ({
      field: fieldOf(issue.instancePath),
      message: issue.message ?? 'Invalid value',
    }));
    // `message` keeps its long-standing form ('email: Invalid email') for readers of it alone.
    const first = errors[0];
    const label = first?.field || error.validationContext;
    const message = first ? `${label ? `${label}: ` : ''}${first.message}` : 'Invalid request';
    return reply.status(400).send(failure(message, errors));
  }
  // Domain refusals (e.g. OrderError) carry their status and a message meant for the buyer,
  // and the field at fault when there is one.
  if ((error as { expose?: boolean }).expose && error.statusCode) {
    const field = (error as { field?: unknown }).field;
    const errors = typeof field === 'string' ? [{ field, message: error.message }] : undefined;
    return reply.status(error.statusCode).send(failure(error.message, errors));
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return reply.status(error.statusCode).send(failure(error.message));
  }
  // A database that cannot write (disk full, read-only, corrupt, gone) is an outage, not a bug in
  // the request: 503, so clients and proxies retry later, and the log names the cause.
  const database = describeDatabaseFailure(error);
  if (database.cause !== 'other') {
    request.log.error({ err: error, cause: database.cause }, `database unavailable: ${database.message}`);
    return reply
      .status(503)
      .header('retry-after', '60')
      .send(failure('The store cannot take this request right now. Please try again in a few minutes.'));
  }
  request.log.error({ err: error }, 'unhandled error');
  return reply.status(500).send(failure('Something went wrong on our side. Please try again.'));
}

/**
 * @fastify/rate-limit's `errorResponseBuilder`. A real Error, not a plain object: whichever error
 * handler sees it first (a plugin's own may pass it on) hands it on to `apiErrorHandler`, which
 * answers the envelope with its status (a plain object would be sent as a 200 reply instead).
 */
export function rateLimitExceeded(_request: FastifyRequest, context: { statusCode: number; ttl: number }): Error {
  return Object.assign(new Error(`Too many requests. Please try again in ${Math.ceil(context.ttl / 1000)} seconds.`), {
    statusCode: context.statusCode,
  });
}
