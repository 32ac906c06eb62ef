/**
 * Pure rules of the admin blog form and its editor (no React, no Tiptap), so they are unit-tested
 * on their own and shared by the form, the toolbar and the paste handler.
 */

/** Spec section 5: the cover image and images in the body. */
export const ALLOWED_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/svg+xml', 'image/webp'] as const;
export const IMAGE_ACCEPT = ALLOWED_IMAGE_TYPES.join(',');
export const INVALID_IMAGE_MESSAGE = 'Only jpg, png, svg, and webp files are allowed';

/**
 * A first check in the browser by the file's declared type, so the admin hears at once; the
 * server decides by the bytes (core/uploads/images.ts) and has the last word.
 */
export function isAllowedImageFile(file: Pick<File, 'type'>): boolean {
  return (ALLOWED_IMAGE_TYPES as readonly string[]).includes(file.type);
}

export type VideoProvider = 'youtube' | 'vimeo';

export interface VideoEmbed {
  provider: VideoProvider;
  id: string;
  /** The player address the post stores: the privacy-enhanced YouTube host, Vimeo's player. */
  src: string;
}

const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;
const VIMEO_ID = /^\d{1,12}$/;
const VIMEO_HASH = /^[0-9a-f]{6,20}$/i;
const YOUTUBE_HOSTS = new Set([
  'youtube.com',
  'www.youtube.com',
  'm.youtube.com',
  'music.youtube.com',
  'youtube-nocookie.com',
  'www.youtube-nocookie.com',
]);
const VIMEO_HOSTS = new Set(['vimeo.com', 'www.vimeo.com', 'player.vimeo.com']);

/** "90", "90s", "1m30s", "1h2m3s" → seconds; anything else → null. */
function startSeconds(value: string | null): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value);
  const match = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(value);
  if (!match || value === '') return null;
  const [, hours = '0', minutes = '0', seconds = '0'] = match;
  const total = Number(hours) * 3600 + Number(minutes) * 60 + Number(seconds);
  return total > 0 ? total : null;
}

function parseUrl(text: string): URL | null {
  const trimmed = text.trim();
  if (!trimmed || /\s/.test(trimmed)) return null;
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : null;
  } catch {
    return null;
  }
}

function youtubeId(url: URL): string | null {
  const host = url.hostname.toLowerCase();
  const segments = url.pathname.split('/').filter(Boolean);
  if (host === 'youtu.be') return segments[0] ?? null;
  if (!YOUTUBE_HOSTS.has(host)) return null;
  if (segments[0] === 'watch') return url.searchParams.get('v');
  if (segments.length >= 2 && ['embed', 'shorts', 'live', 'v'].includes(segments[0] ?? '')) return segments[1] ?? null;
  return null;
}

/**
 * The embed for a YouTube or Vimeo address (watch page, short link, Shorts, an embed address),
 * or null for anything else. The ID is checked against each provider's format, so nothing but
 * the ID (and a start time or Vimeo's unlisted-video hash) reaches the stored player address.
 */
export function videoEmbedFromUrl(text: string): VideoEmbed | null {
  const url = parseUrl(text);
  if (!url) return null;

  const ytId = youtubeId(url);
  if (ytId !== null) {
    if (!YOUTUBE_ID.test(ytId)) return null;
    const start = startSeconds(url.searchParams.get('t') ?? url.searchParams.get('start'));
    return {
      provider: 'youtube',
      id: ytId,
      src: `https://www.youtube-nocookie.com/embed/${ytId}${start ? `?start=${start}` : ''}`,
    };
  }

  const host = url.hostname.toLowerCase();
  if (!VIMEO_HOSTS.has(host)) return null;
  const segments = url.pathname.split('/').filter(Boolean);
  // player.vimeo.com/video/ID; vimeo.com/ID[/HASH]; vimeo.com/channels/NAME/ID; vimeo.com/groups/NAME/videos/ID
  let index: number;
  if (host === 'player.vimeo.com') index = segments[0] === 'video' ? 1 : -1;
  else if (segments[0] === 'channels') index = 2;
  else if (segments[0] === 'groups') index = segments[2] === 'videos' ? 3 : -1;
  else index = 0;
  const id = index >= 0 ? segments[index] : undefined;
  if (!id || !VIMEO_ID.test(id)) return null;
  const hash = url.searchParams.get('h') ?? (index === 0 ? segments[1] : undefined);
  const validHash = hash && VIMEO_HASH.test(hash) ? hash : null;
  return {
    provider: 'vimeo',
    id,
    src: `https://player.vimeo.com/video/${id}${validHash ? `?h=${validHash}` : ''}`,
  };
}

/** True for a stored player address this editor makes (used when reading a post back in). */
export function isVideoEmbedSrc(src: string): boolean {
  const embed = videoEmbedFromUrl(src);
  return embed !== null && embed.src === src;
}

const BARE_EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;

export type LinkTarget = { ok: true; href: string } | { ok: false; message: string };

/**
 * What the link box's text becomes: a bare e-mail gets `mailto:` (spec "Admin blog add and edit
 * forms"), a bare domain gets `https://`, a path on this site stays as it is. Only http(s) and
 * mailto are linked: a `javascript:` or `data:` address is refused here (and stripped by the
 * server's sanitiser anyway).
 */
export function linkTarget(input: string): LinkTarget {
  const text = input.trim();
  if (!text) return { ok: false, message: 'Enter an address or an e-mail.' };
  if (BARE_EMAIL.test(text)) return { ok: true, href: `mailto:${text}` };
  if (/^mailto:/i.test(text)) {
    return BARE_EMAIL.test(text.slice('mailto:'.length).split('?')[0] ?? '')
      ? { ok: true, href: `mailto:${text.slice('mailto:'.length)}` }
      : { ok: false, message: 'That e-mail address does not look right.' };
  }
  if (text.startsWith('/') && !text.startsWith('//')) return { ok: true, href: text };
  if (text.startsWith('#')) return { ok: true, href: text };
  // A scheme-relative address ('//host/…') is ambiguous to the admin: ask for the whole address.
  if (text.startsWith('//')) return { ok: false, message: 'Write the whole address, starting with https://.' };
  const hasScheme = /^[a-z][a-z0-9+.-]*:/i.test(text);
  if (hasScheme && !/^https?:\/\//i.test(text)) {
    return { ok: false, message: 'Only web addresses (https://…) and e-mail addresses can be linked.' };
  }
  const url = parseUrl(text);
  if (!url || !url.hostname.includes('.')) return { ok: false, message: 'That address does not look right.' };
  return { ok: true, href: url.href };
}

/** The text a link shows when nothing was selected: the address without `mailto:`. */
export function linkText(href: string): string {
  return href.startsWith('mailto:') ? href.slice('mailto:'.length) : href;
}

export const MAX_SLUG_LENGTH = 80;

/**
 * The address part suggested from the title while the admin has not edited it: lowercase ASCII
 * (accents folded), words joined by hyphens. The server makes it unique (and is the authority).
 */
export function slugFromTitle(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (slug.length <= MAX_SLUG_LENGTH) return slug;
  const cut = slug.slice(0, MAX_SLUG_LENGTH);
  const lastHyphen = cut.lastIndexOf('-');
  return (lastHyphen > MAX_SLUG_LENGTH / 2 ? cut.slice(0, lastHyphen) : cut).replace(/-+$/, '');
}
