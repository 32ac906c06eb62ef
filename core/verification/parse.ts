/**
 * Strict format parsing of order targets (design/integrations.md, "Target verification").
 * Pure: no I/O. Every parser trims its input, rejects anything longer than 500 characters,
 * anything with inner whitespace, control characters or backslashes, any scheme other than
 * http/https, credentials or an explicit port in a URL, and any host outside the platform's own
 * (so `youtube.com.evil.com` and `evilyoutube.com` fail). A valid input yields a canonical URL;
 * everything else yields null.
 *
 * Usernames are returned lowercased: both Instagram and TikTok treat them case-insensitively
 * and show them in lowercase, so the canonical form is lowercase.
 */
import type { TargetKind } from '../catalogue/types.ts';
import { MAX_TARGET_INPUT_LENGTH } from './messages.ts';

interface ParsedYouTubeVideo {
  id: string;
  canonicalUrl: string;
}

interface ParsedUsername {
  username: string;
  canonicalUrl: string;
}

interface ParsedInstagramPost {
  code: string;
  /** `reel` for /reel/ and /reels/ links, `post` for /p/ and /tv/. */
  type: 'post' | 'reel';
  canonicalUrl: string;
}

interface ParsedTikTokVideo {
  canonicalUrl: string;
  /** False for a share link (vm./vt.tiktok.com/CODE, tiktok.com/t/CODE) that only TikTok can resolve. */
  resolved: boolean;
  username?: string;
  videoId?: string;
}

type ParsedTarget =
  | ({ kind: 'youtube_video_url' } & ParsedYouTubeVideo)
  | ({ kind: 'instagram_username' } & ParsedUsername)
  | ({ kind: 'instagram_post_url' } & ParsedInstagramPost)
  | ({ kind: 'tiktok_username' } & ParsedUsername)
  | ({ kind: 'tiktok_post_url' } & ParsedTikTokVideo);

// ---------------------------------------------------------------------------------------------
// Shared helpers

/** Whitespace anywhere (after trimming), control characters and backslashes are never valid. */
const FORBIDDEN_CHARACTERS = /[\s\p{Cc}\\]/u;

/** Trimmed input, or null when it is not a string, empty, too long or has forbidden characters. */
function prepare(input: unknown): string | null {
  if (typeof input !== 'string') return null;
  const text = input.trim();
  if (text.length === 0 || text.length > MAX_TARGET_INPUT_LENGTH) return null;
  if (FORBIDDEN_CHARACTERS.test(text)) return null;
  return text;
}

/**
 * Parses `https://host/...`, `http://host/...` or a bare `host/...` as a URL. Any other scheme
 * (`javascript:`, `data:`, `ftp:`, even `host:port`), protocol-relative `//host`, credentials
 * and explicit ports are rejected.
 */
function parseWebUrl(text: string): URL | null {
  let candidate = text;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text);
  if (scheme) {
    if (!/^https?:\/\/[^/]/i.test(text)) return null;
  } else {
    if (text.startsWith('/')) return null;
    candidate = `https://${text}`;
  }
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username || url.password || url.port) return null;
  return url;
}

/**
 * The path's segments, allowing one trailing slash. Null when there is an empty segment
 * (`//`), so `/watch//x` does not pass as `/watch/x`. As no segment is ever empty, the parsers
 * destructure them with `''` standing for "absent" and check the count before using one.
 */
function segmentsOf(url: URL): string[] | null {
  let path = url.pathname;
  if (path === '/' || path === '') return [];
  path = path.slice(1);
  if (path.endsWith('/')) path = path.slice(0, -1);
  const segments = path.split('/');
  return segments.some((segment) => segment === '') ? null : segments;
}

/** Input the user typed as a URL rather than a bare username. */
function looksLikeUrl(text: string, platformHosts: ReadonlySet<string>): boolean {
  return /[/:]/.test(text) || platformHosts.has(text.toLowerCase());
}

// ---------------------------------------------------------------------------------------------
// YouTube

const YOUTUBE_HOSTS: ReadonlySet<string> = new Set(['youtube.com', 'www.youtube.com', 'm.youtube.com']);
const YOUTUBE_SHORT_HOST = 'youtu.be';
const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;
const YOUTUBE_PATH_PREFIXES: ReadonlySet<string> = new Set(['shorts', 'embed', 'live']);

function youtubeCanonicalUrl(id: string): string {
  return `https://www.youtube.com/watch?v=${id}`;
}

/**
 * `youtube.com/watch?v=ID` (other query parameters allowed, `v` exactly once, anywhere),
 * `youtu.be/ID`, `youtube.com/shorts/ID`, `/embed/ID`, `/live/ID`; hosts youtube.com, www. and
 * m. (music.youtube.com and others are rejected). ID: exactly 11 of `[A-Za-z0-9_-]`.
 */
export function parseYouTubeVideoUrl(input: unknown): ParsedYouTubeVideo | null {
  const text = prepare(input);
  if (!text) return null;
  const url = parseWebUrl(text);
  if (!url) return null;
  const segments = segmentsOf(url);
  if (!segments) return null;

  const [first = '', second = ''] = segments;
  let id: string | undefined;
  if (YOUTUBE_HOSTS.has(url.hostname)) {
    if (segments.length === 1 && first === 'watch') {
      const values = url.searchParams.getAll('v');
      if (values.length === 1) id = values[0];
    } else if (segments.length === 2 && YOUTUBE_PATH_PREFIXES.has(first)) {
      id = second;
    }
  } else if (url.hostname === YOUTUBE_SHORT_HOST) {
    if (segments.length === 1) id = first;
  }

  if (!id || !YOUTUBE_ID.test(id)) return null;
  return { id, canonicalUrl: youtubeCanonicalUrl(id) };
}

// ---------------------------------------------------------------------------------------------
// Instagram

const INSTAGRAM_HOSTS: ReadonlySet<string> = new Set(['instagram.com', 'www.instagram.com', 'm.instagram.com']);
/** 1–30 of `[A-Za-z0-9._]`, not starting or ending with a dot, no `..`. */
const INSTAGRAM_USERNAME = /^(?!\.)(?!.*\.\.)(?!.*\.$)[A-Za-z0-9._]{1,30}$/;
const INSTAGRAM_CODE = /^[A-Za-z0-9_-]{1,64}$/;
const INSTAGRAM_POST_TYPES: Record<string, ParsedInstagramPost['type']> = {
  p: 'post',
  tv: 'post',
  reel: 'reel',
  reels: 'reel',
};
/** First path segments that are Instagram pages, not profiles. */
const INSTAGRAM_RESERVED: ReadonlySet<string> = new Set([
  'p',
  'reel',
  'reels',
  'tv',
  'explore',
  'accounts',
  'stories',
  'direct',
  'about',
  'legal',
  'developer',
  'web',
  'challenge',
  'emails',
  'session',
  'privacy',
  'terms',
]);

function instagramUsername(candidate: string): string | null {
  if (!INSTAGRAM_USERNAME.test(candidate)) return null;
  const username = candidate.toLowerCase();
  return INSTAGRAM_RESERVED.has(username) ? null : username;
}

/** `user`, `@user`, or a profile URL `instagram.com/user/` (www./m. hosts, query allowed). */
export function parseInstagramUsername(input: unknown): ParsedUsername | null {
  const text = prepare(input);
  if (!text) return null;

  let candidate: string;
  if (looksLikeUrl(text, INSTAGRAM_HOSTS)) {
    const url = parseWebUrl(text);
    if (!url || !INSTAGRAM_HOSTS.has(url.hostname)) return null;
    const segments = segmentsOf(url);
    if (!segments || segments.length !== 1) return null;
    const [profile = ''] = segments;
    candidate = profile;
  } else {
    candidate = text.startsWith('@') ? text.slice(1) : text;
  }

  const username = instagramUsername(candidate);
  if (!username) return null;
  return { username, canonicalUrl: `https://www.instagram.com/${username}/` };
}

/**
 * `instagram.com/(user/)?(p|reel|reels|tv)/CODE` (www./m. hosts, trailing slash and query
 * allowed). Reels keep /reel/CODE/; /p/ and /tv/ become /p/CODE/.
 */
export function parseInstagramPostUrl(input: unknown): ParsedInstagramPost | null {
  const text = prepare(input);
  if (!text) return null;
  const url = parseWebUrl(text);
  if (!url || !INSTAGRAM_HOSTS.has(url.hostname)) return null;
  const segments = segmentsOf(url);
  if (!segments) return null;

  let rest = segments;
  if (segments.length === 3) {
    const [user = '', ...post] = segments;
    if (!instagramUsername(user)) return null;
    rest = post;
  }
  if (rest.length !== 2) return null;
  const [typeSegment = '', code = ''] = rest;
  const type = Object.hasOwn(INSTAGRAM_POST_TYPES, typeSegment) ? INSTAGRAM_POST_TYPES[typeSegment] : undefined;
  if (!type || !INSTAGRAM_CODE.test(code)) return null;
  const canonicalUrl = `https://www.instagram.com/${type === 'reel' ? 'reel' : 'p'}/${code}/`;
  return { code, type, canonicalUrl };
}

// ---------------------------------------------------------------------------------------------
// TikTok

const TIKTOK_HOSTS: ReadonlySet<string> = new Set(['tiktok.com', 'www.tiktok.com', 'm.tiktok.com']);
const TIKTOK_SHORT_HOSTS: ReadonlySet<string> = new Set(['vm.tiktok.com', 'vt.tiktok.com']);
const TIKTOK_ALL_HOSTS: ReadonlySet<string> = new Set([...TIKTOK_HOSTS, ...TIKTOK_SHORT_HOSTS]);
/** 2–24 of letters, digits, `_` and `.`, not ending with a dot. */
const TIKTOK_USERNAME = /^(?!.*\.$)[A-Za-z0-9_.]{2,24}$/;
const TIKTOK_VIDEO_ID = /^\d{1,25}$/;
const TIKTOK_SHORT_CODE = /^[A-Za-z0-9]{1,32}$/;

function tiktokUsername(candidate: string): string | null {
  return TIKTOK_USERNAME.test(candidate) ? candidate.toLowerCase() : null;
}

export function tiktokVideoCanonicalUrl(username: string, videoId: string): string {
  return `https://www.tiktok.com/@${username}/video/${videoId}`;
}

/** `user`, `@user`, or a profile URL `tiktok.com/@user` (www./m. hosts, query allowed). */
export function parseTikTokUsername(input: unknown): ParsedUsername | null {
  const text = prepare(input);
  if (!text) return null;

  let candidate: string;
  if (looksLikeUrl(text, TIKTOK_ALL_HOSTS)) {
    const url = parseWebUrl(text);
    if (!url || !TIKTOK_HOSTS.has(url.hostname)) return null;
    const segments = segmentsOf(url);
    if (!segments || segments.length !== 1) return null;
    const [profile = ''] = segments;
    if (!profile.startsWith('@')) return null;
    candidate = profile.slice(1);
  } else {
    candidate = text.startsWith('@') ? text.slice(1) : text;
  }

  const username = tiktokUsername(candidate);
  if (!username) return null;
  return { username, canonicalUrl: `https://www.tiktok.com/@${username}` };
}

/**
 * `tiktok.com/@user/video/DIGITS` (www./m. hosts), and share links `vm.tiktok.com/CODE`,
 * `vt.tiktok.com/CODE` and `tiktok.com/t/CODE`. Share links are only format-checked here;
 * whether they lead to a video is for TikTok's oEmbed to say (it follows the redirect; we never
 * fetch the link ourselves).
 */
export function parseTikTokVideoUrl(input: unknown): ParsedTikTokVideo | null {
  const text = prepare(input);
  if (!text) return null;
  const url = parseWebUrl(text);
  if (!url) return null;
  const segments = segmentsOf(url);
  if (!segments) return null;

  const [first = '', second = '', third = ''] = segments;
  if (TIKTOK_SHORT_HOSTS.has(url.hostname)) {
    if (segments.length !== 1 || !TIKTOK_SHORT_CODE.test(first)) return null;
    return { canonicalUrl: `https://${url.hostname}/${first}/`, resolved: false };
  }
  if (!TIKTOK_HOSTS.has(url.hostname)) return null;

  if (segments.length === 2 && first === 't') {
    if (!TIKTOK_SHORT_CODE.test(second)) return null;
    return { canonicalUrl: `https://www.tiktok.com/t/${second}/`, resolved: false };
  }
  if (segments.length !== 3 || !first.startsWith('@') || second !== 'video') return null;
  const username = tiktokUsername(first.slice(1));
  const videoId = third;
  if (!username || !TIKTOK_VIDEO_ID.test(videoId)) return null;
  return { canonicalUrl: tiktokVideoCanonicalUrl(username, videoId), resolved: true, username, videoId };
}

// ---------------------------------------------------------------------------------------------

/** Parses the input as the given kind of target. */
export function parseTarget(kind: TargetKind, input: unknown): ParsedTarget | null {
  switch (kind) {
    case 'youtube_video_url': {
      const parsed = parseYouTubeVideoUrl(input);
      return parsed && { kind, ...parsed };
    }
    case 'instagram_username': {
      const parsed = parseInstagramUsername(input);
      return parsed && { kind, ...parsed };
    }
    case 'instagram_post_url': {
      const parsed = parseInstagramPostUrl(input);
      return parsed && { kind, ...parsed };
    }
    case 'tiktok_username': {
      const parsed = parseTikTokUsername(input);
      return parsed && { kind, ...parsed };
    }
    case 'tiktok_post_url': {
      const parsed = parseTikTokVideoUrl(input);
      return parsed && { kind, ...parsed };
    }
  }
}

/**
 * The form a target is stored and sent to the supplier in: the username (lowercase, no @) for
 * username kinds, the canonical URL for links.
 */
export function storedTargetOf(parsed: ParsedTarget): string {
  return parsed.kind === 'instagram_username' || parsed.kind === 'tiktok_username'
    ? parsed.username
    : parsed.canonicalUrl;
}

/** True when the trimmed input is empty (the "is required" case), as opposed to malformed. */
export function isBlankTarget(input: unknown): boolean {
  return input === undefined || input === null || (typeof input === 'string' && input.trim() === '');
}

/**
 * For an Instagram input without an explicit kind: a URL with /p/, /reel/, /reels/ or /tv/ is a
 * post, anything else a username.
 */
export function guessInstagramKind(input: string): 'username' | 'post' {
  return /\/(?:p|reels?|tv)\//i.test(input) ? 'post' : 'username';
}

/**
 * For a TikTok input without an explicit kind: a URL with /video/, a vm./vt.tiktok.com share
 * link or a tiktok.com/t/ link is a video, anything else a username.
 */
export function guessTikTokKind(input: string): 'username' | 'video' {
  return /\/video\/|(?:^|\/\/)v[mt]\.tiktok\.com(?:[/?#]|$)|tiktok\.com\/t\//i.test(input.trim())
    ? 'video'
    : 'username';
}
