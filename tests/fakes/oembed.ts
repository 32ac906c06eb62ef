/**
 * A fake of YouTube's and TikTok's oEmbed endpoints: a real HTTP server on 127.0.0.1 with an
 * ephemeral port, so the verifier's real fetch, timeouts and redirect handling are exercised.
 *
 *   GET /youtube/oembed?url=<video url>&format=json
 *   GET /tiktok/oembed?url=<video url or share link>
 *
 * Point the verifier at it with `oembedBase: { youtube: fake.youtubeBase, tiktok: fake.tiktokBase }`.
 * Every request's path and query is logged in `requests`, in order.
 */
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * normal: answer from the tables; broken: 503; slow: never answer (until close);
 * garbage: 200 with an HTML page; rate-limited: 429; redirect: 302 to another path of ours.
 */
export type FakeOembedMode = 'normal' | 'broken' | 'slow' | 'garbage' | 'rate-limited' | 'redirect';

interface FakeVideo {
  title: string;
  author_name: string;
}

export interface FakeOembedTables {
  /** YouTube video ids that exist and can be embedded: 200 with oEmbed JSON. */
  youtube: Map<string, FakeVideo>;
  /** YouTube video ids that exist with embedding disabled: 401. Anything else: 404. */
  youtubeEmbeddingDisabled: Set<string>;
  /** TikTok video ids (digits) that exist, with the author's username. Anything else: 400. */
  tiktok: Map<string, FakeVideo & { author_unique_id: string }>;
  /** TikTok share-link codes (vm./vt.tiktok.com/CODE) and the video id they redirect to. */
  tiktokShareLinks: Map<string, string>;
}

export interface FakeOembed {
  /** http://127.0.0.1:PORT */
  url: string;
  youtubeBase: string;
  tiktokBase: string;
  tables: FakeOembedTables;
  setMode(mode: FakeOembedMode): void;
  /** Path and query of every request received, in order. */
  requests: string[];
  close(): Promise<void>;
}

export const KNOWN_YOUTUBE_ID = 'dQw4w9WgXcQ';
export const EMBED_DISABLED_YOUTUBE_ID = 'noEmbed_123';
export const UNKNOWN_YOUTUBE_ID = 'zzzzzzzzzzz';
export const KNOWN_TIKTOK_USER = 'scout2015';
export const KNOWN_TIKTOK_VIDEO_ID = '6718335390845095173';
export const KNOWN_TIKTOK_SHARE_CODE = 'ZMabc123';

function defaultTables(): FakeOembedTables {
  return {
    youtube: new Map([[KNOWN_YOUTUBE_ID, { title: 'Never Gonna Give You Up', author_name: 'Rick Astley' }]]),
    youtubeEmbeddingDisabled: new Set([EMBED_DISABLED_YOUTUBE_ID]),
    tiktok: new Map([
      [
        KNOWN_TIKTOK_VIDEO_ID,
        { title: 'Scramble up ur name', author_name: 'Scout & Suki', author_unique_id: KNOWN_TIKTOK_USER },
      ],
    ]),
    tiktokShareLinks: new Map([[KNOWN_TIKTOK_SHARE_CODE, KNOWN_TIKTOK_VIDEO_ID]]),
  };
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(body));
}

function targetOf(raw: string | null): URL | null {
  if (!raw) return null;
  try {
    return new URL(raw);
  } catch {
    return null;
  }
}

function answerYouTube(tables: FakeOembedTables, query: URLSearchParams, response: ServerResponse): void {
  if (query.get('format') !== 'json') return sendJson(response, 501, { error: 'Not Implemented' });
  const target = targetOf(query.get('url'));
  const id = target && /(^|\.)youtube\.com$/.test(target.hostname) ? target.searchParams.get('v') : null;
  if (!id) {
    response.writeHead(400, { 'content-type': 'text/plain' });
    return void response.end('Bad Request');
  }
  if (tables.youtubeEmbeddingDisabled.has(id)) {
    response.writeHead(401, { 'content-type': 'text/plain' });
    return void response.end('Unauthorized');
  }
  const video = tables.youtube.get(id);
  if (!video) {
    response.writeHead(404, { 'content-type': 'text/plain' });
    return void response.end('Not Found');
  }
  sendJson(response, 200, {
    ...video,
    author_url: `https://www.youtube.com/@${video.author_name.replaceAll(' ', '')}`,
    type: 'video',
    height: 113,
    width: 200,
    version: '1.0',
    provider_name: 'YouTube',
    provider_url: 'https://www.youtube.com/',
    thumbnail_url: `https://i.ytimg.com/vi/${id}/hqdefault.jpg`,
    html: `<iframe src="https://www.youtube.com/embed/${id}?feature=oembed"></iframe>`,
  });
}

function answerTikTok(tables: FakeOembedTables, query: URLSearchParams, response: ServerResponse): void {
  const target = targetOf(query.get('url'));
  let videoId: string | undefined;
  if (target && /^(www\.|m\.)?tiktok\.com$/.test(target.hostname)) {
    videoId = /^\/@[^/]+\/video\/(\d+)\/?$/.exec(target.pathname)?.[1];
  } else if (target && /^v[mt]\.tiktok\.com$/.test(target.hostname)) {
    // TikTok follows the share link's redirect itself.
    videoId = tables.tiktokShareLinks.get(target.pathname.replaceAll('/', ''));
  }
  const video = videoId ? tables.tiktok.get(videoId) : undefined;
  if (!videoId || !video) {
    return sendJson(response, 400, { status_msg: 'Something went wrong', code: 400 });
  }
  sendJson(response, 200, {
    version: '1.0',
    type: 'video',
    title: video.title,
    author_url: `https://www.tiktok.com/@${video.author_unique_id}`,
    author_name: video.author_name,
    author_unique_id: video.author_unique_id,
    embed_product_id: videoId,
    embed_type: 'video',
    provider_name: 'TikTok',
    provider_url: 'https://www.tiktok.com',
    html: `<blockquote class="tiktok-embed" data-video-id="${videoId}"></blockquote>`,
  });
}

export async function startFakeOembed(): Promise<FakeOembed> {
  let mode: FakeOembedMode = 'normal';
  const tables = defaultTables();
  const requests: string[] = [];

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const raw = request.url ?? '/';
    requests.push(raw);
    const url = new URL(raw, 'http://fake.invalid');

    if (url.pathname === '/redirected') return sendJson(response, 200, { title: 'followed a redirect' });
    const platform =
      url.pathname === '/youtube/oembed' ? 'youtube' : url.pathname === '/tiktok/oembed' ? 'tiktok' : null;
    if (!platform || request.method !== 'GET') {
      response.writeHead(404);
      return void response.end();
    }

    switch (mode) {
      case 'slow':
        return; // never answers; close() ends the connection
      case 'broken':
        response.writeHead(503, { 'content-type': 'text/html' });
        return void response.end('<h1>Service Unavailable</h1>');
      case 'rate-limited':
        response.writeHead(429, { 'retry-after': '60' });
        return void response.end();
      case 'garbage':
        response.writeHead(200, { 'content-type': 'text/html' });
        return void response.end('<!doctype html><title>Consent</title><p>Before you continue…</p>');
      case 'redirect':
        response.writeHead(302, { location: '/redirected' });
        return void response.end();
      case 'normal':
        return platform === 'youtube'
          ? answerYouTube(tables, url.searchParams, response)
          : answerTikTok(tables, url.searchParams, response);
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    youtubeBase: `${url}/youtube`,
    tiktokBase: `${url}/tiktok`,
    tables,
    setMode(next) {
      mode = next;
    },
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
