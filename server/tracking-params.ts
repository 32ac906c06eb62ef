/**
 * Tracking parameters that ads, social posts and newsletters add to links (`utm_*`, click ids).
 * They change nothing on the page, yet a new value per visitor made every such visit miss the
 * page cache and render anew. Pages are rendered and cached for the address without them; the
 * browser keeps the address it was given, so analytics in the page still sees them.
 */

/** Click ids and campaign parameters of the ad and analytics platforms, besides every `utm_*`. */
const TRACKING_NAMES = new Set([
  'gclid',
  'gclsrc',
  'gbraid',
  'wbraid',
  'dclid',
  'fbclid',
  'ttclid',
  'msclkid',
  'twclid',
  'li_fat_id',
  'igshid',
  'yclid',
  'mc_cid',
  'mc_eid',
  '_ga',
  '_gl',
  'srsltid',
]);

export function isTrackingParam(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.startsWith('utm_') || TRACKING_NAMES.has(lower);
}

/**
 * `url` (a path with its query, as a request line has it) without tracking parameters; the other
 * parameters keep their order and spelling. The same string when there is nothing to drop, so
 * the common case costs one `indexOf`.
 */
export function withoutTrackingParams(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return url;
  const parts = url.slice(queryStart + 1).split('&');
  const kept = parts.filter((part) => {
    const equals = part.indexOf('=');
    const rawName = equals === -1 ? part : part.slice(0, equals);
    let name = rawName;
    try {
      name = decodeURIComponent(rawName.replace(/\+/g, ' '));
    } catch {
      // A malformed escape is not a tracking parameter's name: keep it for the page to judge.
    }
    return !isTrackingParam(name);
  });
  if (kept.length === parts.length) return url;
  const path = url.slice(0, queryStart);
  return kept.length === 0 ? path : `${path}?${kept.join('&')}`;
}
