/**
 * An in-process cache for public pages, driven by the route's named cache strategy
 * (app/cache.ts): a response marked `public, max-age=N, stale-while-revalidate=M` is kept and
 * served for N seconds (capped by PAGE_CACHE_SECONDS), then served stale for up to M seconds
 * while a single background render refreshes it. Concurrent misses for one page share one
 * render. Compressed variants are made once per entry, not once per response.
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export interface CachedPage {
  status: number;
  headers: [string, string][];
  body: Buffer;
  /** The CSP nonce baked into the HTML; the CSP header must repeat it. */
  nonce: string;
  freshUntil: number;
  staleUntil: number;
  encoded: { br?: Buffer; gzip?: Buffer };
}

export interface RenderedPage {
  status: number;
  headers: [string, string][];
  body: Buffer;
  nonce: string;
  cacheControl: string | null;
}

export interface PageCacheOptions {
  maxSeconds: number;
  maxEntries?: number;
  now?: () => number;
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

  constructor(options: PageCacheOptions) {
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
    if (entry && now < entry.freshUntil) return entry;
    if (entry && now < entry.staleUntil) {
      if (!this.inflight.has(key)) void this.refresh(key, render).catch(() => undefined);
      return entry;
    }
    return this.refresh(key, render);
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

export function pickEncoding(acceptEncoding: string | undefined): Encoding {
  if (!acceptEncoding) return 'identity';
  if (/\bbr\b/.test(acceptEncoding)) return 'br';
  if (/\bgzip\b/.test(acceptEncoding)) return 'gzip';
  return 'identity';
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
