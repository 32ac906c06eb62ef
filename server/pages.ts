/**
 * Hands every request that is not an API route or a static file to React Router, in its own
 * plugin scope whose body parsers are removed so form posts reach React Router untouched.
 * Public pages go through the page cache; everything else streams straight through. No /api
 * request reaches it: the API's fallback (server/api/fallback.ts) answers those no route takes.
 */
import type { OutgoingHttpHeader } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ServerBuild, createRequestHandler } from 'react-router';
import type { RequestContext, StoreServices } from '../app/context.ts';
import {
  type CachedPage,
  type PageCache,
  type RenderedPage,
  encodedBody,
  isCachedPage,
  pickEncoding,
} from './page-cache.ts';
import { type PageCspOptions, newNonce, setCachedPageCsp, setPageCsp } from './security.ts';
import { withoutTrackingParams } from './tracking-params.ts';

/** What our entry.server module exports besides the renderer. */
interface StoreServerBuild extends ServerBuild {
  entry: ServerBuild['entry'] & {
    module: ServerBuild['entry']['module'] & {
      buildLoadContext: (value: RequestContext) => unknown;
    };
  };
}

interface PagesOptions {
  build: ServerBuild | (() => Promise<ServerBuild>);
  mode: 'production' | 'development';
  services: StoreServices;
  pageCache: PageCache;
  /** Part of the cache key: pages change when the catalogue does. */
  contentVersion: () => number;
  /** Whether order pages open Razorpay's checkout (their CSP must allow it). */
  razorpayCheckout: boolean;
}

export async function pagesPlugin(app: FastifyInstance, options: PagesOptions): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, parsed) => parsed(null));

  const loadBuild = async () =>
    (typeof options.build === 'function' ? await options.build() : options.build) as StoreServerBuild;
  const handler = createRequestHandler(options.build, options.mode);

  // The first time Fastify serves a cache entry, its headers as sent (after every hook, the
  // root's included) are kept with it for the fast path (server/page-fast-path.ts) to replay.
  const recording = new WeakMap<FastifyRequest, CachedPage>();
  app.addHook('onSend', async (request, reply, payload) => {
    const entry = recording.get(request);
    if (entry && !entry.wireHeaders && reply.statusCode === entry.status) {
      entry.wireHeaders = replayableHeaders(reply.getHeaders());
    }
    return payload;
  });

  const render = async (
    request: FastifyRequest,
    reply: FastifyReply,
    url: string,
    nonce: string,
  ): Promise<Response> => {
    const build = await loadBuild();
    const loadContext = build.entry.module.buildLoadContext({ services: options.services, nonce });
    return handler(toFetchRequest(request, reply, url), loadContext as never);
  };

  app.all('/*', { schema: { hide: true } }, async (request, reply) => {
    const csp = { razorpayCheckout: options.razorpayCheckout && request.url.startsWith('/order/') };
    const read = request.method === 'GET' || request.method === 'HEAD';
    // A page reads the same with or without an ad's tracking parameters: rendered (canonical link
    // included) and cached without them (server/tracking-params.ts).
    const url = read ? withoutTrackingParams(request.url) : request.url;
    if (!(read && options.pageCache.enabled)) {
      const nonce = newNonce();
      const response = await render(request, reply, url, nonce);
      setPageCsp(reply, nonce, csp);
      return sendStreamed(reply, response);
    }

    const key = `${options.contentVersion()}:${url}`;
    const page = await options.pageCache.get(key, async () => {
      const nonce = newNonce();
      return bufferResponse(await render(request, reply, url, nonce), nonce);
    });
    if (isCachedPage(page) && !page.wireHeaders) recording.set(request, page);
    return sendPage(request, reply, page, csp);
  });
}

/** Headers that belong to one response, not to the page: the fast path makes its own. */
const PER_RESPONSE_HEADERS = new Set([
  'content-length',
  'content-encoding',
  'x-request-id',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'set-cookie',
]);

function replayableHeaders(headers: Record<string, OutgoingHttpHeader | undefined>): [string, OutgoingHttpHeader][] {
  const kept: [string, OutgoingHttpHeader][] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !PER_RESPONSE_HEADERS.has(name.toLowerCase())) kept.push([name, value]);
  }
  return kept;
}

/**
 * The request for React Router, at `url` (the request's own path and query, maybe trimmed). Its
 * signal aborts when the client goes away before the whole answer was written, so a loader can
 * stop early. Not after a complete answer: the request's own stream closes then too, and an abort
 * nobody listens to costs an exception object and its stack trace on every page.
 */
export function toFetchRequest(request: FastifyRequest, reply: FastifyReply, url: string): Request {
  const origin = `${request.protocol}://${request.host}`;
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  return new Request(new URL(url, origin), {
    method: request.method,
    headers,
    signal: controller.signal,
    ...(hasBody ? { body: Readable.toWeb(request.raw) as ReadableStream, duplex: 'half' } : {}),
  });
}

function copyHeaders(reply: FastifyReply, headers: Iterable<[string, string]>): void {
  for (const [name, value] of headers) {
    if (name === 'set-cookie') continue;
    reply.header(name, value);
  }
}

async function sendStreamed(reply: FastifyReply, response: Response) {
  reply.status(response.status);
  copyHeaders(reply, response.headers);
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) reply.header('set-cookie', cookies);
  if (!response.body) return reply.send();
  // A document comes whole (app/entry.server.tsx): read as one buffer, it is compressed in one call.
  if (response.headers.get('content-type')?.startsWith('text/html')) {
    return reply.send(Buffer.from(await response.arrayBuffer()));
  }
  // `body` is typed as the DOM's ReadableStream; at run time it is Node's web stream, which fromWeb takes.
  return reply.send(Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>));
}

async function bufferResponse(response: Response, nonce: string): Promise<RenderedPage> {
  return {
    status: response.status,
    headers: [...response.headers].filter(([name]) => name !== 'set-cookie'),
    body: Buffer.from(await response.arrayBuffer()),
    nonce,
    cacheControl: response.headers.get('cache-control'),
  };
}

function sendPage(request: FastifyRequest, reply: FastifyReply, page: CachedPage | RenderedPage, csp: PageCspOptions) {
  reply.status(page.status);
  copyHeaders(reply, page.headers);
  if (!isCachedPage(page)) {
    setPageCsp(reply, page.nonce, csp);
    return reply.send(page.body);
  }
  // The same bytes for everyone: its inline scripts are allowed by hash (decision 035).
  setCachedPageCsp(reply, page.scriptHashes, csp);
  const encoding = pickEncoding(request.headers['accept-encoding']);
  reply.header('vary', 'Accept-Encoding');
  if (encoding !== 'identity') reply.header('content-encoding', encoding);
  return reply.send(encodedBody(page, encoding));
}
