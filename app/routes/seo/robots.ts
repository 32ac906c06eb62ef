/** `/robots.txt`: everything public may be crawled; the sitemap's absolute address (PUBLIC_URL). */
import type { Route } from './+types/robots';
import { CacheStrategy } from '../../cache.ts';
import { absoluteUrl } from '../../components/blog/seo.ts';
import { requestContext } from '../../context.ts';

export function loader({ context }: Route.LoaderArgs) {
  const { publicUrl } = context.get(requestContext).services;
  const body = [
    'User-agent: *',
    // The admin area and the JSON API are not pages for search results.
    'Disallow: /admin',
    'Disallow: /api/',
    '',
    `Sitemap: ${absoluteUrl(publicUrl, '/sitemap.xml')}`,
    '',
  ].join('\n');
  return new Response(body, {
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': CacheStrategy.catalogue },
  });
}
