/**
 * Every HTML string we store passes through here first: the catalogue's service titles and the
 * blog's posts. Each allows the formatting its admin editor produces and nothing executable.
 */
import sanitizeHtml from 'sanitize-html';
import { isUploadPath } from '../uploads/names.ts';

/**
 * A catalogue service's title: one line shown under the service's name, which its editor
 * (app/admin/catalogue/TitleEditor.tsx) lets an owner make bold or italic and nothing else. So
 * only those marks survive, without any attribute; every other tag is dropped and its text kept
 * (a link becomes its words), and script-like content goes entirely.
 */
const TITLE_HTML: sanitizeHtml.IOptions = {
  allowedTags: ['strong', 'b', 'em', 'i'],
  allowedAttributes: {},
  allowedSchemes: [],
};

export function sanitizeTitleHtml(html: string): string {
  return sanitizeHtml(html, TITLE_HTML);
}

/**
 * Blog post bodies (docs/decisions/019-uploads-and-stored-html.md). Richer than a
 * catalogue title, and strict: only the marks the blog editor makes, every attribute rebuilt from a
 * checked value rather than copied, and each URL parsed and put back in one canonical form.
 *
 * - Tags: p, br, strong, b, em, i, u, s, ul, ol, li, a, h2-h4, blockquote, img, iframe. h1 becomes
 *   h2 (the page's title is its h1), h5/h6 become h4. Anything else is dropped with its tags; the
 *   text of harmless ones stays, the content of script-like and foreign ones (script, style,
 *   template, noscript, svg, math, …) goes with them.
 * - a: href http(s), mailto or a path on this site; anything else unwraps the link to its text.
 *   External links get rel="noopener noreferrer nofollow"; target survives only as _blank.
 * - img: only our uploads (`/uploads/<hash>...`; an absolute URL on PUBLIC_URL becomes relative),
 *   with alt, numeric width/height, and lazy loading. Any other image is dropped.
 * - iframe: only YouTube (rewritten to youtube-nocookie.com) and Vimeo player embed URLs, with a
 *   fixed set of attributes. Any other iframe is dropped with its content.
 * - No style, class, id, data-* or event attribute, no data: or javascript: URL anywhere.
 *
 * Idempotent: sanitising the output again gives the same output (tests/unit/sanitize-blog.test.ts).
 */
interface BlogHtmlOptions {
  /** The store's PUBLIC_URL: links to it count as internal, and its upload URLs become relative. */
  publicUrl?: string;
}

const BLOG_TEXT_TAGS = [
  'p',
  'br',
  'strong',
  'b',
  'em',
  'i',
  'u',
  's',
  'ul',
  'ol',
  'li',
  'h2',
  'h3',
  'h4',
  'blockquote',
];
/**
 * Allowed tags whose value failed its check, by their (transformed) attributes object: 'element'
 * drops the tag with its content (an image or iframe from elsewhere), 'tag' keeps the content (a
 * link to nowhere allowed). Read by `exclusiveFilter` when the tag closes. Renaming the tag to a
 * disallowed one instead would trip sanitize-html 2.17, which then closes the next sibling under
 * that name.
 */
const rejected = new WeakMap<sanitizeHtml.Attributes, 'tag' | 'element'>();
function reject(tagName: string, how: 'tag' | 'element'): sanitizeHtml.Tag {
  const attribs: sanitizeHtml.Attributes = {};
  rejected.set(attribs, how);
  return { tagName, attribs };
}
/** Disallowed tags whose content goes too: raw text, scripts, templates and foreign content. */
const CONTENT_DROPPED_TAGS = [
  'script',
  'style',
  'textarea',
  'option',
  'select',
  'xmp',
  'noscript',
  'noembed',
  'noframes',
  'template',
  'title',
  'head',
  'svg',
  'math',
  'object',
  'iframe',
  'frame',
  'frameset',
  'plaintext',
];
const YOUTUBE_HOSTS = new Set(['www.youtube-nocookie.com', 'youtube-nocookie.com', 'www.youtube.com', 'youtube.com']);
const YOUTUBE_EMBED_PATH = /^\/embed\/([A-Za-z0-9_-]{11})$/;
const VIMEO_PLAYER_PATH = /^\/video\/(\d{1,12})$/;
const DIMENSION = /^\d{1,5}$/;
/** Where relative URLs resolve when PUBLIC_URL is not given (never a real host). */
const RELATIVE_BASE = 'https://relative.invalid/';
/** Control characters: browsers strip tabs and newlines inside URLs, so `java\tscript:` would run. */
// eslint-disable-next-line no-control-regex -- matching control characters is this pattern's purpose
const URL_CONTROL = /[\u0000-\u001f\u007f]/;

interface CheckedUrl {
  href: string;
  /** A different site: the link gets rel="noopener noreferrer nofollow". */
  external: boolean;
}

/** A link target in canonical form, or null when it must not be a link. */
function checkHref(raw: string, site: URL): CheckedUrl | null {
  const value = raw.trim();
  if (!value || URL_CONTROL.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, site);
  } catch {
    return null;
  }
  if (url.protocol === 'mailto:') return { href: url.href, external: false };
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username || url.password) return null;
  if (url.origin !== site.origin) return { href: url.href, external: true };
  // Same site: a path (kept relative so the post moves with the domain), or a bare #fragment.
  if (value.startsWith('#')) return { href: url.hash || '#', external: false };
  return { href: `${url.pathname}${url.search}${url.hash}`, external: false };
}

/** An image source in canonical form (`/uploads/...`), or null when it is not one of our uploads. */
function checkImageSrc(raw: string, site: URL): string | null {
  const value = raw.trim();
  if (!value || URL_CONTROL.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, site);
  } catch {
    return null;
  }
  if (url.origin !== site.origin || url.search || url.hash || url.username || url.password) return null;
  return isUploadPath(url.pathname) ? url.pathname : null;
}

/** A video embed in canonical form with its provider's name, or null for anything else. */
function checkEmbedSrc(raw: string): { src: string; provider: string } | null {
  const value = raw.trim();
  if (URL_CONTROL.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || url.username || url.password || url.port) return null;
  if (YOUTUBE_HOSTS.has(url.hostname)) {
    const id = YOUTUBE_EMBED_PATH.exec(url.pathname)?.[1];
    // youtube-nocookie.com: no cookies until the visitor plays the video.
    return id ? { src: `https://www.youtube-nocookie.com/embed/${id}`, provider: 'YouTube' } : null;
  }
  if (url.hostname === 'player.vimeo.com') {
    const id = VIMEO_PLAYER_PATH.exec(url.pathname)?.[1];
    if (!id) return null;
    // Unlisted Vimeo videos need their privacy hash.
    const hash = url.searchParams.get('h');
    const query = hash && /^[0-9a-f]{6,32}$/.test(hash) ? `?h=${hash}` : '';
    return { src: `https://player.vimeo.com/video/${id}${query}`, provider: 'Vimeo' };
  }
  return null;
}

function dimensions(attribs: sanitizeHtml.Attributes): Record<string, string> {
  const checked: Record<string, string> = {};
  for (const name of ['width', 'height']) {
    const value = attribs[name]?.trim();
    if (value && DIMENSION.test(value)) checked[name] = String(Number(value));
  }
  return checked;
}

/** Plain text for an attribute (alt, title): no control characters, one line, bounded. */
function attributeText(value: string | undefined, max: number): string {
  return (value ?? '')
    .replace(new RegExp(URL_CONTROL.source, 'g'), ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, max)
    .trim();
}

/**
 * The options for one call. `insideIframe` counts open tags from an allowed-or-not iframe down:
 * a browser reads an iframe's content as raw text and never shows it, so none is kept (only
 * its own tag's transform runs at depth 1).
 */
/** sanitize-html 2.17 takes `allowedEmptyAttributes`; its type definitions do not list it yet. */
interface BlogSanitizeOptions extends sanitizeHtml.IOptions {
  allowedEmptyAttributes: string[];
}

function blogHtmlOptions(site: URL): BlogSanitizeOptions {
  let insideIframe = 0;
  const unlessInIframe =
    (transform: sanitizeHtml.Transformer): sanitizeHtml.Transformer =>
    (tagName, attribs) =>
      insideIframe > 1 ? reject(tagName, 'element') : transform(tagName, attribs);
  const keep = (tagName: string): sanitizeHtml.Transformer => unlessInIframe(() => ({ tagName, attribs: {} }));
  return {
    onOpenTag: (name) => {
      if (name === 'iframe' || insideIframe > 0) insideIframe += 1;
    },
    onCloseTag: () => {
      if (insideIframe > 0) insideIframe -= 1;
    },
    allowedTags: [...BLOG_TEXT_TAGS, 'a', 'img', 'iframe'],
    allowedAttributes: {
      a: ['href', 'target', 'rel'],
      img: ['src', 'alt', 'width', 'height', 'loading', 'decoding'],
      iframe: ['src', 'title', 'width', 'height', 'allowfullscreen', 'loading', 'referrerpolicy', 'allow'],
    },
    allowedEmptyAttributes: ['alt', 'allowfullscreen'],
    allowedSchemes: ['http', 'https', 'mailto'],
    allowedSchemesByTag: { img: [], iframe: ['https'] },
    allowProtocolRelative: false,
    allowedIframeHostnames: ['www.youtube-nocookie.com', 'player.vimeo.com'],
    allowIframeRelativeUrls: false,
    disallowedTagsMode: 'discard',
    nonTextTags: CONTENT_DROPPED_TAGS,
    // Deeper nesting than any editor makes is flattened (its text kept): no parser stress.
    nestingLimit: 40,
    parseStyleAttributes: false,
    transformTags: {
      // Every allowed text tag loses all its attributes (style, class, id, on*, data-*).
      ...Object.fromEntries(BLOG_TEXT_TAGS.map((tag) => [tag, keep(tag)])),
      h1: keep('h2'),
      h5: keep('h4'),
      h6: keep('h4'),
      a: unlessInIframe((_tag, attribs) => {
        const checked = attribs.href === undefined ? null : checkHref(attribs.href, site);
        if (!checked) return reject('a', 'tag');
        const blank = attribs.target?.trim().toLowerCase() === '_blank';
        const rel = checked.external ? 'noopener noreferrer nofollow' : blank ? 'noopener' : undefined;
        return {
          tagName: 'a',
          attribs: { href: checked.href, ...(blank ? { target: '_blank' } : {}), ...(rel ? { rel } : {}) },
        };
      }),
      img: unlessInIframe((_tag, attribs) => {
        const src = attribs.src === undefined ? null : checkImageSrc(attribs.src, site);
        if (!src) return reject('img', 'element');
        return {
          tagName: 'img',
          attribs: {
            src,
            alt: attributeText(attribs.alt, 300),
            ...dimensions(attribs),
            loading: 'lazy',
            decoding: 'async',
          },
        };
      }),
      iframe: unlessInIframe((_tag, attribs) => {
        const embed = attribs.src === undefined ? null : checkEmbedSrc(attribs.src);
        if (!embed) return reject('iframe', 'element');
        return {
          tagName: 'iframe',
          attribs: {
            src: embed.src,
            title: attributeText(attribs.title, 200) || `${embed.provider} video`,
            ...dimensions(attribs),
            allow: 'fullscreen; picture-in-picture; encrypted-media',
            allowfullscreen: '',
            loading: 'lazy',
            // The store's pages send no referrer; YouTube's player refuses to play without one.
            referrerpolicy: 'strict-origin-when-cross-origin',
          },
        };
      }),
    },
    exclusiveFilter: (frame) => {
      const how = rejected.get(frame.attribs);
      return how === 'tag' ? 'excludeTag' : how === 'element';
    },
    textFilter: (text) => (insideIframe > 0 ? '' : text),
  };
}

/**
 * Passes until the output reads back as itself. Dropping a tag can leave a structure that the
 * parser reads differently the next time (`<p><x><p>` keeps a p inside a p, which a second parse
 * splits into siblings); one more pass settles it, so stored HTML is stable under re-sanitising.
 */
const MAX_PASSES = 4;

export function sanitizeBlogHtml(html: string, options: BlogHtmlOptions = {}): string {
  const site = new URL(new URL(options.publicUrl ?? RELATIVE_BASE).origin);
  let output = sanitizeHtml(html, blogHtmlOptions(site));
  for (let pass = 1; pass < MAX_PASSES; pass += 1) {
    const again = sanitizeHtml(output, blogHtmlOptions(site));
    if (again === output) break;
    output = again;
  }
  return output;
}
