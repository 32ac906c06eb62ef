/**
 * Named cache strategies, in the manner of Shopify Hydrogen. A route's `headers` export picks
 * one; the server's page cache honours `public` responses (see server/page-cache.ts).
 */
export const CacheStrategy = {
  /** Catalogue pages: fresh for a minute, then served stale while one request refreshes them. */
  catalogue: 'public, max-age=60, stale-while-revalidate=600',
  /** Anything personal or stateful: never stored anywhere. */
  none: 'private, no-store',
} as const;

export type CacheStrategyName = keyof typeof CacheStrategy;
