/**
 * A post's status in the owner's words, from its publish time: the editor's hint and buttons and the
 * preview's banner say the same thing. Times are the owner's own (the browser's time zone).
 */
export type PostStatus = 'draft' | 'scheduled' | 'published';

export function postStatusOf(publishedAt: string | null, now = new Date()): PostStatus {
  if (publishedAt === null) return 'draft';
  return publishedAt > now.toISOString() ? 'scheduled' : 'published';
}

export function postStatusWords(publishedAt: string | null, now = new Date()): string {
  const status = postStatusOf(publishedAt, now);
  if (publishedAt === null || status === 'draft') return 'This post is a draft';
  const when = new Date(publishedAt).toLocaleString();
  return status === 'scheduled' ? `Scheduled for ${when}` : `Published ${when}`;
}

/** The preview's banner: what a visitor would see of the post today. */
export function previewBannerWords(publishedAt: string | null, now = new Date()): string {
  const status = postStatusOf(publishedAt, now);
  if (publishedAt === null || status === 'draft') return 'Preview — not published';
  const when = new Date(publishedAt).toLocaleString();
  return status === 'scheduled' ? `Preview — scheduled for ${when}` : `Preview — published ${when}`;
}
