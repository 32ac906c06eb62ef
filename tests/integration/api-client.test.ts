/**
 * The one browser API client (app/api/client.ts) against the real store API over HTTP: the
 * envelope, per-field refusals, a reply that is no envelope, the network failing, aborts, and
 * the bearer token (missing, refused).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, NETWORK_ERROR_MESSAGE, createApiClient, isAbort } from '../../app/api/client.ts';
import type { HistoryRow } from '../../core/orders/contracts.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';

describe.each(dialects)('the API client on %s', (dialect) => {
  let t: TestApp;
  let baseUrl: string;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const client = () => createApiClient({ baseUrl });

  it('answers the data of a successful envelope', async () => {
    const groups = await client().get<{ slug: string }[]>('/api/services');
    expect(groups.map((group) => group.slug)).toEqual(['instagram', 'youtube', 'tiktok']);
  });

  it('sends query strings, leaving out empty values', async () => {
    const error = await client()
      .get('/api/order/order-status', { query: { orderId: 'doesNotExist1', unused: undefined } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, message: 'Order not found', fieldErrors: [] });
  });

  it("turns a refused payload into an ApiError with the server's message for each field", async () => {
    const error = await client()
      .patch<HistoryRow[]>('/api/order/order-history', { email: 'nope', code: '' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError.status).toBe(400);
    expect(apiError.message).toBe('Invalid email');
    expect(apiError.fieldErrors).toEqual([
      { field: 'email', message: 'Invalid email' },
      { field: 'code', message: 'Code is required' },
    ]);
    expect(apiError.fieldError('code')).toBe('Code is required');
    expect(apiError.reply).toMatchObject({ isSuccessful: false });
  });

  it('carries the field of a domain refusal (the target check on order creation)', async () => {
    const error = await client()
      .post('/api/order', {
        type: 'Standard',
        slug: 'instagram-followers',
        qty: 100,
        name: 'not a valid username!',
        email: 'buyer@example.com',
        order_id: '123456',
      })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      status: 400,
      message: 'Invalid Instagram input',
      fieldErrors: [{ field: 'name', message: 'Invalid Instagram input' }],
    });
  });

  it('answers the whole reply with send (top-level fields besides data)', async () => {
    const reply = await client().send<{ isSuccessful: boolean; message: string }>(
      'POST',
      '/api/order/order-history/code',
      { body: { email: 'client.test@example.com' } },
    );
    expect(reply).toEqual({
      isSuccessful: true,
      message:
        'We sent a 6-digit code to this address. Enter it to see the orders placed with it (if there are none, you will see an empty list). The code is valid for 10 minutes.',
    });
  });

  it('refuses a reply that is not the envelope', async () => {
    const error = await client()
      .get('/healthz')
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      status: 200,
      message: 'The store answered with an unexpected reply (HTTP 200). Please try again.',
    });
  });

  it('reports a network failure with the network message and status 0', async () => {
    const down = createApiClient({ baseUrl: 'http://127.0.0.1:9' });
    const logged = console.error;
    console.error = () => undefined;
    try {
      const error = await down.get('/api/services').catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status: 0, message: NETWORK_ERROR_MESSAGE });
    } finally {
      console.error = logged;
    }
  });

  it('lets an abort through as an abort, not as a failure to show', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await client()
      .get('/api/services', { signal: controller.signal })
      .catch((caught: unknown) => caught);
    expect(isAbort(error)).toBe(true);
    expect(error).not.toBeInstanceOf(ApiError);
  });

  describe('with a bearer token provider', () => {
    const bearerClient = (token: string | null, cleared: string[]) =>
      createApiClient({
        baseUrl,
        bearer: {
          token: () => token,
          missingTokenMessage: 'No access token found.',
          unauthorizedMessage: 'Your session has expired. Please log in again.',
          onUnauthorized: (message, sent) => cleared.push(`${sent}: ${message}`),
        },
      });

    it('sends nothing without a token: a 401 at once', async () => {
      const cleared: string[] = [];
      const error = await bearerClient(null, cleared)
        .get('/api/auth/me')
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({ status: 401, message: 'No access token found.' });
      expect(cleared).toEqual([]);
    });

    it("sends the token, and a 401 tells the provider with the server's message", async () => {
      const cleared: string[] = [];
      const error = await bearerClient('not-a-real-token', cleared)
        .get('/api/auth/me')
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(401);
      expect(cleared).toEqual([`not-a-real-token: ${(error as ApiError).message}`]);
    });
  });
});
