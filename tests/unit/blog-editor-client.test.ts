/**
 * The API client sends `FormData` bodies as multipart (the admin blog form and the editor's image
 * upload), with the browser's own boundary, and keeps sending everything else as JSON. A real
 * HTTP server on 127.0.0.1 receives the requests and parses what arrived.
 */
import { type IncomingHttpHeaders, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../app/api/client.ts';

interface Received {
  method: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

describe('the API client with multipart bodies', () => {
  let server: Server;
  let baseUrl: string;
  const received: Received[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ method: request.method ?? '', headers: request.headers, body: Buffer.concat(chunks) });
        response.writeHead(201, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ isSuccessful: true, message: 'Blog added successfully', data: { id: 7 } }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  /** Parses a received multipart body the way a server would. */
  async function formOf(request: Received): Promise<FormData> {
    const contentType = request.headers['content-type'] ?? '';
    return new Request('http://parse.invalid/', {
      method: 'POST',
      headers: { 'content-type': contentType },
      body: new Uint8Array(request.body),
    }).formData();
  }

  it('posts FormData as multipart/form-data with its boundary, fields and file intact, with the bearer token', async () => {
    const client = createApiClient({
      baseUrl,
      bearer: { token: () => 'secret-token', missingTokenMessage: 'No token', unauthorizedMessage: 'Expired' },
    });
    const form = new FormData();
    form.set('title', 'Grow <b>safely</b>');
    form.set('category', 'Instagram Updates');
    form.set('image', new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: 'image/png' }), 'cover.png');

    const data = await client.post<{ id: number }, FormData>('/api/blog', form);

    expect(data).toEqual({ id: 7 });
    const request = received.at(-1);
    expect(request?.method).toBe('POST');
    expect(request?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=\S+$/);
    expect(request?.headers.authorization).toBe('Bearer secret-token');
    const parsed = await formOf(request as Received);
    expect(parsed.get('title')).toBe('Grow <b>safely</b>');
    expect(parsed.get('category')).toBe('Instagram Updates');
    const image = parsed.get('image');
    expect(image).toBeInstanceOf(File);
    expect((image as File).name).toBe('cover.png');
    expect([...new Uint8Array(await (image as File).arrayBuffer())]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  });

  it('sends FormData with PATCH too (send keeps the whole reply)', async () => {
    const form = new FormData();
    form.set('removeImage', 'true');
    const reply = await createApiClient({ baseUrl }).send<{ message: string }, FormData>('PATCH', '/api/blog/x', {
      body: form,
    });
    expect(reply.message).toBe('Blog added successfully');
    const request = received.at(-1);
    expect(request?.method).toBe('PATCH');
    expect(request?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect((await formOf(request as Received)).get('removeImage')).toBe('true');
  });

  it('still sends plain objects as JSON', async () => {
    await createApiClient({ baseUrl }).post('/api/blog', { title: 'JSON' });
    const request = received.at(-1);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request?.body.toString('utf8') ?? '')).toEqual({ title: 'JSON' });
  });
});
