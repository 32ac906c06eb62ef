/**
 * Does the order target exist? Format first (./parse.ts), then, where the platform offers a
 * keyless way to ask, its oEmbed endpoint (design/integrations.md, "Target verification").
 *
 * Three outcomes, because "could not check" is not "does not exist":
 * - verified: well-formed and, where we can ask, the platform knows it;
 * - invalid: malformed, or the platform says it does not exist (the buyer must fix it);
 * - unavailable: the platform could not be asked (outage, rate limit, timeout, odd reply).
 *   Checkout goes on and the order is flagged for a person to look at.
 *
 * No SSRF: the only URLs ever fetched are the configured oEmbed endpoints, and their hosts form
 * the allow-list checked before every request. The buyer's URL is never fetched; it is only
 * passed (in canonical form, rebuilt from the parsed parts) as the `url` parameter. Our own
 * requests never follow redirects and give up after `timeoutMs`.
 */
import type { TargetKind } from '../catalogue/types.ts';
import { messagesFor } from './messages.ts';
import { isBlankTarget, parseTarget, parseTikTokUsername, tiktokVideoCanonicalUrl } from './parse.ts';
import { readCappedText } from '../outside-reply.ts';

export type VerifyOutcome =
  | { outcome: 'verified'; canonical: string }
  | { outcome: 'invalid'; message: string }
  | { outcome: 'unavailable'; canonical: string; message: string };

export interface TargetVerifier {
  verify(kind: TargetKind, input: string): Promise<VerifyOutcome>;
}

/** Why an oEmbed check could not give an answer; for logs and metrics. */
interface UpstreamProblem {
  platform: 'youtube' | 'tiktok';
  reason: 'status' | 'bad-body' | 'timeout' | 'network';
  status?: number;
  detail?: string;
}

interface TargetVerifierOptions {
  /** The fetch to use (globalThis.fetch in production; injectable for tests). */
  fetch: typeof globalThis.fetch;
  /** Per-request budget, including reading the body. Default 4000 ms. */
  timeoutMs?: number;
  /**
   * Where the oEmbed endpoints live; `/oembed` is appended. Defaults: https://www.youtube.com
   * and https://www.tiktok.com. Tests point these at a local fake.
   */
  oembedBase?: { youtube: string; tiktok: string };
  /** Called whenever an oEmbed check ends as "unavailable". */
  onUpstreamProblem?: (problem: UpstreamProblem) => void;
}

const DEFAULT_OEMBED_BASE = { youtube: 'https://www.youtube.com', tiktok: 'https://www.tiktok.com' } as const;
const DEFAULT_VERIFY_TIMEOUT_MS = 4000;
/** oEmbed answers are a few hundred bytes; anything much bigger is not what we asked for. */
const MAX_BODY_BYTES = 64 * 1024;

type OembedPlatform = 'youtube' | 'tiktok';
type OembedAnswer =
  | { kind: 'found'; body: Record<string, unknown> }
  /** The platform says it exists but gives no details (YouTube: embedding disabled). */
  | { kind: 'exists' }
  | { kind: 'missing' }
  | { kind: 'unknown'; problem: UpstreamProblem };

function endpointOf(base: string, name: string): URL {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new Error(`oembedBase.${name} is not a URL: ${base}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`oembedBase.${name} must be http(s)`);
  if (url.username || url.password || url.search || url.hash) {
    throw new Error(`oembedBase.${name} must not carry credentials, a query or a fragment`);
  }
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/oembed`;
  return url;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => {});
}

export function createTargetVerifier(options: TargetVerifierOptions): TargetVerifier {
  const fetchImpl = options.fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_VERIFY_TIMEOUT_MS;
  const base = options.oembedBase ?? DEFAULT_OEMBED_BASE;
  const endpoints: Record<OembedPlatform, URL> = {
    youtube: endpointOf(base.youtube, 'youtube'),
    tiktok: endpointOf(base.tiktok, 'tiktok'),
  };
  const allowedHosts: ReadonlySet<string> = new Set(Object.values(endpoints).map((url) => url.host));

  async function askOembed(platform: OembedPlatform, targetUrl: string): Promise<OembedAnswer> {
    const request = new URL(endpoints[platform]);
    request.searchParams.set('url', targetUrl);
    if (platform === 'youtube') request.searchParams.set('format', 'json');
    // Belt and braces: whatever changes above, never call a host outside the allow-list.
    if (!allowedHosts.has(request.host)) throw new Error(`refusing to fetch ${request.host}: not an oEmbed host`);

    const unknown = (problem: Omit<UpstreamProblem, 'platform'>): OembedAnswer => ({
      kind: 'unknown',
      problem: { platform, ...problem },
    });
    try {
      const response = await fetchImpl(request, {
        method: 'GET',
        redirect: 'error',
        signal: AbortSignal.timeout(timeoutMs),
        headers: { accept: 'application/json' },
      });
      const { status } = response;
      if (status === 200) {
        const text = await readCappedText(response, MAX_BODY_BYTES);
        if (text === null) return unknown({ reason: 'bad-body', status, detail: 'body too large' });
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          return unknown({ reason: 'bad-body', status, detail: 'not JSON' });
        }
        if (!isRecord(body)) return unknown({ reason: 'bad-body', status, detail: 'not a JSON object' });
        return { kind: 'found', body };
      }
      await discard(response);
      if (status === 400 || status === 404) return { kind: 'missing' };
      if (platform === 'youtube' && (status === 401 || status === 403)) {
        // YouTube answers 401/403 for a video whose owner disabled embedding: it exists.
        return { kind: 'exists' };
      }
      return unknown({ reason: 'status', status });
    } catch (error) {
      const name = error instanceof Error ? error.name : '';
      if (name === 'TimeoutError' || name === 'AbortError')
        return unknown({ reason: 'timeout', detail: `${timeoutMs} ms` });
      return unknown({ reason: 'network', detail: error instanceof Error ? error.message : String(error) });
    }
  }

  async function verifyByOembed(
    kind: TargetKind,
    platform: OembedPlatform,
    canonical: string,
    accept: (body: Record<string, unknown>) => boolean,
    canonicalFromBody: (body: Record<string, unknown>) => string = () => canonical,
  ): Promise<VerifyOutcome> {
    const messages = messagesFor(kind);
    const answer = await askOembed(platform, canonical);
    if (answer.kind === 'missing') return { outcome: 'invalid', message: messages.invalid };
    if (answer.kind === 'exists') return { outcome: 'verified', canonical };
    if (answer.kind === 'found') {
      if (accept(answer.body)) return { outcome: 'verified', canonical: canonicalFromBody(answer.body) };
      options.onUpstreamProblem?.({ platform, reason: 'bad-body', status: 200, detail: 'unexpected JSON' });
      return { outcome: 'unavailable', canonical, message: messages.error };
    }
    options.onUpstreamProblem?.(answer.problem);
    return { outcome: 'unavailable', canonical, message: messages.error };
  }

  return {
    async verify(kind, input) {
      const messages = messagesFor(kind);
      if (isBlankTarget(input)) return { outcome: 'invalid', message: messages.required };
      const parsed = parseTarget(kind, input);
      if (!parsed) return { outcome: 'invalid', message: messages.invalid };

      switch (parsed.kind) {
        case 'youtube_video_url':
          // Parse the JSON, never trust the status alone: a 200 must carry the video's title.
          return verifyByOembed(kind, 'youtube', parsed.canonicalUrl, (body) => typeof body.title === 'string');

        case 'tiktok_post_url':
          return verifyByOembed(
            kind,
            'tiktok',
            parsed.canonicalUrl,
            (body) => typeof body.title === 'string' || typeof body.author_name === 'string',
            (body) => {
              // For a share link, TikTok's answer names the video; keep the full URL when it does.
              if (parsed.resolved) return parsed.canonicalUrl;
              const author =
                typeof body.author_unique_id === 'string' ? parseTikTokUsername(body.author_unique_id) : null;
              const videoId = typeof body.embed_product_id === 'string' ? body.embed_product_id : '';
              return author && /^\d{1,25}$/.test(videoId)
                ? tiktokVideoCanonicalUrl(author.username, videoId)
                : parsed.canonicalUrl;
            },
          );

        case 'tiktok_username':
          // TikTok has no keyless way to ask whether a profile exists (its oEmbed covers videos
          // only, and profile pages are bot-protected), so a well-formed username is accepted.
          return { outcome: 'verified', canonical: parsed.canonicalUrl };

        case 'instagram_username':
        case 'instagram_post_url':
          // Instagram's oEmbed needs a Meta app access token, and profile pages are behind a
          // login wall, so we check the format only. A token-based check can be added here.
          return { outcome: 'verified', canonical: parsed.canonicalUrl };
      }
    },
  };
}
