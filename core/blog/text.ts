/**
 * Text rules of the blog: folding for search and slugs, slugs, the plain text of a post's HTML,
 * the derived shortDesc, reading time and the search keyword's tokens. Pure functions.
 */
import sanitizeHtml from 'sanitize-html';

/** Letters that Unicode does not decompose into a base letter and a mark. */
const UNDECOMPOSABLE: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
};

/** Lowercase with accents folded ("Café Crème" → "cafe creme"): search text, keywords, category keys. */
export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[ßæœøłđðþı]/g, (letter) => UNDECOMPOSABLE[letter] ?? letter);
}

export const SLUG_MAX_LENGTH = 80;

/**
 * A URL slug from any text: lowercase ASCII letters and digits joined by single hyphens, accents
 * folded, at most SLUG_MAX_LENGTH characters (cut at a hyphen when there is one to cut at).
 * All digits would read as a post id in `/api/blog/{id or slug}`, so such slugs get a `post-`
 * prefix. Empty when the text has no letter or digit at all.
 */
export function slugify(text: string): string {
  let slug = fold(text)
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (/^\d+$/.test(slug)) slug = `post-${slug}`;
  if (slug.length > SLUG_MAX_LENGTH) {
    const cut = slug.slice(0, SLUG_MAX_LENGTH + 1);
    const lastHyphen = cut.lastIndexOf('-');
    slug = (lastHyphen > SLUG_MAX_LENGTH / 2 ? cut.slice(0, lastHyphen) : cut.slice(0, SLUG_MAX_LENGTH)).replace(
      /-+$/,
      '',
    );
  }
  return slug;
}

/** `base`, `base-2`, `base-3`, … the first that `taken` does not hold; the suffix fits within the length limit. */
export function uniqueSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n += 1) {
    const suffix = `-${n}`;
    const candidate = `${base.slice(0, SLUG_MAX_LENGTH - suffix.length).replace(/-+$/, '')}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** Ends of these elements separate words in the plain text ("<p>a</p><p>b</p>" is "a b", not "ab"). */
const BLOCK_END = /<\/(p|h[1-6]|li|ul|ol|blockquote|pre|div|figure|figcaption|td|th|tr)>|<br\s*\/?>|<img\b[^>]*>/gi;

/** The readable text of a post's HTML: tags dropped, entities decoded, whitespace collapsed. */
export function plainTextOf(html: string): string {
  const separated = html.replace(BLOCK_END, '$& ');
  const escaped = sanitizeHtml(separated, { allowedTags: [], allowedAttributes: {} });
  return decodeBasicEntities(escaped).replace(/\s+/g, ' ').trim();
}

/** sanitize-html escapes only these in text. */
function decodeBasicEntities(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#0*39;|&#x0*27;/gi, "'")
    .replace(/&amp;/g, '&');
}

export const SHORT_DESC_LENGTH = 160;

/** A summary of the body for cards and meta descriptions: about 160 characters, cut at a word boundary. */
export function deriveShortDesc(html: string, maxLength = SHORT_DESC_LENGTH): string {
  const text = plainTextOf(html);
  if (text.length <= maxLength) return text;
  const room = text.slice(0, maxLength); // leaves a character for the ellipsis
  const lastSpace = room.lastIndexOf(' ');
  const cut = lastSpace > maxLength / 2 ? room.slice(0, lastSpace) : room.slice(0, maxLength - 1);
  return `${cut.replace(/[\s,;:.!?\-–—]+$/u, '')}…`;
}

export const WORDS_PER_MINUTE = 200;

export function wordCount(text: string): number {
  return text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
}

/** Minutes to read a post's HTML at 200 words a minute, rounded up, at least 1. */
export function readingMinutes(html: string): number {
  return Math.max(1, Math.ceil(wordCount(plainTextOf(html)) / WORDS_PER_MINUTE));
}

/** At most this many words of a keyword are searched for; each at most this long. */
export const MAX_SEARCH_TOKENS = 8;
export const MAX_TOKEN_LENGTH = 64;

/**
 * The words of a search keyword, folded: runs of letters and digits only. Everything else
 * (quotes, `*`, `-`, `:`, parentheses, `^`) separates words, so no input can be read as FTS5 or
 * tsquery syntax; the caller quotes each word, which also keeps `NEAR`, `AND`, `OR` plain words.
 */
export function searchTokens(keyword: string): string[] {
  const words = fold(keyword).match(/[\p{L}\p{N}]+/gu) ?? [];
  const unique = [...new Set(words.map((word) => word.slice(0, MAX_TOKEN_LENGTH)))];
  return unique.slice(0, MAX_SEARCH_TOKENS);
}

/** Category names: trimmed, inner whitespace collapsed. */
export function normaliseCategoryName(name: string): string {
  return name.replace(/\s+/g, ' ').trim();
}
