/**
 * Cached public pages served straight from Node's `request` event, before Fastify builds its
 * request and reply and runs its hooks (decision 035): a cache hit costs a map look-up and one
 * write. Only what Fastify itself served before takes this path: a fresh page-cache entry whose
 * headers Fastify recorded (`wireHeaders`, see server/pages.ts), replayed here unchanged, so a hit
 * carries the same security headers, CSP (hash-based, the same for every response of the entry),
 * cache-control and Vary as a miss. Everything else (another method, /api, /admin, a stale or
 * unknown page) goes to Fastify as before.
 */
import type { IncomingMessage, OutgoingHttpHeader, ServerResponse } from 'node:http';
import type { CachedPageLog } from './cached-page-log.ts';
import { type Encoding, type PageCache, encodedBody, pickEncoding } from './page-cache.ts';
import { withoutTrackingParams } from './tracking-params.ts';

interface PageFastPathOptions {
  pageCache: PageCache;
  /** The same key part the pages plugin uses (server/app.ts): a content change misses at once. */
  contentVersion: () => number;
  /** A new request id, for a request that brings none (the same sequence Fastify's requests use). */
  requestIds: () => string;
  /** The access log of these requests: summed up at `info`, a line each at `debug`. */
  log: CachedPageLog;
  /** The request-duration metric, as Fastify's onResponse hook records it for the other requests. */
  observe: (method: string, status: number, seconds: number) => void;
}

export interface PageFastPath {
  /** Answers the request and returns true when it is a fresh cached page; false leaves it alone. */
  serve(request: IncomingMessage, response: ServerResponse): boolean;
  /** From now on leave every request to Fastify (which answers 503 while it closes); the log's summary is written. */
  stop(): void;
}

/** Paths that are never public pages, whatever the cache holds. */
const NEVER_FAST = /^\/(?:api|admin)(?:[/?]|$)/;

export function createPageFastPath(options: PageFastPathOptions): PageFastPath {
  let stopped = false;
  return {
    stop() {
      stopped = true;
      options.log.flush();
    },
    serve(request, response) {
      if (stopped) return false;
      const started = performance.now();
      const { method, url } = request;
      if ((method !== 'GET' && method !== 'HEAD') || url === undefined || NEVER_FAST.test(url)) return false;
      const entry = options.pageCache.peekFresh(`${options.contentVersion()}:${withoutTrackingParams(url)}`);
      if (!entry?.wireHeaders) return false;

      const encoding = pickEncoding(request.headers['accept-encoding']);
      const body = encodedBody(entry, encoding);
      // Fastify's requestIdHeader: the caller's id when it sends one, a new one otherwise.
      const requestId = request.headers['x-request-id'] ?? options.requestIds();
      const replay = (entry.replayHeaders ??= {});
      const base = (replay[encoding] ??= replayHeaderList(entry.wireHeaders, encoding, body.length));
      const headers = base.slice();
      headers.push('x-request-id', String(requestId));
      response.writeHead(entry.status, headers);
      if (method === 'HEAD') response.end();
      else response.end(body);

      // The bytes are with the socket now (a cached page is in memory): its time is taken here,
      // without a listener per response for 'finish'.
      const ms = performance.now() - started;
      options.observe(method, entry.status, ms / 1000);
      options.log.record(method, url, entry.status, ms, String(requestId));
      return true;
    },
  };
}

/** The recorded headers with this encoding's Content-Encoding and Content-Length, flat. */
function replayHeaderList(wireHeaders: [string, OutgoingHttpHeader][], encoding: Encoding, length: number): string[] {
  const list: string[] = [];
  for (const [name, value] of wireHeaders) {
    // A header recorded with several values (none of the pages' today) keeps each as its own line.
    if (Array.isArray(value)) for (const one of value) list.push(name, one);
    else list.push(name, String(value));
  }
  if (encoding !== 'identity') list.push('content-encoding', encoding);
  list.push('content-length', String(length));
  return list;
}
