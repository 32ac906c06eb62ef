/**
 * The tags of a private page, apart from meta.ts so that a page that needs nothing else from it
 * (the order form) does not load the search-and-sharing code in the browser: React Router runs a
 * route's `meta` there too, after a navigation (decision 050, 120 KB first-load budget). meta.ts
 * re-exports both names.
 */
import type { MetaDescriptor } from 'react-router';

export const SITE_NAME = 'Boostly';

/**
 * A private page (checkout, order status, the order lookup, admin, login, not found): a title and
 * `noindex`, nothing for link previews. `nofollow` too where links lead only to more private pages.
 */
export function privatePageMeta(title: string, options: { nofollow?: boolean } = {}): MetaDescriptor[] {
  return [
    { title: `${title} | ${SITE_NAME}` },
    { name: 'robots', content: options.nofollow ? 'noindex, nofollow' : 'noindex' },
  ];
}
