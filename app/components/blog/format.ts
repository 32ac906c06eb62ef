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

/**
 * When a post went (or goes) live: its publish time, which for a post drafted or scheduled first is
 * later than when it was written. Every public date says this one.
 */
export function publishedDateOf(post: { publishedAt: string | null; createdAt: string }): string {
  return post.publishedAt ?? post.createdAt;
}

/** The last time the public's view of a post changed: an edit, or its going live after it was written. */
export function lastChangeOf(post: { publishedAt: string | null; createdAt: string; updatedAt: string }): string {
  const published = publishedDateOf(post);
  return published > post.updatedAt ? published : post.updatedAt;
}

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
