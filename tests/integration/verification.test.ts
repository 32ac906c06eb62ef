import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { UNCHECKED_MESSAGE } from '../../core/verification/messages.ts';
import { type TargetVerifier, createTargetVerifier } from '../../core/verification/verifier.ts';
import { apiErrorHandler, rateLimitExceeded } from '../../server/api/errors.ts';
import { verificationApi } from '../../server/api/verification.ts';
import {
  EMBED_DISABLED_YOUTUBE_ID,
  type FakeOembed,
  KNOWN_TIKTOK_SHARE_CODE,
  KNOWN_TIKTOK_USER,
  KNOWN_TIKTOK_VIDEO_ID,
  KNOWN_YOUTUBE_ID,
  UNKNOWN_YOUTUBE_ID,
  startFakeOembed,
} from '../fakes/oembed.ts';

const TIMEOUT_MS = 300;
const YT_PATH = '/api/services/verify-youtube-url';
const IG_PATH = '/api/services/verify-insta-url';
const TT_PATH = '/api/services/verify-tiktok-url';
const TT_VIDEO = `https://www.tiktok.com/@${KNOWN_TIKTOK_USER}/video/${KNOWN_TIKTOK_VIDEO_ID}`;

async function buildTestApp(
  verifier: TargetVerifier,
  options: { rateLimited?: boolean } = {},
): Promise<FastifyInstance> {
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // As server/app.ts sets them up: the app's error handler, and rate limits by route config.
  app.setErrorHandler(apiErrorHandler);
  if (options.rateLimited) {
    await app.register(rateLimit, { global: false, errorResponseBuilder: rateLimitExceeded });
  }
  await app.register(verificationApi, { prefix: '/api', verifier });
  await app.ready();
  return app;
}

describe('target verification API', () => {
  let fake: FakeOembed;
  let app: FastifyInstance;

  beforeAll(async () => {
    fake = await startFakeOembed();
    const verifier = createTargetVerifier({
      fetch: globalThis.fetch,
      timeoutMs: TIMEOUT_MS,
      oembedBase: { youtube: fake.youtubeBase, tiktok: fake.tiktokBase },
    });
    app = await buildTestApp(verifier);
  });
  afterAll(async () => {
    await app?.close();
    await fake?.close();
  });
  beforeEach(() => {
    fake.setMode('normal');
    fake.requests.length = 0;
  });

  const post = (url: string, payload: unknown) => app.inject({ method: 'POST', url, payload: payload as object });

  describe('YouTube', () => {
    it('verifies an existing video through oEmbed and returns the canonical URL', async () => {
      const response = await post(YT_PATH, { youtubeUrl: ` https://youtu.be/${KNOWN_YOUTUBE_ID}?t=10 ` });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        isSuccessful: true,
        message: 'Verified',
        data: { status: 'verified', canonical: `https://www.youtube.com/watch?v=${KNOWN_YOUTUBE_ID}` },
      });
      const canonical = encodeURIComponent(`https://www.youtube.com/watch?v=${KNOWN_YOUTUBE_ID}`);
      expect(fake.requests).toEqual([`/youtube/oembed?url=${canonical}&format=json`]);
    });

    it('verifies a video whose embedding is disabled (401: it exists)', async () => {
      const response = await post(YT_PATH, {
        youtubeUrl: `https://www.youtube.com/shorts/${EMBED_DISABLED_YOUTUBE_ID}`,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toEqual({
        status: 'verified',
        canonical: `https://www.youtube.com/watch?v=${EMBED_DISABLED_YOUTUBE_ID}`,
      });
    });

    it('rejects a video YouTube does not know with the spec message', async () => {
      const response = await post(YT_PATH, { youtubeUrl: `https://www.youtube.com/watch?v=${UNKNOWN_YOUTUBE_ID}` });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ isSuccessful: false, message: 'Invalid YouTube URL' });
      expect(fake.requests).toHaveLength(1);
    });

    it('rejects malformed URLs without asking YouTube', async () => {
      for (const youtubeUrl of [
        'https://www.youtube.com/watch?v=short',
        `https://youtube.com.evil.com/watch?v=${KNOWN_YOUTUBE_ID}`,
        `javascript:alert(1)//youtu.be/${KNOWN_YOUTUBE_ID}`,
        `${fake.youtubeBase}/oembed?url=x&v=${KNOWN_YOUTUBE_ID}`,
        `http://127.0.0.1/watch?v=${KNOWN_YOUTUBE_ID}`,
      ]) {
        const response = await post(YT_PATH, { youtubeUrl });
        expect(response.statusCode, youtubeUrl).toBe(400);
        expect(response.json()).toEqual({ isSuccessful: false, message: 'Invalid YouTube URL' });
      }
      expect(fake.requests).toEqual([]);
    });

    it.each([
      ['broken (503)', 'broken'],
      ['rate limited (429)', 'rate-limited'],
      ['answering 200 with HTML', 'garbage'],
      ['redirecting', 'redirect'],
    ] as const)('answers "unchecked" when YouTube is %s, so checkout goes on', async (_label, mode) => {
      fake.setMode(mode);
      const response = await post(YT_PATH, { youtubeUrl: `https://youtu.be/${KNOWN_YOUTUBE_ID}` });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        isSuccessful: true,
        message: UNCHECKED_MESSAGE,
        data: { status: 'unchecked', canonical: `https://www.youtube.com/watch?v=${KNOWN_YOUTUBE_ID}` },
      });
      // Redirects are never followed.
      expect(fake.requests.every((request) => request.startsWith('/youtube/oembed?'))).toBe(true);
    });

    it('answers "unchecked" within about the timeout when YouTube hangs', async () => {
      fake.setMode('slow');
      const started = performance.now();
      const response = await post(YT_PATH, { youtubeUrl: `https://youtu.be/${KNOWN_YOUTUBE_ID}` });
      const elapsed = performance.now() - started;
      expect(response.statusCode).toBe(200);
      expect(response.json().data.status).toBe('unchecked');
      expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
      expect(elapsed).toBeLessThan(TIMEOUT_MS + 1500);
    });
  });

  describe('TikTok', () => {
    it('verifies a video through oEmbed', async () => {
      const response = await post(TT_PATH, { tiktokId: `${TT_VIDEO}?is_from_webapp=1` });
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toEqual({ status: 'verified', canonical: TT_VIDEO });
      expect(fake.requests).toEqual([`/tiktok/oembed?url=${encodeURIComponent(TT_VIDEO)}`]);
    });

    it('verifies a share link by passing it to oEmbed only, and keeps the full video URL', async () => {
      const shareLink = `https://vm.tiktok.com/${KNOWN_TIKTOK_SHARE_CODE}/`;
      const response = await post(TT_PATH, { tiktokId: `vm.tiktok.com/${KNOWN_TIKTOK_SHARE_CODE}` });
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toEqual({ status: 'verified', canonical: TT_VIDEO });
      expect(fake.requests).toEqual([`/tiktok/oembed?url=${encodeURIComponent(shareLink)}`]);
    });

    it('rejects a video or share link TikTok does not know', async () => {
      for (const tiktokId of [
        `https://www.tiktok.com/@${KNOWN_TIKTOK_USER}/video/1234567890`,
        'https://vt.tiktok.com/ZSnope000/',
      ]) {
        const response = await post(TT_PATH, { tiktokId });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({ isSuccessful: false, message: 'Invalid TikTok input' });
      }
      expect(fake.requests).toHaveLength(2);
    });

    it('answers "unchecked" when TikTok is down or hangs', async () => {
      for (const mode of ['broken', 'slow'] as const) {
        fake.setMode(mode);
        const response = await post(TT_PATH, { tiktokId: TT_VIDEO });
        expect(response.statusCode).toBe(200);
        expect(response.json()).toMatchObject({
          isSuccessful: true,
          data: { status: 'unchecked', canonical: TT_VIDEO },
        });
      }
    });

    it('accepts a well-formed username by format alone (no upstream call)', async () => {
      const response = await post(TT_PATH, { tiktokId: '@Scout2015' });
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toEqual({ status: 'verified', canonical: 'https://www.tiktok.com/@scout2015' });
      expect(fake.requests).toEqual([]);
    });

    it('honours an explicit kind', async () => {
      const asUser = await post(TT_PATH, { tiktokId: TT_VIDEO, kind: 'username' });
      expect(asUser.statusCode).toBe(400);
      const asVideo = await post(TT_PATH, { tiktokId: 'scout2015', kind: 'video' });
      expect(asVideo.statusCode).toBe(400);
      expect(asVideo.json().message).toBe('Invalid TikTok input');
      const badKind = await post(TT_PATH, { tiktokId: 'scout2015', kind: 'profile' });
      expect(badKind.statusCode).toBe(400);
      const kindMessage = "kind must be 'username' or 'video'";
      expect(badKind.json()).toEqual({
        isSuccessful: false,
        message: kindMessage,
        errors: [{ field: 'kind', message: kindMessage }],
      });
      expect(fake.requests).toEqual([]);
    });

    it('rejects malformed usernames without any upstream call', async () => {
      for (const tiktokId of ['a', 'trailing.', 'has space', 'https://eviltiktok.com/@scout2015']) {
        const response = await post(TT_PATH, { tiktokId });
        expect(response.statusCode, tiktokId).toBe(400);
        expect(response.json().message).toBe('Invalid TikTok input');
      }
      expect(fake.requests).toEqual([]);
    });
  });

  describe('Instagram', () => {
    it.each([
      ['@NatGeo', 'https://www.instagram.com/natgeo/'],
      ['https://www.instagram.com/natgeo/?hl=en', 'https://www.instagram.com/natgeo/'],
      ['https://www.instagram.com/p/C8abc-_12XY/', 'https://www.instagram.com/p/C8abc-_12XY/'],
      ['instagram.com/natgeo/reel/C8abc', 'https://www.instagram.com/reel/C8abc/'],
    ])('accepts %s by format alone', async (instaId, canonical) => {
      const response = await post(IG_PATH, { instaId });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        isSuccessful: true,
        message: 'Verified',
        data: { status: 'verified', canonical },
      });
      expect(fake.requests).toEqual([]);
    });

    it('rejects malformed input with the spec message', async () => {
      for (const instaId of [
        '.natgeo',
        'nat..geo',
        'a'.repeat(31),
        'https://instagram.com.evil.com/natgeo',
        'https://www.instagram.com/p/',
      ]) {
        const response = await post(IG_PATH, { instaId });
        expect(response.statusCode, instaId).toBe(400);
        expect(response.json()).toEqual({ isSuccessful: false, message: 'Invalid Instagram input' });
      }
    });

    it('honours an explicit kind', async () => {
      expect((await post(IG_PATH, { instaId: 'natgeo', kind: 'post' })).statusCode).toBe(400);
      expect(
        (await post(IG_PATH, { instaId: 'https://www.instagram.com/p/C8abc/', kind: 'username' })).statusCode,
      ).toBe(400);
      expect((await post(IG_PATH, { instaId: 'https://www.instagram.com/p/C8abc/', kind: 'post' })).statusCode).toBe(
        200,
      );
    });
  });

  describe('body validation', () => {
    it.each([
      [YT_PATH, 'youtubeUrl', 'YouTube URL is required', 'Invalid YouTube URL'],
      [IG_PATH, 'instaId', 'Instagram input is required', 'Invalid Instagram input'],
      [TT_PATH, 'tiktokId', 'TikTok input is required', 'Invalid TikTok input'],
    ])(
      '%s: missing, empty, wrong-typed and over-long fields answer 400, never 500',
      async (path, field, required, invalid) => {
        const cases: [unknown, string][] = [
          [{}, required],
          [{ [field]: '' }, required],
          [{ [field]: '   ' }, required],
          [{ [field]: null }, required],
          [{ other: 'x' }, required],
          [{ [field]: 42 }, invalid],
          [{ [field]: ['x'] }, invalid],
          [{ [field]: 'x'.repeat(501) }, invalid],
        ];
        for (const [payload, message] of cases) {
          const response = await post(path, payload);
          expect(response.statusCode, JSON.stringify(payload)).toBe(400);
          expect(response.json()).toEqual({ isSuccessful: false, message, errors: [{ field, message }] });
        }
        // No body at all, a JSON array, and broken JSON.
        const noBody = await app.inject({ method: 'POST', url: path });
        expect(noBody.statusCode).toBe(400);
        // The payload as a whole is refused: no field to name, the spec's message still leads.
        expect(noBody.json()).toMatchObject({ isSuccessful: false, message: required, errors: [{ field: '' }] });
        const array = await app.inject({
          method: 'POST',
          url: path,
          headers: { 'content-type': 'application/json' },
          payload: '[]',
        });
        expect(array.statusCode).toBe(400);
        expect(array.json()).toMatchObject({ isSuccessful: false, message: required, errors: [{ field: '' }] });
        const broken = await app.inject({
          method: 'POST',
          url: path,
          headers: { 'content-type': 'application/json' },
          payload: '{"x',
        });
        expect(broken.statusCode).toBe(400);
        expect(broken.json().isSuccessful).toBe(false);
        expect(fake.requests).toEqual([]);
      },
    );
  });

  it('only ever calls the oEmbed endpoints, never the URL the buyer typed', async () => {
    await post(YT_PATH, { youtubeUrl: `https://youtu.be/${KNOWN_YOUTUBE_ID}` });
    await post(YT_PATH, { youtubeUrl: `https://www.youtube.com/watch?v=${UNKNOWN_YOUTUBE_ID}` });
    await post(TT_PATH, { tiktokId: `https://vm.tiktok.com/${KNOWN_TIKTOK_SHARE_CODE}/` });
    await post(TT_PATH, { tiktokId: TT_VIDEO });
    await post(IG_PATH, { instaId: 'https://www.instagram.com/p/C8abc/' });
    await post(TT_PATH, { tiktokId: 'https://www.tiktok.com/@scout2015' });
    expect(fake.requests).toHaveLength(4);
    for (const request of fake.requests) {
      expect(request).toMatch(/^\/(youtube\/oembed\?url=[^&]+&format=json|tiktok\/oembed\?url=[^&]+)$/);
    }
  });
});

describe('verifier without the API', () => {
  it('calls the real oEmbed endpoints by default, without following redirects and with a deadline', async () => {
    const calls: { url: string; init: RequestInit | undefined }[] = [];
    const fetch = vi.fn((input: string | URL | Request, init?: RequestInit) => {
      calls.push({ url: input instanceof Request ? input.url : String(input), init });
      return Promise.resolve(new Response(JSON.stringify({ title: 't', author_name: 'a' }), { status: 200 }));
    });
    const verifier = createTargetVerifier({ fetch });
    expect(await verifier.verify('youtube_video_url', `youtu.be/${KNOWN_YOUTUBE_ID}`)).toEqual({
      outcome: 'verified',
      canonical: `https://www.youtube.com/watch?v=${KNOWN_YOUTUBE_ID}`,
    });
    expect(await verifier.verify('tiktok_post_url', TT_VIDEO)).toEqual({ outcome: 'verified', canonical: TT_VIDEO });
    expect(calls.map((call) => call.url)).toEqual([
      `https://www.youtube.com/oembed?url=${encodeURIComponent(`https://www.youtube.com/watch?v=${KNOWN_YOUTUBE_ID}`)}&format=json`,
      `https://www.tiktok.com/oembed?url=${encodeURIComponent(TT_VIDEO)}`,
    ]);
    for (const { init } of calls) {
      expect(init?.redirect).toBe('error');
      expect(init?.signal).toBeInstanceOf(AbortSignal);
    }
  });

  it('treats a 200 without the expected fields as "could not check", not as verified', async () => {
    const verifier = createTargetVerifier({ fetch: () => Promise.resolve(new Response('{}', { status: 200 })) });
    expect(await verifier.verify('youtube_video_url', `youtu.be/${KNOWN_YOUTUBE_ID}`)).toMatchObject({
      outcome: 'unavailable',
      message: 'Error verifying YouTube URL',
    });
    expect(await verifier.verify('tiktok_post_url', TT_VIDEO)).toMatchObject({
      outcome: 'unavailable',
      message: 'Error verifying TikTok input',
    });
  });

  it('treats a network failure as "could not check" and reports it', async () => {
    const problems: unknown[] = [];
    const verifier = createTargetVerifier({
      fetch: globalThis.fetch,
      timeoutMs: TIMEOUT_MS,
      // Port 1 on loopback: nothing listens there, the connection is refused.
      oembedBase: { youtube: 'http://127.0.0.1:1/youtube', tiktok: 'http://127.0.0.1:1/tiktok' },
      onUpstreamProblem: (problem) => problems.push(problem),
    });
    expect(await verifier.verify('youtube_video_url', `youtu.be/${KNOWN_YOUTUBE_ID}`)).toEqual({
      outcome: 'unavailable',
      canonical: `https://www.youtube.com/watch?v=${KNOWN_YOUTUBE_ID}`,
      message: 'Error verifying YouTube URL',
    });
    expect(problems).toEqual([expect.objectContaining({ platform: 'youtube', reason: 'network' })]);
  });

  it('answers the required message for empty input', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>();
    const verifier = createTargetVerifier({ fetch });
    expect(await verifier.verify('youtube_video_url', '  ')).toEqual({
      outcome: 'invalid',
      message: 'YouTube URL is required',
    });
    expect(await verifier.verify('instagram_username', '')).toEqual({
      outcome: 'invalid',
      message: 'Instagram input is required',
    });
    expect(await verifier.verify('tiktok_post_url', '')).toEqual({
      outcome: 'invalid',
      message: 'TikTok input is required',
    });
    expect(fetch).not.toHaveBeenCalled();
  });

  it('refuses oEmbed bases that are not plain http(s) URLs', () => {
    const fetch = globalThis.fetch;
    expect(() =>
      createTargetVerifier({ fetch, oembedBase: { youtube: 'file:///etc', tiktok: 'https://www.tiktok.com' } }),
    ).toThrow();
    expect(() =>
      createTargetVerifier({
        fetch,
        oembedBase: { youtube: 'https://www.youtube.com?x=1', tiktok: 'https://www.tiktok.com' },
      }),
    ).toThrow();
  });
});

describe('rate limiting', () => {
  it('limits each client to 30 verifications a minute once @fastify/rate-limit is registered', async () => {
    const verifier = createTargetVerifier({ fetch: vi.fn<typeof globalThis.fetch>() });
    const app = await buildTestApp(verifier, { rateLimited: true });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 31; i++) {
        const response = await app.inject({ method: 'POST', url: IG_PATH, payload: { instaId: 'natgeo' } });
        statuses.push(response.statusCode);
        if (i === 30) {
          expect(response.json()).toEqual({
            isSuccessful: false,
            message: expect.stringMatching(/^Too many requests/),
          });
        }
      }
      expect(statuses.slice(0, 30).every((status) => status === 200)).toBe(true);
      expect(statuses[30]).toBe(429);
      // Another client still gets through.
      const other = await app.inject({
        method: 'POST',
        url: IG_PATH,
        payload: { instaId: 'natgeo' },
        remoteAddress: '10.0.0.9',
      });
      expect(other.statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});
