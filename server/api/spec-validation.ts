/**
 * For routes whose payload schemas carry the spec's own messages ('Email is required', 'YouTube
 * URL is required'): a failed validation answers 400 with that message as it is (the app's
 * handler prefixes the field, 'email: …', for generic schema messages) and, like everywhere,
 * `errors: [{ field, message }]` so a form shows each message under its field. Any other error
 * goes on to the app's handler.
 *
 * Register per plugin: `app.setErrorHandler(specValidationErrors())`.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { type FieldError, failure } from './envelope.ts';

interface SpecValidationOptions {
  /** The message when the payload as a whole is refused (missing, not an object): no field says which. */
  wholePayloadMessage?: (request: FastifyRequest) => string | undefined;
  /** The reply's shape, when the route answers more than the envelope (the login's `status`). */
  body?: (message: string, errors: FieldError[]) => object;
}

export function specValidationErrors(options: SpecValidationOptions = {}) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (!hasZodFastifySchemaValidationErrors(error)) throw error;
    const errors: FieldError[] = error.validation.map((issue) => ({
      field: (issue.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.'),
      message: issue.message ?? 'Invalid value',
    }));
    const first = errors[0];
    const message = (!first?.field && options.wholePayloadMessage?.(request)) || first?.message || 'Invalid request';
    return reply.status(400).send(options.body ? options.body(message, errors) : failure(message, errors));
  };
}
