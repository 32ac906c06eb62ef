/**
 * What the published document allows for a blog post is what the API takes: a description of the
 * documented maxLength, written in characters of the longest UTF-8 form, goes in as JSON and as a
 * multipart form (never refused by a body or field size limit), and one past it is refused with
 * the spec's message, not a 413. On both dialects.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { adminToken } from '../support/admin-session.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';

interface Schema {
  properties?: Record<string, { maxLength?: number }>;
}
interface Document {
  paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: Schema }> } }>>;
}

/** Three bytes in UTF-8 for one UTF-16 unit: the most a character the text rule accepts takes. */
const WIDE = '€';

function multipart(fields: Record<string, string>): { payload: Buffer; headers: Record<string, string> } {
  const boundary = '----boostlyBodyLimit7MA4YWxk';
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return {
    payload: Buffer.from(`${parts.join('')}--${boundary}--\r\n`),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

describe.each(dialects)('blog description at its documented length on %s', (dialect) => {
  let t: TestApp;
  let token = '';
  let dataDir = '';
  let maxLength = 0;
  let address = 0;
  const nextAddress = () => `10.43.0.${(address++ % 250) + 1}`;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'boostly-blog-limit-'));
    t = await startTestApp(dialect, { env: { DATA_DIR: dataDir } });
    const credentials = { email: 'blog.limit@example.com', password: 'a long enough blog password' };
    await t.store.adminAuth.createAdmin(credentials.email, credentials.password);
    token = await adminToken(t, credentials, '10.43.1.1');
    const document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<Document>();
    const content = document.paths['/api/blog']?.['post']?.requestBody?.content ?? {};
    const lengths = ['application/json', 'multipart/form-data'].map(
      (type) => content[type]?.schema?.properties?.['description']?.maxLength ?? 0,
    );
    expect(lengths[0]).toBeGreaterThan(0);
    expect(lengths[1]).toBe(lengths[0]);
    maxLength = lengths[0] ?? 0;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const post = (payload: Buffer | string, headers: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/blog',
      payload,
      headers: { ...headers, authorization: `Bearer ${token}` },
      remoteAddress: nextAddress(),
    });

  it('adds a post whose description is as long as documented, as JSON', async () => {
    const body = JSON.stringify({ title: 'Longest JSON post', description: WIDE.repeat(maxLength) });
    const response = await post(body, { 'content-type': 'application/json' });
    expect(response.statusCode, response.body.slice(0, 300)).toBe(201);
  }, 60_000);

  it('adds a post whose description is as long as documented, as a multipart form', async () => {
    const form = multipart({ title: 'Longest form post', description: WIDE.repeat(maxLength) });
    const response = await post(form.payload, form.headers);
    expect(response.statusCode, response.body.slice(0, 300)).toBe(201);
  }, 60_000);

  it('refuses one character more with the description message, not as too large a body', async () => {
    const body = JSON.stringify({ title: 'Too long', description: WIDE.repeat(maxLength + 1) });
    const response = await post(body, { 'content-type': 'application/json' });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ message: string }>().message).toMatch(/Description is too long/);
  }, 60_000);
});
