/** Text for XML documents (the feed, the sitemap): escaped, and without characters XML 1.0 forbids. */

// Control characters other than tab, newline and carriage return, lone surrogates and U+FFFE/FFFF.
const NOT_XML_CHARACTER =
  // eslint-disable-next-line no-control-regex -- these exact characters are what XML 1.0 refuses
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

export function escapeXml(text: string): string {
  return text.replace(NOT_XML_CHARACTER, '').replace(/[&<>"']/g, (character) => ENTITIES[character] ?? character);
}

export function xmlResponse(body: string, contentType: string, cacheControl: string): Response {
  return new Response(body, {
    headers: { 'Content-Type': `${contentType}; charset=utf-8`, 'Cache-Control': cacheControl },
  });
}
