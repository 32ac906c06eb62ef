/**
 * An in-process cache for public pages, driven by the route's named cache strategy
 * (app/cache.ts): a response marked `public, max-age=N, stale-while-revalidate=M` is kept and
 * served for N seconds (capped by PAGE_CACHE_SECONDS), then served stale for up to M seconds
 * while a single background render refreshes it. Concurrent misses for one page share one
 * render. Compressed variants are made once per entry, not once per response.
 *
 * A cached page is the same bytes for everyone, so its CSP cannot carry a per-response nonce:
 * it allows exactly the inline scripts the page holds, by their SHA-256 hashes (decision 035).
 * Fresh entries are also served by the fast path (server/page-fast-path.ts) before Fastify.
 */
import { createHash } from 'node:crypto';
import type { OutgoingHttpHeader } from 'node:http';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export interface CachedPage {
  status: number;
  headers: [string, string][];
  body: Buffer;
  /** The CSP nonce the HTML was rendered with; cached responses allow its scripts by hash instead. */
  nonce: string;
  /** `'sha256-…'` sources for every inline script in the HTML: the CSP of every response that serves it. */
  scriptHashes: string[];
  freshUntil: number;
  staleUntil: number;
  encoded: { br?: Buffer; gzip?: Buffer };
  /**
   * Every header Fastify sent with this entry (helmet's, the CSP, cache-control, vary, …) except
   * the per-response ones (request id, length, encoding): recorded the first time Fastify serves
   * it, then replayed by the fast path, so both paths send the same headers.
   */
  wireHeaders?: [string, OutgoingHttpHeader][];
  /**
   * The fast path's reply headers per encoding (wireHeaders with the encoding and length) as the
   * flat name, value, name, value… list `writeHead` takes, built on the first hit in that
   * encoding. A hit copies this array: copying an object of twenty headers cost several times
   * more, and a plain array is what Node walks anyway.
   */
  replayHeaders?: Partial<Record<Encoding, string[]>>;
}

export interface RenderedPage {
  status: number;
  headers: [string, string][];
  body: Buffer;
  nonce: string;
  cacheControl: string | null;
}

interface PageCacheOptions {
  maxSeconds: number;
  maxEntries?: number;
  now?: () => number;
  /** Hears each look-up's result (the metrics' hit, stale and miss counts). */
  onLookup?: (result: 'hit' | 'stale' | 'miss') => void;
}

export function parseCacheControl(value: string | null): { maxAge: number; swr: number } | null {
  if (!value || !/\bpublic\b/.test(value) || /\b(no-store|private)\b/.test(value)) return null;
  const maxAge = /\bmax-age=(\d+)/.exec(value);
  if (!maxAge) return null;
  const swr = /\bstale-while-revalidate=(\d+)/.exec(value);
  return { maxAge: Number(maxAge[1]), swr: swr ? Number(swr[1]) : 0 };
}

export class PageCache {
  private readonly entries = new Map<string, CachedPage>();
  private readonly inflight = new Map<string, Promise<CachedPage | RenderedPage>>();
  private readonly maxSeconds: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  private readonly onLookup: (result: 'hit' | 'stale' | 'miss') => void;

  constructor(options: PageCacheOptions) {
    this.onLookup = options.onLookup ?? (() => {});
    this.maxSeconds = options.maxSeconds;
    this.maxEntries = options.maxEntries ?? 500;
    this.now = options.now ?? Date.now;
  }

  get enabled(): boolean {
    return this.maxSeconds > 0;
  }

  /**
   * Returns a cached page when one is usable, rendering (once, however many callers wait)
   * when not. A stale entry is returned at once and refreshed in the background.
   */
  async get(key: string, render: () => Promise<RenderedPage>): Promise<CachedPage | RenderedPage> {
    const entry = this.entries.get(key);
    const now = this.now();
    if (entry && now < entry.freshUntil) {
      this.onLookup('hit');
      return entry;
    }
    if (entry && now < entry.staleUntil) {
      this.onLookup('stale');
      if (!this.inflight.has(key)) void this.refresh(key, render).catch(() => undefined);
      return entry;
    }
    this.onLookup('miss');
    return this.refresh(key, render);
  }

  /** The entry for `key` while it is fresh; never renders, never refreshes (the fast path's look-up). */
  peekFresh(key: string): CachedPage | undefined {
    const entry = this.entries.get(key);
    if (!entry || this.now() >= entry.freshUntil) return undefined;
    // Only a hit counts here: a miss falls through to `get`, which counts it.
    this.onLookup('hit');
    return entry;
  }

  clear(): void {
    this.entries.clear();
  }

  private refresh(key: string, render: () => Promise<RenderedPage>): Promise<CachedPage | RenderedPage> {
    const running = this.inflight.get(key);
    if (running) return running;
    const job = render()
      .then((page) => this.store(key, page))
      .finally(() => this.inflight.delete(key));
    this.inflight.set(key, job);
    return job;
  }

  private store(key: string, page: RenderedPage): CachedPage | RenderedPage {
    const policy = parseCacheControl(page.cacheControl);
    if (page.status !== 200 || !policy || policy.maxAge === 0) {
      this.entries.delete(key);
      return page;
    }
    const now = this.now();
    const fresh = Math.min(policy.maxAge, this.maxSeconds) * 1000;
    const entry: CachedPage = {
      status: page.status,
      headers: page.headers,
      body: page.body,
      nonce: page.nonce,
      scriptHashes: inlineScriptHashes(page.body.toString('utf8')),
      freshUntil: now + fresh,
      staleUntil: now + fresh + policy.swr * 1000,
      encoded: {},
    };
    this.entries.delete(key); // re-insert to keep Map order as recency
    this.entries.set(key, entry);
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    return entry;
  }
}

export type Encoding = 'br' | 'gzip' | 'identity';

// Browsers send the same few Accept-Encoding values over and over: the last answer is kept.
let lastAcceptEncoding = '';
let lastEncoding: Encoding = 'identity';

export function pickEncoding(acceptEncoding: string | undefined): Encoding {
  if (!acceptEncoding) return 'identity';
  if (acceptEncoding === lastAcceptEncoding) return lastEncoding;
  const encoding = /\bbr\b/.test(acceptEncoding) ? 'br' : /\bgzip\b/.test(acceptEncoding) ? 'gzip' : 'identity';
  lastAcceptEncoding = acceptEncoding;
  lastEncoding = encoding;
  return encoding;
}

export function encodedBody(entry: CachedPage, encoding: Encoding): Buffer {
  if (encoding === 'identity') return entry.body;
  if (encoding === 'br') {
    entry.encoded.br ??= brotliCompressSync(entry.body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: entry.body.length },
    });
    return entry.encoded.br;
  }
  entry.encoded.gzip ??= gzipSync(entry.body, { level: 9 });
  return entry.encoded.gzip;
}

export function isCachedPage(page: CachedPage | RenderedPage): page is CachedPage {
  return 'freshUntil' in page;
}

/**
 * CSP hash sources for the inline scripts of an HTML page: the SHA-256 of each script's text as
 * the browser reads it (line breaks normalised to LF, as HTML parsing does). Scripts with a `src`
 * and JSON-LD data blocks are not inline code and are left out. Script text cannot contain
 * `</script`, so the first closing tag ends it.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const attributes = match[1] ?? '';
    if (/\ssrc\s*=/i.test(attributes) || /\stype\s*=\s*["']?application\/ld\+json/i.test(attributes)) continue;
    const text = (match[2] ?? '').replace(/\r\n?/g, '\n');
    hashes.add(`'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`);
  }
  return [...hashes];
}
