/**
 * OpenAPI-driven fuzzing: every operation in /api/openapi.json gets requests generated with
 * fast-check from the schemas the document publishes (parameters and request bodies), mixed with
 * a corpus of naughty strings and with schema-breaking mutations (wrong types, missing and extra
 * fields, huge numbers, broken JSON). Whatever comes back must be something the document promises:
 * never a 5xx, a status the operation declares, a content type declared for that status, and a
 * body valid against its schema. Admin operations are called with a real bearer token (and some
 * without one); every request comes from its own address so per-source rate limits never hide
 * what the route does. `FUZZ_SEED` replays a run; `FUZZ_RUNS` sets the requests per operation.
 */
import Ajv, { type ValidateFunction } from 'ajv';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminSessions } from '../../core/auth/admin-sessions.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  nullable?: boolean;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  format?: string;
  pattern?: string;
}
interface Parameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  required?: boolean;
  schema?: JsonSchema;
}
interface MediaType {
  schema?: JsonSchema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, MediaType> };
  responses?: Record<string, { content?: Record<string, MediaType> }>;
  security?: Record<string, string[]>[];
}
interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

/**
 * Strings that have broken web applications: control characters, bidirectional overrides,
 * SQL and FTS syntax, path traversal, spreadsheet formulas, markup, odd Unicode, huge lengths.
 */
export const NAUGHTY_STRINGS: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '%00',
  'abc%00.txt',
  '\u0001\u0002\u0003\u0004\u0005\u0006\u0007\u0008',
  '\t',
  '\r\n',
  'line\nbreak',
  '\u001b[31mred\u001b[0m',
  '\u007f',
  '\u0085',
  '\u00a0',
  '\u200b',
  '\u200d',
  '\u2028',
  '\u2029',
  '\ufeff',
  '\ufffd',
  '\uffff',
  '\ud800',
  '\udfff',
  '\u202e',
  'admin\u202egpj.exe',
  '\u202aLTR\u202c',
  '\u2066isolate\u2069',
  '\u200f',
  'مرحبا بالعالم',
  'שלום עולם',
  '𝕿𝖍𝖊 𝖖𝖚𝖎𝖈𝖐',
  '😀',
  '👩‍👩‍👧‍👦',
  '🏳️‍🌈',
  '🇮🇳',
  'Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǫ̗',
  '田中さんにあげて下さい',
  '사회과학원 어학연구소',
  'ÅÍÎÏ˝ÓÔÒÚÆ☃',
  'Ω≈ç√∫˜µ≤≥÷',
  '０１２３４５６７８９',
  'ﬃ',
  "'",
  '"',
  '`',
  "' OR '1'='1",
  "' OR 1=1 --",
  "1'; DROP TABLE orders; --",
  '"; DROP TABLE admins; --',
  "' UNION SELECT NULL, NULL --",
  "admin'--",
  '1; SELECT pg_sleep(5)',
  '*',
  '"unterminated',
  'NEAR(a b)',
  'a AND b OR NOT c',
  '^',
  '%',
  '_',
  '\\',
  '\\\\',
  '../',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '/etc/passwd%00',
  '%2e%2e%2f',
  '%252e%252e%252f',
  'file:///etc/passwd',
  '=1+1',
  '=HYPERLINK("http://evil.example","x")',
  '+1+1',
  '-1+1',
  '@SUM(1,1)',
  '\t=1+1',
  '\r=1+1',
  "=cmd|' /C calc'!A0",
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "<svg/onload=alert('x')>",
  'javascript:alert(1)',
  '<!--',
  ']]>',
  '{{7*7}}',
  '${7*7}',
  '#{7*7}',
  '%s%s%s%s%n',
  '{"$gt":""}',
  '__proto__',
  'constructor',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-1',
  '0',
  '1e309',
  '9'.repeat(400),
  '0x7fffffff',
  'true',
  '[]',
  '{}',
  'a'.repeat(10_000),
  'é'.repeat(5_000),
  '😀'.repeat(3_000),
  'user@example.com\u0000@evil.example',
  'user@example.com\r\nBcc: victim@example.com',
  '"quoted"@example.com',
  '<user@example.com>',
  'user@exa\u202emple.com',
  'https://www.instagram.com/\u0000',
  'https://evil.example/@user',
];

/**
 * Integers just past and far past what a database column holds (32-bit INTEGER, 64-bit BIGINT,
 * JavaScript's safe integers), negative ones, zero and a fraction: an id or a count outside its
 * column must answer 4xx, never reach the database and come back as a 500.
 */
export const BEYOND_COLUMNS: readonly number[] = [
  0,
  -1,
  1.5,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 32 - 1,
  5_980_116_256_577,
  2 ** 53,
  -(2 ** 53),
  1e20,
];

/** fast-check arbitrary for a value of a JSON schema, mixing in naughty and known-good strings. */
function arbitraryFor(schema: JsonSchema | undefined, known: readonly string[], depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return fc.jsonValue({ maxDepth: 1 });
  const orNull = (arbitrary: fc.Arbitrary<unknown>) =>
    schema.nullable ? fc.oneof(arbitrary, fc.constant(null)) : arbitrary;
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return orNull(fc.constantFrom(...schema.enum));
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return orNull(fc.oneof(...alternatives.map((s) => arbitraryFor(s, known, depth + 1))));
  if (schema.allOf?.length) return arbitraryFor(schema.allOf[0], known, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string': {
      // A file field of a multipart form: bytes (random, empty, or markup posing as an image).
      if (schema.format === 'binary') {
        return fc.oneof(
          fc.uint8Array({ maxLength: 2048 }).map((bytes) => Buffer.from(bytes)),
          fc.constantFrom(...NAUGHTY_STRINGS.slice(0, 40), '<svg onload="alert(1)"/>').map((text) => Buffer.from(text)),
        );
      }
      const maxLength = Math.min(schema.maxLength ?? 64, 200);
      const text = fc.string({ minLength: schema.minLength ?? 0, maxLength, unit: 'binary' });
      const plain = fc.string({ minLength: schema.minLength ?? 0, maxLength });
      const sources: fc.Arbitrary<unknown>[] = [plain, text, fc.constantFrom(...NAUGHTY_STRINGS)];
      if (known.length) sources.push(fc.constantFrom(...known));
      if (schema.format === 'email') sources.push(fc.emailAddress());
      return orNull(fc.oneof(...sources));
    }
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? schema.exclusiveMinimum ?? -1_000_000;
      const max = schema.maximum ?? schema.exclusiveMaximum ?? 1_000_000;
      const inRange = fc.integer({
        min: Math.max(Math.ceil(min), Number.MIN_SAFE_INTEGER),
        max: Math.min(Math.floor(max), Number.MAX_SAFE_INTEGER),
      });
      const edges = fc.constantFrom(
        0,
        -1,
        1,
        1.5,
        1e21,
        -1e21,
        Number.MAX_SAFE_INTEGER + 2,
        Number.MAX_VALUE,
        ...BEYOND_COLUMNS,
      );
      return orNull(type === 'integer' ? fc.oneof(inRange, inRange, edges) : fc.oneof(inRange, fc.double(), edges));
    }
    case 'boolean':
      return orNull(fc.boolean());
    case 'array':
      return orNull(
        fc.array(arbitraryFor(schema.items, known, depth + 1), {
          minLength: schema.minItems ?? 0,
          maxLength: Math.min(schema.maxItems ?? 5, 5),
        }),
      );
    case 'object':
    case undefined: {
      if (!schema.properties) return orNull(fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 })));
      const properties = Object.fromEntries(
        Object.entries(schema.properties).map(([name, property]) => [name, arbitraryFor(property, known, depth + 1)]),
      );
      return orNull(fc.record(properties, { requiredKeys: schema.required ?? [] }));
    }
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}

/** Breaks a generated value the way a careless or hostile client would. */
function mutationFor(schema: JsonSchema | undefined): fc.Arbitrary<(value: unknown) => unknown> {
  const wrongValues = fc.constantFrom<unknown>(
    null,
    true,
    0,
    -1,
    1e300,
    -1e300,
    '',
    'x'.repeat(100_000),
    [],
    {},
    [1, 2],
    { nested: { deeper: ['x'] } },
  );
  const fields = Object.keys(schema?.properties ?? {});
  const whole = wrongValues.map((wrong) => () => wrong);
  if (fields.length === 0) return whole;
  return fc.oneof(
    whole,
    // A field with the wrong type.
    fc.tuple(fc.constantFrom(...fields), wrongValues).map(([field, wrong]) => (value: unknown) => ({
      ...(isRecord(value) ? value : {}),
      [field]: wrong,
    })),
    // A required (or any) field missing.
    fc.constantFrom(...fields).map((field) => (value: unknown) => {
      const copy = { ...(isRecord(value) ? value : {}) };
      delete copy[field];
      return copy;
    }),
    // Fields the schema does not know.
    fc
      .constantFrom('__proto__', 'constructor', 'isAdmin', 'status', 'id', 'x'.repeat(300))
      .map((extra) => (value: unknown) => ({ ...(isRecord(value) ? value : {}), [extra]: 'extra' })),
  );
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A URL carries UTF-8 bytes: a lone surrogate cannot travel in one (JSON bodies keep them, escaped). */
const wellFormed = (text: string) =>
  text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

/**
 * A path parameter as its URL segment. `.` and `..` (which encodeURIComponent leaves as they are)
 * are dot-segments: every URL parser removes them, so the request would go to another operation's
 * path, and no client can send them as a value.
 */
const pathSegment = (text: string): string => {
  const segment = encodeURIComponent(wellFormed(text) || 'x');
  return segment === '.' || segment === '..' ? 'x' : segment;
};

const asText = (value: unknown): string =>
  typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value);

interface FuzzRequest {
  method: Method;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

/**
 * A multipart/form-data body from a generated value: Buffers become file parts, anything else a
 * text field; a value that is not an object becomes a form cut off before its closing boundary.
 */
function multipartPayload(value: unknown, boundary: string): Buffer {
  if (!isRecord(value))
    return Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${asText(value)}"\r\n`);
  const parts: Buffer[] = [];
  for (const [name, field] of Object.entries(value)) {
    const disposition = `--${boundary}\r\nContent-Disposition: form-data; name="${name.replace(/["\r\n]/g, '_')}"`;
    if (Buffer.isBuffer(field)) {
      parts.push(
        Buffer.from(`${disposition}; filename="upload.png"\r\nContent-Type: image/png\r\n\r\n`),
        field,
        Buffer.from('\r\n'),
      );
    } else {
      parts.push(Buffer.from(`${disposition}\r\n\r\n${wellFormed(asText(field))}\r\n`));
    }
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(parts);
}

/**
 * One request per sample: parameters into the path and query, the body as (maybe broken) JSON or,
 * for operations that take one, a (maybe broken) multipart form.
 */
function requestArbitrary(
  method: Method,
  template: string,
  operation: Operation,
  known: readonly string[],
  token: string,
): fc.Arbitrary<FuzzRequest> {
  const parameters = operation.parameters ?? [];
  const parameterSchema: JsonSchema = {
    type: 'object',
    properties: Object.fromEntries(parameters.map((p) => [`${p.in}:${p.name}`, p.schema ?? { type: 'string' }])),
    required: parameters.filter((p) => p.required || p.in === 'path').map((p) => `${p.in}:${p.name}`),
  };
  const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
  // Operations that take a form (file uploads) get multipart bodies generated from its schema too.
  const formSchema = operation.requestBody?.content?.['multipart/form-data']?.schema;
  const formBody = formSchema
    ? fc.option(
        fc
          .tuple(arbitraryFor(formSchema, known), fc.option(mutationFor(formSchema), { freq: 3 }))
          .map(([value, mutate]) => (mutate ? mutate(value) : value)),
        { freq: bodySchema ? 2 : 5 },
      )
    : fc.constant(null);
  const secured = (operation.security ?? []).length > 0;
  const jsonBody = fc.oneof(
    { weight: 3, arbitrary: arbitraryFor(bodySchema, known).map((value) => ({ value, mutated: false })) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(arbitraryFor(bodySchema, known), mutationFor(bodySchema))
        .map(([value, mutate]) => ({ value: mutate(value), mutated: true })),
    },
  );
  const body = fc.tuple(jsonBody, formBody).map(([json, form]) => ({ ...json, form }));
  const rawBody = fc.constantFrom('{', '{"a":', 'not json', '[', '"\u0000"', '{"email":"\u0000"}', '');
  const authorization = secured
    ? fc.constantFrom(`Bearer ${token}`, `Bearer ${token}`, `Bearer ${token}`, '', 'Bearer forged', 'Basic abc')
    : fc.constant('');
  return fc
    .record({
      parameters: arbitraryFor(parameterSchema, known),
      parameterMutation: fc.option(mutationFor(parameterSchema), { freq: 4 }),
      body,
      rawBody: fc.option(rawBody, { freq: 8 }),
      authorization,
    })
    .map(({ parameters: generated, parameterMutation, body: { value, form }, rawBody: raw, authorization: auth }) => {
      const values = parameterMutation ? parameterMutation(generated) : generated;
      const record = isRecord(values) ? values : {};
      let url = template;
      const query = new URLSearchParams();
      for (const parameter of parameters) {
        const key = `${parameter.in}:${parameter.name}`;
        const present = key in record;
        const text = asText(record[key]);
        if (parameter.in === 'path') url = url.replace(`{${parameter.name}}`, pathSegment(text));
        else if (parameter.in === 'query' && present) query.append(parameter.name, text);
      }
      const search = query.toString();
      const headers: Record<string, string> = {};
      if (auth) headers.authorization = auth;
      const request: FuzzRequest = { method, url: search ? `${url}?${search}` : url, headers };
      if (method !== 'GET' && method !== 'DELETE' && form !== null) {
        const boundary = 'fuzzboundary7MA4YWxkTrZu0gW';
        headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
        request.payload = multipartPayload(form, boundary);
      } else if (method !== 'GET' && method !== 'DELETE') {
        headers['content-type'] = 'application/json';
        request.payload = raw ?? JSON.stringify(value ?? null);
      }
      return request;
    });
}

/** A value the schema accepts in the simplest way, so a request gets past validation to the one field being tested. */
function plainValue(schema: JsonSchema | undefined, known: readonly string[], depth = 0): unknown {
  if (!schema || depth > 4) return null;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const alternatives = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (alternatives?.length) return plainValue(alternatives[0], known, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      if (schema.format === 'binary') return Buffer.from('plain bytes');
      if (schema.format === 'email') return 'fuzz.admin@example.com';
      return (known[0] ?? 'x').padEnd(schema.minLength ?? 1, 'x').slice(0, schema.maxLength ?? 200);
    case 'integer':
    case 'number':
      return schema.minimum ?? (schema.exclusiveMinimum === undefined ? 1 : schema.exclusiveMinimum + 1);
    case 'boolean':
      return false;
    case 'array':
      return [];
    default:
      return Object.fromEntries(
        (schema.required ?? []).map((name) => [name, plainValue(schema.properties?.[name], known, depth + 1)]),
      );
  }
}

const isInteger = (schema: JsonSchema | undefined): boolean =>
  schema !== undefined &&
  ((Array.isArray(schema.type) ? schema.type.includes('integer') : schema.type === 'integer') ||
    [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].some(isInteger));

/**
 * Every operation once per value in BEYOND_COLUMNS, in each of its path parameters (whatever
 * their type: a path segment may be read as an id), its integer query parameters and its integer
 * body fields, the rest of the request as plain as its schema allows.
 */
function beyondColumnRequests(
  method: Method,
  template: string,
  operation: Operation,
  known: readonly string[],
  token: string,
) {
  const parameters = operation.parameters ?? [];
  const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
  const formSchema = operation.requestBody?.content?.['multipart/form-data']?.schema;
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  const build = (override: { parameter?: string; field?: string; value: number }): FuzzRequest => {
    let url = template;
    const query = new URLSearchParams();
    for (const parameter of parameters) {
      const chosen = parameter.name === override.parameter;
      if (!chosen && parameter.in === 'query' && !parameter.required) continue;
      const text = chosen ? String(override.value) : asText(plainValue(parameter.schema, known));
      if (parameter.in === 'path') url = url.replace(`{${parameter.name}}`, encodeURIComponent(text || '1'));
      else if (parameter.in === 'query') query.append(parameter.name, text);
    }
    const search = query.toString();
    const request: FuzzRequest = { method, url: search ? `${url}?${search}` : url, headers: { ...headers } };
    if (method === 'GET' || method === 'DELETE') return request;
    if (formSchema && !bodySchema) {
      const boundary = 'fuzzboundary7MA4YWxkTrZu0gW';
      request.headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
      const form = plainValue(formSchema, known);
      request.payload = multipartPayload(
        override.field && isRecord(form) ? { ...form, [override.field]: override.value } : form,
        boundary,
      );
      return request;
    }
    const body = plainValue(bodySchema, known);
    request.headers['content-type'] = 'application/json';
    request.payload = JSON.stringify(
      override.field && isRecord(body) ? { ...body, [override.field]: override.value } : (body ?? {}),
    );
    return request;
  };
  const requests: FuzzRequest[] = [];
  const integerParameters = parameters.filter((p) => p.in === 'path' || (p.in === 'query' && isInteger(p.schema)));
  const fields = [bodySchema, formSchema].flatMap((schema) =>
    Object.entries(schema?.properties ?? {})
      .filter(([, property]) => isInteger(property))
      .map(([name]) => name),
  );
  for (const value of BEYOND_COLUMNS) {
    for (const parameter of integerParameters) requests.push(build({ parameter: parameter.name, value }));
    for (const field of fields) requests.push(build({ field, value }));
  }
  return requests;
}

describe.each(dialects)('fuzzing every operation of the OpenAPI document on %s', (dialect) => {
  let t: TestApp;
  let document: OpenApiDocument;
  let token = '';
  const known: string[] = [];
  let source = 0;
  /** A different client address for every request: per-source limits stay out of the way. */
  const nextAddress = () => {
    source += 1;
    return `10.${100 + (Math.floor(source / 62_500) % 100)}.${Math.floor(source / 250) % 250}.${(source % 250) + 1}`;
  };

  beforeAll(async () => {
    t = await startTestApp(dialect);
    document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<OpenApiDocument>();

    const admin = await t.store.adminAuth.createAdmin('fuzz.admin@example.com', 'a long enough fuzzing password');
    await t.database.db.updateTable('admins').set({ is_verified: 1 }).where('id', '=', admin.id).execute();
    ({ token } = await createAdminSessions({ db: t.database.db, now: () => new Date() }).issue(admin.id, new Date()));
    // The generated admin calls must get past the guard, or they would only ever test the 401.
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(me.statusCode, me.body).toBe(200);

    // Real values for the generators to mix in, so some requests get past "not found".
    const services = (await t.app.inject({ method: 'GET', url: '/api/services' })).json<{
      data: { slug?: string; plans?: { type?: string }[] }[];
    }>();
    for (const service of services.data) {
      if (service.slug) known.push(service.slug);
      for (const plan of service.plans ?? []) if (plan.type) known.push(plan.type);
    }
    const posts = (await t.app.inject({ method: 'GET', url: '/api/blog?size=50' })).json<{
      data: { slug: string }[];
    }>();
    for (const post of posts.data) known.push(post.slug);
    known.push('fuzz.admin@example.com', 'buyer@example.com', 'instagram', '123456', '100');
  });
  afterAll(async () => {
    await t?.close();
  });

  it(
    'answers integers beyond every column with a 4xx in every path, query and body field',
    { timeout: 120_000 },
    async () => {
      const failures: string[] = [];
      let requests = 0;
      for (const [template, item] of Object.entries(document.paths)) {
        for (const [method, operation] of Object.entries(item)) {
          if (!METHODS.has(method)) continue;
          for (const request of beyondColumnRequests(
            method.toUpperCase() as Method,
            template,
            operation,
            known,
            token,
          )) {
            requests += 1;
            const response = await t.app.inject({ ...request, remoteAddress: nextAddress() });
            if (response.statusCode >= 500)
              failures.push(
                `${request.method} ${request.url} ${String(request.payload ?? '').slice(0, 120)} → ${response.statusCode} ${response.body.slice(0, 120)}`,
              );
          }
        }
      }
      expect(failures).toEqual([]);
      expect(requests).toBeGreaterThan(100);
    },
  );

  // Generous for a loaded CI machine; it takes 15-30 s per dialect on two cores.
  it(
    'answers every generated request with a declared status, content type and body, never a 5xx',
    { timeout: 180_000 },
    async () => {
      const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2_147_483_647);
      const runs = Number(process.env.FUZZ_RUNS ?? 60);
      const ajv = new Ajv({ strict: false, allErrors: true });
      const validators = new Map<JsonSchema, ValidateFunction>();
      const validatorFor = (schema: JsonSchema) => {
        let validate = validators.get(schema);
        if (!validate) validators.set(schema, (validate = ajv.compile(schema)));
        return validate;
      };

      const problems = new Map<string, string>();
      let requests = 0;
      let serverErrors = 0;
      let operations = 0;
      const statuses = new Map<number, number>();
      const started = Date.now();

      for (const [template, item] of Object.entries(document.paths)) {
        for (const [method, operation] of Object.entries(item)) {
          if (!METHODS.has(method)) continue;
          operations += 1;
          const label = `${method.toUpperCase()} ${template}`;
          const samples = fc.sample(
            requestArbitrary(method.toUpperCase() as Method, template, operation, known, token),
            {
              numRuns: runs,
              seed: seed + operations,
            },
          );
          for (const request of samples) {
            requests += 1;
            const response = await t.app.inject({ ...request, remoteAddress: nextAddress() });
            const status = response.statusCode;
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
            const sample = `${request.method} ${request.url.slice(0, 160)} ${String(request.payload ?? '').slice(0, 160)}`;
            const note = (problem: string) => {
              const key = `${label}: ${problem}`;
              if (!problems.has(key)) problems.set(key, sample);
            };
            if (status >= 500) {
              serverErrors += 1;
              note(`${status} ${response.body.slice(0, 120)}`);
              continue;
            }
            const declared = operation.responses?.[String(status)];
            if (!declared) {
              note(`answered undeclared ${status} ${response.body.slice(0, 120)}`);
              continue;
            }
            const contentType = String(response.headers['content-type'] ?? '')
              .split(';')[0]
              ?.trim();
            const media = declared.content ?? {};
            if (Object.keys(media).length === 0) {
              if (response.body !== '') note(`${status} has a body but declares none`);
              continue;
            }
            const schema = contentType ? media[contentType]?.schema : undefined;
            if (!contentType || !(contentType in media)) {
              note(`${status} sent content type "${contentType ?? ''}", declared: ${Object.keys(media).join(', ')}`);
              continue;
            }
            if (!schema) continue;
            let body: unknown = response.body;
            if (contentType === 'application/json') {
              try {
                body = JSON.parse(response.body);
              } catch {
                note(`${status} body is not JSON`);
                continue;
              }
            }
            const validate = validatorFor(schema);
            if (!validate(body))
              note(
                `${status} body does not match its schema: ${(validate.errors ?? [])
                  .slice(0, 3)
                  .map((error) => `${error.instancePath || '(body)'} ${error.message ?? ''}`)
                  .join('; ')}`,
              );
          }
        }
      }

      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const byStatus = [...statuses.entries()]
        .sort(([a], [b]) => a - b)
        .map(([status, count]) => `${status}×${count}`)
        .join(' ');
      console.info(
        `fuzz (${dialect}, seed ${seed}): ${operations} operations, ${requests} requests in ${seconds} s, ` +
          `${serverErrors} 5xx, ${problems.size} distinct problems; statuses ${byStatus}`,
      );
      const report = [...problems.entries()].map(([problem, sample]) => `${problem}\n    e.g. ${sample}`);
      expect(report, `replay with FUZZ_SEED=${seed}`).toEqual([]);
      expect(operations).toBeGreaterThanOrEqual(20);
    },
  );
});
