/**
 * A request that fails its route's zod schema answers 400 in the envelope with `errors`, one
 * `{ field, message }` per problem (field: the payload path joined with '.'; message: the
 * schema's own), and the long-standing `message` ('field: message' of the first problem), so
 * forms can show each message at its field and older readers of `message` keep working.
 * Checked on a route of the test's own (every shape of problem at once) and on a real one.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FailureSchema, ok } from '../../server/api/envelope.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';

const ProbeBody = z.object({
  email: z.string().min(1, 'Email is required').email('Invalid email'),
  qty: z.number().int('Quantity must be a whole number'),
  target: z.object({ url: z.string().url('Invalid URL') }),
  comments: z.array(z.string().max(5, 'Comment too long')).optional(),
});

function probeRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/test/probe/:id',
    {
      schema: {
        params: z.object({ id: z.string().regex(/^\d+$/, 'id must be a number') }),
        querystring: z.object({ mode: z.enum(['fast', 'slow']).optional() }),
        body: ProbeBody,
        response: { 200: z.object({ isSuccessful: z.literal(true), message: z.string(), data: z.null() }) },
      },
    },
    () => ok(null),
  );
}

describe.each(dialects)('per-field validation errors on %s', (dialect) => {
  let t: TestApp;
  let remote = 0;
  const post = (url: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url, payload: payload as object, remoteAddress: `10.8.0.${(remote += 1) % 250}` });

  beforeAll(async () => {
    t = await startTestApp(dialect, { routes: probeRoutes });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('names every field at fault, nested and listed ones included, with the schema’s message', async () => {
    const response = await post('/api/test/probe/1', {
      email: 'not-an-email',
      qty: 1.5,
      target: { url: 'nope' },
      comments: ['fine', 'much too long'],
    });
    expect(response.statusCode).toBe(400);
    const body = response.json<unknown>();
    expect(FailureSchema.safeParse(body).success).toBe(true);
    expect(body).toEqual({
      isSuccessful: false,
      message: 'email: Invalid email',
      errors: [
        { field: 'email', message: 'Invalid email' },
        { field: 'qty', message: 'Quantity must be a whole number' },
        { field: 'target.url', message: 'Invalid URL' },
        { field: 'comments.1', message: 'Comment too long' },
      ],
    });
  });

  it('reports a missing field under its name', async () => {
    const response = await post('/api/test/probe/1', { email: '', qty: 1, target: { url: 'https://example.com' } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      isSuccessful: false,
      message: 'email: Email is required',
      // zod reports every check that fails, in the schema's order: a form shows the first.
      errors: [
        { field: 'email', message: 'Email is required' },
        { field: 'email', message: 'Invalid email' },
      ],
    });
    const without = await post('/api/test/probe/1', { email: 'a@example.com', target: { url: 'https://example.com' } });
    expect(without.json<{ errors: { field: string }[] }>().errors.map((error) => error.field)).toEqual(['qty']);
  });

  it('a payload that is not an object at all: field "" and the message labelled by its part', async () => {
    const response = await post('/api/test/probe/1', [1, 2]);
    expect(response.statusCode).toBe(400);
    const body = response.json<{ message: string; errors: { field: string; message: string }[] }>();
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0]?.field).toBe('');
    expect(body.message).toBe(`body: ${body.errors[0]?.message}`);
  });

  it('params and query strings are named the same way', async () => {
    const badId = await post('/api/test/probe/abc', {
      email: 'a@example.com',
      qty: 1,
      target: { url: 'https://x.io' },
    });
    expect(badId.statusCode).toBe(400);
    expect(badId.json()).toEqual({
      isSuccessful: false,
      message: 'id: id must be a number',
      errors: [{ field: 'id', message: 'id must be a number' }],
    });
    const badMode = await post('/api/test/probe/1?mode=medium', {
      email: 'a@example.com',
      qty: 1,
      target: { url: 'https://x.io' },
    });
    expect(badMode.statusCode).toBe(400);
    expect(badMode.json<{ errors: { field: string }[] }>().errors.map((error) => error.field)).toEqual(['mode']);
  });

  it('a valid request passes', async () => {
    const response = await post('/api/test/probe/7?mode=fast', {
      email: 'a@example.com',
      qty: 3,
      target: { url: 'https://example.com/x' },
      comments: ['ok'],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ isSuccessful: true, message: 'Success', data: null });
  });

  it('a real route: a bad catalogue slug names the field', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/services/Bad_Slug' });
    expect(response.statusCode).toBe(400);
    const body = response.json<{ message: string; errors: { field: string; message: string }[] }>();
    expect(body.errors).toEqual([{ field: 'slug', message: expect.any(String) as string }]);
    expect(body.message).toBe(`slug: ${body.errors[0]?.message}`);
  });
});
