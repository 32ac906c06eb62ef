/** Reading server-rendered HTML in integration tests, without a DOM library. */

/** Decodes the entities React and our XML writers produce (numeric, and the five named ones). */
export function decodeEntities(text: string): string {
  return text
    .replace(/&#x([0-9a-f]+);/gi, (_m, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_m, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The page's visible text: the body without scripts and tags, entities decoded, spaces collapsed. */
export function bodyText(html: string): string {
  const body = html.slice(html.indexOf('<body'));
  return decodeEntities(
    body
      .replace(/<script\b[\s\S]*?<\/script>/g, ' ')
      .replace(/<!--[\s\S]*?-->/g, '')
      .replace(/<[^>]+>/g, ' '),
  )
    .replace(/\s+/g, ' ')
    .trim();
}

/** Every JSON-LD block of a page, as written (so a test can look for a raw `</script`). */
export function jsonLdBlocks(html: string): string[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
    (match) => match[1] ?? '',
  );
}

/**
 * A phone browser's request headers. app/entry.server.tsx sends bots (light-my-request's default
 * user agent is one) the whole document at once, which would hide a part that suspends and is
 * streamed late; people get the shell first, so page tests that look for late parts ask as a phone.
 */
export const PHONE_BROWSER = {
  'user-agent':
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36',
};
