/**
 * Every request under /api that no route takes gets a JSON answer in the envelope, never the
 * HTML not-found page that the pages catch-all (`/*`) would render:
 *
 * - a path some /api route serves, with another method: 405 'Method not allowed' and an `Allow`
 *   header listing the methods it does serve;
 * - OPTIONS on such a path: 204 with the same `Allow` header (no CORS: browsers on other
 *   origins still get no `Access-Control-Allow-*` header);
 * - any other path: 404 'Not found'.
 *
 * Fastify's router cannot say which other methods a path has, so every /api route is also
 * recorded (an `onRoute` hook) in a find-my-way router of our own, the same router and options
 * Fastify uses, and asked for each method in turn.
 */
import type { FastifyInstance, FastifyPluginAsync, RouteOptions } from 'fastify';
import FindMyWay from 'find-my-way';
import { failure } from './envelope.ts';

type Method = FindMyWay.HTTPMethod;

const API_PREFIX = '/api';

export const FALLBACK_MESSAGES = { notFound: 'Not found', methodNotAllowed: 'Method not allowed' } as const;

/** The /api routes the app serves, by method and path pattern. */
interface ApiRouteTable {
  /** Every route registered on `app` from now on (and on its child plugins) is recorded. */
  watch(app: FastifyInstance): void;
  /** The methods some route serves for this URL (its query string is ignored), in a fixed order. */
  allowedMethods(url: string): Method[];
}

export const isApiPath = (url: string) => url === API_PREFIX || url.startsWith(`${API_PREFIX}/`);

/** Allow headers list methods in this order; anything else follows alphabetically. */
const METHOD_ORDER: readonly string[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const byMethodOrder = (a: string, b: string) => {
  const ia = METHOD_ORDER.indexOf(a);
  const ib = METHOD_ORDER.indexOf(b);
  if (ia !== -1 || ib !== -1) return (ia === -1 ? METHOD_ORDER.length : ia) - (ib === -1 ? METHOD_ORDER.length : ib);
  return a.localeCompare(b);
};

export function createApiRouteTable(): ApiRouteTable {
  // Fastify's own defaults (case-sensitive, trailing slash significant), so we agree on matches.
  const router = FindMyWay({ caseSensitive: true, ignoreTrailingSlash: false, ignoreDuplicateSlashes: false });
  const methods = new Set<Method>();
  const noop = () => undefined;

  function record(route: RouteOptions): void {
    if (!isApiPath(route.url) || route.config?.apiFallback === true) return;
    for (const method of [route.method].flat() as Method[]) {
      // Two plugins may serve one pattern under different constraints; one entry is enough here.
      if (router.hasRoute(method, route.url)) continue;
      router.on(method, route.url, noop);
      methods.add(method);
    }
  }

  return {
    watch(app) {
      app.addHook('onRoute', record);
    },
    allowedMethods(url) {
      return [...methods].filter((method) => router.find(method, url) !== null).sort(byMethodOrder);
    },
  };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Marks the fallback's own routes, which the route table leaves out. */
    apiFallback?: boolean;
  }
}

/**
 * The catch-all routes for /api and /api/*. Find-my-way prefers them to the pages' `/*` (a longer
 * static prefix wins), so they see every /api request no other route takes. Register without
 * fastify-plugin: the body parser below (which leaves the body unread) stays in this scope, so a
 * refused request is answered 404/405 whatever its body or content type.
 */
export function apiFallback(table: ApiRouteTable): FastifyPluginAsync {
  return async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_request, _payload, done) => done(null));

    for (const url of [API_PREFIX, `${API_PREFIX}/*`]) {
      app.all(url, { schema: { hide: true }, config: { apiFallback: true } }, async (request, reply) => {
        const allowed = table.allowedMethods(request.url);
        reply.header('cache-control', 'no-store');
        if (allowed.length === 0) return reply.status(404).send(failure(FALLBACK_MESSAGES.notFound));
        const allow = [...allowed, ...(allowed.includes('OPTIONS') ? [] : ['OPTIONS'])].join(', ');
        reply.header('allow', allow);
        if (request.method === 'OPTIONS') return reply.status(204).send();
        return reply.status(405).send(failure(FALLBACK_MESSAGES.methodNotAllowed));
      });
    }
  };
}
