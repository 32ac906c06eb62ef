/**
 * The OpenAPI document at /api/openapi.json is built from the routes' own zod schemas, so it is
 * only as good as what the routes declare. This walks it: every operation documents a 2xx reply
 * with a real schema (not `z.any()`), every documented 4xx is the failure envelope, and an
 * operation that takes input documents its 400. Then a few live replies are checked against
 * the schema documented for their status (with Ajv, which reads OpenAPI's `nullable`), so the
 * document cannot drift from what the API sends.
 */
import Ajv from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, startTestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';
import { NO_TOKEN_MESSAGE } from '../../server/api/admin-guard.ts';

interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  [keyword: string]: unknown;
}
interface MediaType {
  schema?: JsonSchema;
}
interface Operation {
  parameters?: unknown[];
  requestBody?: unknown;
  responses?: Record<string, { content?: Record<string, MediaType> }>;
  security?: Record<string, string[]>[];
}
interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components?: { securitySchemes?: Record<string, { type?: string; scheme?: string }> };
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

const isEmptySchema = (schema: JsonSchema | undefined) => !schema || Object.keys(schema).length === 0;

function isFailureEnvelope(schema: JsonSchema | undefined): boolean {
  const properties = schema?.properties;
  return (
    schema?.type === 'object' &&
    properties?.isSuccessful?.type === 'boolean' &&
    properties.message?.type === 'string' &&
    (schema.required ?? []).includes('isSuccessful') &&
    (schema.required ?? []).includes('message')
  );
}

/** What is wrong with one operation's documentation; empty when nothing is. */
function operationProblems(operation: Operation): string[] {
  const problems: string[] = [];
  const responses = Object.entries(operation.responses ?? {});
  const success = responses.filter(([status]) => /^2\d\d$/.test(status));
  if (success.length === 0) problems.push('no 2xx response');
  for (const [status, response] of success) {
    const media = Object.entries(response.content ?? {});
    if (media.length === 0) problems.push(`${status} has no content schema`);
    for (const [type, { schema }] of media) {
      if (isEmptySchema(schema)) problems.push(`${status} ${type} schema is empty (z.any()?)`);
      else if (schema?.properties && 'data' in schema.properties && isEmptySchema(schema.properties.data))
        problems.push(`${status} ${type} envelope's data is untyped (z.any())`);
    }
  }
  for (const [status, response] of responses.filter(([code]) => /^4\d\d$/.test(code))) {
    const schema = response.content?.['application/json']?.schema;
    if (!isFailureEnvelope(schema)) problems.push(`${status} is not the { isSuccessful, message } envelope`);
  }
  const takesInput = operation.requestBody !== undefined || (operation.parameters ?? []).length > 0;
  if (takesInput && !responses.some(([status]) => status === '400')) problems.push('takes input but documents no 400');
  return problems;
}

describe.each(dialects)('the OpenAPI document on %s', (dialect) => {
  let t: TestApp;
  let document: OpenApiDocument;
  let remote = 0;
  const ajv = new Ajv({ strict: false, allErrors: true });

  beforeAll(async () => {
    t = await startTestApp(dialect);
    const response = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    document = response.json<OpenApiDocument>();
  });
  afterAll(async () => {
    await t?.close();
  });

  /** What is wrong with one live reply against the schema documented for its status; empty when nothing. */
  async function replyProblems(
    method: 'get' | 'post',
    template: string,
    url: string,
    expectedStatus: number,
    payload?: object,
  ): Promise<{ problems: string[]; body: unknown }> {
    const label = `${method.toUpperCase()} ${url}`;
    const response = await t.app.inject({
      method: method === 'get' ? 'GET' : 'POST',
      url,
      remoteAddress: `10.7.0.${(remote += 1) % 250}`,
      ...(payload ? { payload } : {}),
    });
    const body = response.json<unknown>();
    if (response.statusCode !== expectedStatus)
      return { problems: [`${label}: answered ${response.statusCode}, expected ${expectedStatus}`], body };
    const schema =
      document.paths[template]?.[method]?.responses?.[String(expectedStatus)]?.content?.['application/json']?.schema;
    if (!schema) return { problems: [`${label}: ${expectedStatus} is not documented for ${template}`], body };
    const validate = ajv.compile(schema);
    if (validate(body)) return { problems: [], body };
    return {
      problems: (validate.errors ?? []).map(
        (error) => `${label} → ${expectedStatus}: ${error.instancePath || '(reply)'} ${error.message ?? ''}`,
      ),
      body,
    };
  }

  it('is OpenAPI 3 and documents every /api route the store serves', () => {
    expect(document.openapi).toMatch(/^3\./);
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((method) => METHODS.includes(method))
        .map((method) => `${method.toUpperCase()} ${path}`),
    );
    console.info(`OpenAPI: ${operations.length} operations on ${Object.keys(document.paths).length} paths`);
    for (const operation of [
      'GET /api/services',
      'GET /api/services/{slug}',
      'POST /api/order',
      'POST /api/order/form-detail',
      'GET /api/order/order-status',
      'PATCH /api/order/order-history',
      'POST /api/auth/login',
      'GET /api/order/all-orders',
      'POST /api/order/reorder',
    ])
      expect(operations).toContain(operation);
    // Only /api is documented: pages, health checks and the simulated panel are not the store's API.
    expect(Object.keys(document.paths).every((path) => path.startsWith('/api/'))).toBe(true);
  });

  it('every operation documents a typed 2xx reply, its 4xx envelopes, and a 400 when it takes input', () => {
    const problems = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => METHODS.includes(method))
        .flatMap(([method, operation]) =>
          operationProblems(operation).map((problem) => `${method.toUpperCase()} ${path}: ${problem}`),
        ),
    );
    if (problems.length > 0) console.info(`OpenAPI gaps:\n${problems.join('\n')}`);
    expect(problems).toEqual([]);
  });

  it('live replies match the schema documented for their status', async () => {
    const problems: string[] = [];
    const check = async (...args: Parameters<typeof replyProblems>) => {
      const result = await replyProblems(...args);
      problems.push(...result.problems);
      return result.body;
    };
    await check('get', '/api/services', '/api/services', 200);
    const detail = (await check('get', '/api/services/{slug}', '/api/services/instagram-followers', 200)) as {
      data: { services: { slug: string; plans: { type: string; list: { qty: number }[] }[] }[] };
    };
    await check('get', '/api/services/{slug}', '/api/services/no-such-service', 404);
    await check('get', '/api/services/{slug}', '/api/services/Bad_Slug', 400);

    const service = detail.data.services.find((candidate) => candidate.slug === 'instagram-followers');
    const plan = service?.plans[0];
    const qty = plan?.list[0]?.qty;
    expect(plan && qty).toBeTruthy();
    const formDetail = { slug: 'instagram-followers', qty, type: plan?.type };
    await check('post', '/api/order/form-detail', '/api/order/form-detail', 200, formDetail);
    await check('post', '/api/order/form-detail', '/api/order/form-detail', 400, { slug: 42 });

    await check('get', '/api/order/order-status', '/api/order/order-status?orderId=nope', 404);
    const wrongLogin = { email: 'nobody@example.com', password: 'not the password' };
    await check('post', '/api/auth/login', '/api/auth/login', 401, wrongLogin);
    await check('get', '/api/auth/me', '/api/auth/me', 401);
    await check('get', '/api/order/all-orders', '/api/order/all-orders', 401);
    const badEmail = { email: 'not-an-email' };
    await check('post', '/api/order/order-history/code', '/api/order/order-history/code', 400, badEmail);

    if (problems.length > 0) console.info(`Replies that differ from the document:\n${problems.join('\n')}`);
    expect(problems).toEqual([]);
  });

  /** Every documented operation as the method and a URL that reaches it (path parameters filled in). */
  const operationsOf = (doc: OpenApiDocument) =>
    Object.entries(doc.paths).flatMap(([template, item]) =>
      Object.entries(item)
        .filter(([method]) => METHODS.includes(method))
        .map(([method, operation]) => ({
          label: `${method.toUpperCase()} ${template}`,
          method: method.toUpperCase() as 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
          url: template.replace(/\{[^}]+\}/g, 'x'),
          operation,
        })),
    );

  it('documents the bearer scheme on exactly the operations that refuse a caller without a token', async () => {
    const schemes = document.components?.securitySchemes ?? {};
    const bearer = Object.entries(schemes).filter(([, scheme]) => scheme.type === 'http' && scheme.scheme === 'bearer');
    expect(bearer).toHaveLength(1);
    const [schemeName] = bearer[0] ?? [''];
    const problems: string[] = [];
    let guarded = 0;
    for (const { label, method, url, operation } of operationsOf(document)) {
      const response = await t.app.inject({
        method,
        url,
        remoteAddress: `10.7.1.${(remote += 1) % 250}`,
        ...(method === 'GET' ? {} : { payload: {} }),
      });
      const refusedForNoToken =
        response.statusCode === 401 && response.json<{ message?: string }>().message === NO_TOKEN_MESSAGE;
      const declaresBearer = (operation.security ?? []).some((requirement) => schemeName in requirement);
      if (refusedForNoToken) guarded += 1;
      if (refusedForNoToken && !declaresBearer) problems.push(`${label}: needs a token but declares no bearer scheme`);
      if (refusedForNoToken && !operation.responses?.['401'])
        problems.push(`${label}: needs a token but documents no 401`);
      // A guard that runs after validation (a preHandler) lets a 400 answer first: that says nothing.
      const answeredWithoutToken = response.statusCode !== 401 && response.statusCode !== 400;
      if (answeredWithoutToken && declaresBearer)
        problems.push(`${label}: declares the bearer scheme but needs no token`);
    }
    expect(problems).toEqual([]);
    expect(guarded).toBeGreaterThanOrEqual(7); // the admin API and the session calls
  });

  it('documents 429 on every operation that rate-limits its callers', async () => {
    const problems: string[] = [];
    let limited = 0;
    for (const [index, { label, method, url, operation }] of operationsOf(document).entries()) {
      // One caller, many calls: every limit in the store is at most 60 a minute per source.
      for (let attempt = 0; attempt < 65; attempt += 1) {
        const response = await t.app.inject({
          method,
          url,
          remoteAddress: `10.7.2.${index + 1}`,
          ...(method === 'GET' ? {} : { payload: {} }),
        });
        if (response.statusCode !== 429) continue;
        limited += 1;
        if (!operation.responses?.['429']) problems.push(`${label}: answered 429 but documents none`);
        break;
      }
    }
    expect(problems).toEqual([]);
    expect(limited).toBeGreaterThan(5);
  });

  it('the checker refuses what it should', () => {
    expect(operationProblems({ responses: { 200: { content: { 'application/json': { schema: {} } } } } })).toEqual([
      '200 application/json schema is empty (z.any()?)',
    ]);
    expect(
      operationProblems({
        requestBody: {},
        responses: {
          200: { content: { 'application/json': { schema: { type: 'object', properties: { data: {} } } } } },
          404: { content: { 'application/json': { schema: { type: 'string' } } } },
        },
      }),
    ).toEqual([
      "200 application/json envelope's data is untyped (z.any())",
      '404 is not the { isSuccessful, message } envelope',
      'takes input but documents no 400',
    ]);
  });
});
