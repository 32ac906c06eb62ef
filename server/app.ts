/**
 * The Fastify application: security headers, compression, the JSON API under /api, static
 * assets, health checks, then every other request to React Router. Built by `buildApp` so
 * tests can run the real thing in-process.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import compress from '@fastify/compress';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController, type RouteOptions } from 'fastify';
import {
  type ZodTypeProvider,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import type { ServerBuild } from 'react-router';
import { Redis } from 'ioredis';
import { checkWritable, describeDatabaseFailure } from '../db/database.ts';
import { blogApi } from './api/blog.ts';
import { adminCatalogueApi, supplierDirectory } from './api/admin-catalogue.ts';
import { createCatalogueEditor } from '../core/catalogue/editor.ts';
import { multipartLimits, uploadFiles, uploadsApi } from './api/uploads.ts';
import { catalogueApi } from './api/catalogue.ts';
import { ordersApi } from './api/orders.ts';
import { checkoutMethods } from '../core/orders/order-deps.ts';
import { simulatedPanelApi } from './api/simulated-panel.ts';
import { orderHistoryApi } from './api/order-history.ts';
import { contactApi } from './api/contact.ts';
import { authApi } from './api/auth.ts';
import { adminOrdersApi } from './api/admin-orders.ts';
import { adminRefillsApi, refillsApi } from './api/refills.ts';
import { renewalsApi } from './api/renewals.ts';
import { adminSubscriptionsApi, subscriptionsApi } from './api/subscriptions.ts';
import { adminRefundsApi } from './api/admin-refunds.ts';
import { refundsApi } from './api/refunds.ts';
import { adminMailApi } from './api/admin-mail.ts';
import { adminDashboardApi } from './api/admin-dashboard.ts';
import { adminSuppliersApi } from './api/admin-suppliers.ts';
import { adminPaymentMethodsApi } from './api/admin-payment-methods.ts';
import { createDashboard } from '../core/admin/dashboard.ts';
import { adminMessagesApi } from './api/admin-messages.ts';
import { reviewsApi } from './api/reviews.ts';
import { adminReviewsApi } from './api/admin-reviews.ts';
import { adminsApi } from './api/admins.ts';
import { adminAuditHook } from './api/admin-audit.ts';
import { createContactInbox } from '../core/contact/inbox.ts';
import { createFailedMailConsole } from '../core/mail/failed-mail.ts';
import { loggerOptions } from './logging.ts';
import { verificationApi } from './api/verification.ts';
import { apiErrorHandler, rateLimitExceeded } from './api/errors.ts';
import { FALLBACK_MESSAGES, apiFallback, createApiRouteTable, isApiPath } from './api/fallback.ts';
import { FailureSchema, failure } from './api/envelope.ts';
import { refuseUnsafeText } from './api/text-guard.ts';
import type { Config } from './config.ts';
import { FAST_PATH_ROUTE, registerMetricsRoute, routeLabel } from './metrics.ts';
import { PageCache } from './page-cache.ts';
import { perRequestCompression } from './compression.ts';
import { CachedPageLog } from './cached-page-log.ts';
import { type PageFastPath, createPageFastPath } from './page-fast-path.ts';
import { createRequestIds } from './request-id.ts';
import type { Store } from './store.ts';
import { pagesPlugin } from './pages.ts';
import { API_CSP } from './security.ts';

/** Node's default keep-alive (5 s) is shorter than most proxies'; avoid racing them. */
const KEEP_ALIVE_MS = 65_000;

/** Methods a fetch Request (and so React Router) refuses to carry. */
const PAGE_UNSUPPORTED_METHODS = new Set(['TRACE', 'TRACK', 'CONNECT']);

interface AppOptions {
  config: Config;
  store: Store;
  /** The React Router server build; omitted in API-only tests. */
  build?: ServerBuild | (() => Promise<ServerBuild>);
  /** Directory of built client assets (build/client). */
  clientDir?: string;
  /** The server's logger, shared with background work; false for none. */
  logger?: false | FastifyBaseLogger;
  /**
   * Connect-style middleware that sees every request before Fastify and calls `next` for those it
   * does not answer: the Vite dev server's (server/dev.ts, `npm run dev`). Never set in production.
   */
  devMiddleware?: (request: IncomingMessage, response: ServerResponse, next: () => void) => void;
}

const ADMIN_BEARER = 'adminBearer';

/** Whether a route runs the admin guard (admin-guard.ts) as one of its own hooks. */
function runsAdminGuard(route: RouteOptions): boolean {
  const hooks = [route.onRequest, route.preHandler].flat();
  return hooks.some((hook) => typeof hook === 'function' && hook.name === 'adminGuard');
}

/**
 * The OpenAPI transform: zod → JSON Schema, plus what the routes' own schemas cannot say. A route
 * with a rate limit can answer 429, and an admin route needs the bearer token (401 without it).
 * The admin plugin guards all its routes in one plugin-wide hook, which route options do not
 * show, so its `admin` tag counts as the guard too.
 */
const documentRouteGuards: typeof jsonSchemaTransform = (input) => {
  const { schema, route } = input;
  const response: Record<string, unknown> = { ...(schema.response as Record<string, unknown> | undefined) };
  const routeConfig = route.config as { rateLimit?: unknown } | undefined;
  if (routeConfig?.rateLimit !== undefined) response['429'] ??= FailureSchema;
  // Any request body can be refused before the route sees it (not JSON, empty under a JSON type).
  const takesBody = [route.method].flat().some((method) => ['POST', 'PUT', 'PATCH'].includes(method.toUpperCase()));
  if (takesBody) response['400'] ??= FailureSchema;
  const guarded = runsAdminGuard(route) || (schema.tags ?? []).includes('admin');
  if (guarded) {
    response['401'] ??= FailureSchema;
    // Admin roles (decision 041): a route the caller's role may not use answers 403.
    response['403'] ??= FailureSchema;
  }
  return jsonSchemaTransform({
    ...input,
    schema: {
      ...schema,
      ...(Object.keys(response).length > 0 ? { response } : {}),
      ...(guarded ? { security: [{ [ADMIN_BEARER]: [] }] } : {}),
    },
  });
};

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, store } = options;
  const { services } = store;
  // Pages and their cache exist only with a server build; fresh cached pages are answered before
  // Fastify (server/page-fast-path.ts, decision 035).
  const pageCache = options.build
    ? new PageCache({
        maxSeconds: config.PAGE_CACHE_SECONDS,
        onLookup: (result) => store.metrics.recorder.recordPageCache(result),
      })
    : null;
  const contentVersion = combinedContentVersion(services);
  let fastPath: PageFastPath | null = null;
  // One id sequence for both ways in: Fastify's requests and the cached pages answered before it.
  const requestIds = createRequestIds();
  const app = Fastify({
    ...(options.logger === false
      ? { logger: false }
      : options.logger
        ? { loggerInstance: options.logger }
        : { logger: loggerOptions(config.LOG_LEVEL) }),
    // Our onResponse hook writes one line per request instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    requestIdHeader: 'x-request-id',
    genReqId: requestIds,
    // Fastify accepts a hop count too; its option type leaves numbers out.
    trustProxy: config.TRUST_PROXY as boolean | string,
    keepAliveTimeout: KEEP_ALIVE_MS,
    // Fastify's default (100) sends a longer path parameter past its route to the not-found
    // answer; up to this length the route's own schema refuses it with a 400 naming the field.
    routerOptions: { maxParamLength: 1000 },
    // Fastify's own HTTP server, with the dev middleware and the page fast path in front of it.
    serverFactory: (fastifyHandler) => {
      const devMiddleware = options.devMiddleware;
      const server = http.createServer((request, response) => {
        if (fastPath?.serve(request, response)) return;
        if (devMiddleware) devMiddleware(request, response, () => fastifyHandler(request, response));
        else fastifyHandler(request, response);
      });
      // What Fastify does to a server it makes itself (fastify/lib/server.js), with its defaults
      // for the timeouts we do not set: none per request, none per idle connection.
      server.keepAliveTimeout = KEEP_ALIVE_MS;
      server.requestTimeout = 0;
      server.setTimeout(0);
      return server;
    },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Before any route: every /api route is recorded, so unmatched /api requests can be told 404 or 405.
  const apiRoutes = createApiRouteTable();
  apiRoutes.watch(app);

  // One log line per request, with its id, outcome and duration.
  app.addHook('onResponse', async (request, reply) => {
    store.metrics.observeRequest(
      request.method,
      routeLabel(request.routeOptions.url),
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    request.log.info(
      { method: request.method, url: request.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime) },
      'request',
    );
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  // Every admin request that changes something lands in the audit log before its reply leaves (decision 041).
  app.addHook('onSend', adminAuditHook(store.database.db, store.adminAuth.clock));

  app.setErrorHandler(apiErrorHandler);
  // No control or text-direction character in any field of any request (body, query, params).
  app.addHook('preValidation', refuseUnsafeText);
  // Pages are rendered through a fetch Request, which cannot carry TRACE, TRACK or CONNECT (it
  // throws: a 500). No page takes them: 405. The /api fallback answers its own 405 with `Allow`.
  app.addHook('onRequest', async (request, reply) => {
    if (!PAGE_UNSUPPORTED_METHODS.has(request.method) || isApiPath(request.url)) return;
    return reply
      .status(405)
      .header('allow', 'GET, HEAD, POST')
      .header('cache-control', 'no-store')
      .send(failure(FALLBACK_MESSAGES.methodNotAllowed));
  });

  await app.register(helmet, {
    // Pages get a per-response CSP with a script nonce (server/security.ts); this is the default.
    contentSecurityPolicy: false,
    crossOriginEmbedderPolicy: false,
    // Helmet's default HSTS header (true), only for a production site served over HTTPS.
    hsts: config.isProduction && config.PUBLIC_URL.startsWith('https:'),
  });
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('content-security-policy', API_CSP);
  });
  // Per-route limits (`config.rateLimit`) on the calls that cost us or reveal something. With
  // REDIS_URL every instance counts in one place; while Redis is unreachable requests pass
  // unlimited (and it is logged) rather than checkout and login failing with a 500.
  const rateLimitRedis = config.REDIS_URL
    ? new Redis(config.REDIS_URL, { connectTimeout: 2_000, maxRetriesPerRequest: 1 })
    : null;
  if (rateLimitRedis) {
    rateLimitRedis.on('error', (error: Error) =>
      app.log.warn({ err: error.message }, 'rate limits: Redis unreachable'),
    );
    app.addHook('onClose', async () => rateLimitRedis.disconnect());
  }
  await app.register(rateLimit, {
    global: false,
    ...(rateLimitRedis ? { redis: rateLimitRedis, skipOnError: true } : {}),
    errorResponseBuilder: rateLimitExceeded,
  });
  // Multipart bodies (image uploads, the blog form) for every route; each reads its parts itself.
  await app.register(multipart, { limits: multipartLimits(config.UPLOAD_MAX_BYTES) });
  await app.register(compress, perRequestCompression);

  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Boostly store API',
        version: '1.0.0',
        description:
          'Every reply is `{ isSuccessful, message, data }`; a refused input adds `errors: [{ field, message }]`. ' +
          'An unknown /api path answers 404 and a wrong method 405 (with `Allow`), in the same envelope.',
      },
      components: {
        securitySchemes: {
          [ADMIN_BEARER]: { type: 'http', scheme: 'bearer', description: 'The `access_token` from the admin login' },
        },
      },
    },
    transform: documentRouteGuards,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  app.get('/api/openapi.json', { schema: { hide: true } }, () => app.swagger());

  await app.register(
    async (api) => {
      await api.register(catalogueApi, { catalogue: services.catalogue });
      await api.register(adminCatalogueApi, {
        editor: createCatalogueEditor({
          db: store.database.db,
          catalogue: store.catalogue,
          suppliers: supplierDirectory(store.database.db),
          now: store.adminAuth.clock,
        }),
        authenticate: (token) => store.adminAuth.authenticate(token),
      });
      await api.register(blogApi, {
        blog: services.blog,
        authenticate: (token) => store.adminAuth.authenticate(token),
        maxImageBytes: config.UPLOAD_MAX_BYTES,
      });
      await api.register(uploadsApi, {
        dataDir: config.dataDir,
        maxBytes: config.UPLOAD_MAX_BYTES,
        authenticate: (token) => store.adminAuth.authenticate(token),
      });
      await api.register(verificationApi, {
        verifier: store.verifier,
        laneNotice: (slug, target) => store.orders.laneNotice(slug, target),
      });
      await api.register(ordersApi, {
        catalogue: store.catalogue,
        orders: store.orders,
        gateways: store.gateways,
        checkoutMethods: () => checkoutMethods({ db: store.database.db, gateways: store.gateways }),
      });
      await api.register(orderHistoryApi, { history: store.history });
      await api.register(contactApi, { contact: store.contact });
      await api.register(reviewsApi, { reviews: store.reviews });
      await api.register(adminReviewsApi, {
        reviews: store.reviews,
        authenticate: (token) => store.adminAuth.authenticate(token),
      });
      await api.register(authApi, { auth: store.adminAuth });
      await api.register(adminsApi, {
        team: store.adminAuth.team,
        db: store.database.db,
        authenticate: (token) => store.adminAuth.authenticate(token),
      });
      await api.register(adminOrdersApi, {
        console: store.ordersConsole,
        authenticate: (token) => store.adminAuth.authenticate(token),
      });
      await api.register(refillsApi, { refills: store.refills });
      await api.register(renewalsApi, { renewals: store.renewals });
      await api.register(adminRefillsApi, {
        refills: store.refills,
        authenticate: (token) => store.adminAuth.authenticate(token),
      });
      await api.register(subscriptionsApi, { cancels: store.subscriptionCancels });
      await api.register(adminSubscriptionsApi, {
        cancels: store.subscriptionCancels,
        authenticate: (token) => store.adminAuth.authenticate(token),
      });
      await api.register(adminRefundsApi, {
        refunds: { db: store.database.db, gateways: store.gateways, now: store.adminAuth.clock },
        authenticate: (token) => store.adminAuth.authenticate(token),
      });
      await api.register(refundsApi, { links: store.services.refundLinks });
      const failedMail = createFailedMailConsole({ db: store.database.db });
      await api.register(adminMailApi, {
        failedMail,
        authenticate: (token) => store.adminAuth.authenticate(token),
      });
      await api.register(adminDashboardApi, {
        dashboard: createDashboard({ db: store.database.db, now: store.adminAuth.clock }),
        failedMail,
        suppliers: store.suppliers,
        authenticate: (token) => store.adminAuth.authenticate(token),
      });
      await api.register(adminSuppliersApi, {
        suppliers: store.suppliers,
        authenticate: (token) => store.adminAuth.authenticate(token),
      });
      await api.register(adminPaymentMethodsApi, {
        db: store.database.db,
        gateways: store.gateways,
        authenticate: (token) => store.adminAuth.authenticate(token),
      });
      await api.register(adminMessagesApi, {
        inbox: createContactInbox({
          db: store.database.db,
          publicUrl: config.PUBLIC_URL,
          supportEmail: store.contact.supportEmail,
        }),
        authenticate: (token) => store.adminAuth.authenticate(token),
      });
    },
    { prefix: '/api' },
  );
  // Unknown /api paths and wrong methods answer JSON (404, 405), never the HTML not-found page.
  await app.register(apiFallback(apiRoutes));

  // The built-in supplier panel, reachable over HTTP like a real one (tools, other instances).
  if (store.simulatedPanel) await app.register(simulatedPanelApi, { panel: store.simulatedPanel });

  // Uploaded images (DATA_DIR/uploads), by content hash.
  await app.register(uploadFiles, { dataDir: config.dataDir });

  registerMetricsRoute(app, store.metrics, config.METRICS_TOKEN);
  app.get('/healthz', { schema: { hide: true } }, () => ({ status: 'ok' }));
  // Ready means the store can write: a full disk, a read-only or corrupt database answer 503
  // with the cause, and the cause is logged once each time it changes (not on every probe).
  let lastReadinessCause: string | null = null;
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    try {
      await checkWritable(store.database.db);
      if (lastReadinessCause !== null) app.log.info('readiness: the database can write again');
      lastReadinessCause = null;
      return { status: 'ready', database: store.database.dialect };
    } catch (error) {
      const failure = describeDatabaseFailure(error);
      if (failure.cause !== lastReadinessCause) {
        app.log.error({ cause: failure.cause, reason: failure.message }, `not ready: ${failure.message}`);
      }
      lastReadinessCause = failure.cause;
      reply.status(503);
      return { status: 'unavailable', cause: failure.cause, reason: failure.message };
    }
  });

  if (options.clientDir) {
    await app.register(fastifyStatic, {
      root: path.resolve(options.clientDir),
      wildcard: false,
      index: false,
      preCompressed: true,
      setHeaders(reply: { header(name: string, value: string): unknown }, filePath: string) {
        // Vite fingerprints everything under assets/, so those never change under their name.
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
      },
    });
  }

  if (options.build && pageCache) {
    await app.register(pagesPlugin, {
      build: options.build,
      mode: config.isProduction ? 'production' : 'development',
      services,
      pageCache,
      contentVersion,
      razorpayCheckout: store.gateways.provider('razorpay') !== undefined,
    });
    if (pageCache.enabled) {
      const pages = createPageFastPath({
        pageCache,
        contentVersion,
        requestIds,
        log: new CachedPageLog(() => app.log),
        observe: (method, status, seconds) => store.metrics.observeRequest(method, FAST_PATH_ROUTE, status, seconds),
      });
      // While closing, Fastify answers new requests 503 (and in-flight ones finish): let it.
      app.addHook('preClose', async () => pages.stop());
      fastPath = pages;
    }
  }

  return app;
}

/**
 * The page cache's key part: changes whenever the catalogue, the blog or the approved reviews do. The blog's version
 * is read from the database (core/blog), so other instances' posts show here too (within about a
 * second); the pair is folded into one local counter, which the cache key wants as a number.
 */
function combinedContentVersion(services: Store['services']): () => number {
  // Compared as numbers: this runs for every cached page, and a key string per call cost more
  // than the rest of the look-up.
  let catalogue = Number.NaN;
  let blog = Number.NaN;
  let reviews = Number.NaN;
  let version = 0;
  return () => {
    const nowCatalogue = services.catalogue.version();
    const nowBlog = services.blog.knownContentVersion();
    const nowReviews = services.reviews.knownContentVersion();
    if (nowCatalogue !== catalogue || nowBlog !== blog || nowReviews !== reviews) {
      catalogue = nowCatalogue;
      blog = nowBlog;
      reviews = nowReviews;
      version += 1;
    }
    return version;
  };
}
