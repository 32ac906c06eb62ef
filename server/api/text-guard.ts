/**
 * The boundary's character rule for every request, whatever its route's schema says: a string
 * anywhere in the parsed body, the query or the path parameters (object keys included) that
 * holds a control or text-direction character (core/form-fields.ts) is refused with 400 in the
 * envelope, naming the field, before validation or any handler runs. Tabs and line breaks pass
 * here (a textarea may hold them); the single-line fields' schemas refuse those themselves.
 *
 * Why a hook as well as the schemas: NUL reaches PostgreSQL as an error (500) and breaks
 * SQLite's FTS5 search, and one schema that forgets the rule would let it through again.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { UNSAFE_TEXT_CHARACTERS, UNSAFE_TEXT_MESSAGE } from '../../core/form-fields.ts';
import { failure } from './envelope.ts';

/** Nesting deeper than this is not walked further (JSON bodies are limited in size anyway). */
const MAX_DEPTH = 32;

/** The first field ('items.0.name'; '' for a bare string) whose text has an unsafe character, or null. */
export function unsafeTextField(value: unknown, path: string[] = [], depth = 0): string | null {
  if (typeof value === 'string') return UNSAFE_TEXT_CHARACTERS.test(value) ? path.join('.') : null;
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH || Buffer.isBuffer(value)) return null;
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((item, index): [string, unknown] => [String(index), item])
    : Object.entries(value);
  for (const [key, item] of entries) {
    if (UNSAFE_TEXT_CHARACTERS.test(key)) return [...path, key].join('.');
    const found = unsafeTextField(item, [...path, key], depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/** A `preValidation` hook for the whole app. */
export async function refuseUnsafeText(request: FastifyRequest, reply: FastifyReply) {
  for (const part of [request.params, request.query, request.body]) {
    const field = unsafeTextField(part);
    if (field === null) continue;
    return reply
      .status(400)
      .header('cache-control', 'no-store')
      .send(
        failure(field ? `${field}: ${UNSAFE_TEXT_MESSAGE}` : UNSAFE_TEXT_MESSAGE, [
          { field, message: UNSAFE_TEXT_MESSAGE },
        ]),
      );
  }
}
