/**
 * Dates in the spec's long US format ("November 23, 2026"). Formatted in UTC so the server's
 * HTML and the browser's hydrating render agree whatever the visitor's time zone.
 */
const LONG_US_DATE = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  timeZone: 'UTC',
});

export function formatPostDate(iso: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? '' : LONG_US_DATE.format(time);
}

/** The spec's search rule (sections 2 and 8): trimmed and encoded, or no search at all when empty. */
export function blogSearchPath(text: string): string {
  const keyword = text.trim();
  return keyword ? `/blog?s=${encodeURIComponent(keyword)}` : '/blog';
}

/** Where a category's posts are listed. */
export function categoryPath(slug: string): string {
  return `/blog/category/${encodeURIComponent(slug)}`;
}

export function postPath(slug: string): string {
  return `/blog/${encodeURIComponent(slug)}`;
}
