/**
 * Named cache strategies, in the manner of Shopify Hydrogen. A route's `headers` export picks
 * one; the server's page cache honours `public` responses (see server/page-cache.ts).
 */
export const CacheStrategy = {
  /** Catalogue pages: fresh for a minute, then served stale while one request refreshes them. */
  catalogue: 'public, max-age=60, stale-while-revalidate=600',
  /**
   * Public blog pages, the feed and the sitemap. The server's page cache keys them by the blog's
   * content version, so an edited post shows at once there; browsers and proxies may keep a page
   * a minute, and serve it stale for five more only while they refresh it.
   */
  blog: 'public, max-age=60, stale-while-revalidate=300',
  /** Anything personal or stateful: never stored anywhere. */
  none: 'private, no-store',
} as const;
