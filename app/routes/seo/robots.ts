/**
 * `/robots.txt`: everything public may be crawled; private pages (admin, checkout, order status,
 * the order lookup, login) and the JSON API stay out; the sitemap's absolute address (PUBLIC_URL).
 * Each private page also says `noindex` itself, for links from elsewhere (decision 029).
 */
import type { Route } from './+types/robots';
import { CacheStrategy } from '../../cache.ts';
import { requestContext } from '../../context.ts';
import { absoluteUrl } from '../../seo/meta.ts';

/** Path prefixes kept out of crawling: private to a buyer or an admin, or not pages at all. */
const DISALLOWED_PATHS = [
  '/admin',
  '/order',
  '/order-confirm',
  '/order-confrim',
  '/client',
  '/login',
  // A customer's single-use review link (decision 039).
  '/review/',
  // A customer's single-use refund link.
  '/refund/',
  '/api/',
] as const;

export function loader({ context }: Route.LoaderArgs) {
  const { publicUrl } = context.get(requestContext).services;
  const body = [
    'User-agent: *',
    ...DISALLOWED_PATHS.map((path) => `Disallow: ${path}`),
    '',
    `Sitemap: ${absoluteUrl(publicUrl, '/sitemap.xml')}`,
    '',
  ].join('\n');
  return new Response(body, {
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': CacheStrategy.catalogue },
  });
}
