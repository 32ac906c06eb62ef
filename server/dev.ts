/**
 * `npm run dev`: the same Fastify application as `npm start`, with Vite's dev server in front of
 * it in middleware mode: Vite answers its own requests (/@vite/client, source modules, hot
 * updates over its WebSocket) and hands every other request on to Fastify, whose pages render
 * from the server build Vite compiles on demand (`virtual:react-router/server-build`), so an
 * edit shows on the next request without a restart. SQLite under ./data unless DATABASE_URL is
 * set; the page cache is off (an edit must show at once). Production (`server/main.ts`) never
 * imports this file, nor Vite.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { ServerBuild } from 'react-router';
import { createServer, type ViteDevServer } from 'vite';
import type { DatabaseHandle } from '../db/database.ts';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { developmentLogger } from './logging.ts';
import { type Store, openStore } from './store.ts';

const root = path.resolve(import.meta.dirname, '..');

export interface DevServer {
  app: FastifyInstance;
  vite: ViteDevServer;
  store: Store;
  /** Where it listens, e.g. http://127.0.0.1:5173. */
  url: string;
  close(): Promise<void>;
}

export interface DevServerOptions {
  env?: NodeJS.ProcessEnv;
  /** A database opened by the caller (tests); by default the configured one. */
  database?: DatabaseHandle;
}

export async function startDevServer(options: DevServerOptions = {}): Promise<DevServer> {
  const env = { ...(options.env ?? process.env) };
  // An edit must show on the next request, never a page cached before it.
  env.PAGE_CACHE_SECONDS ??= '0';
  if (env.NODE_ENV === 'production') throw new ConfigError('npm run dev is for development: unset NODE_ENV');
  const config = loadConfig(env);
  const logger = developmentLogger(config.LOG_LEVEL);

  const store = await openStore(config, options.database, { logger });
  // Vite is made after the app so that its hot-update WebSocket shares the app's HTTP server
  // (one port); until then no request can arrive, so the middleware may refer to it lazily.
  const ready: { vite?: ViteDevServer } = {};
  const build = () => {
    if (!ready.vite) throw new Error('The Vite dev server is not ready yet');
    return ready.vite.ssrLoadModule('virtual:react-router/server-build') as Promise<ServerBuild>;
  };
  const app = await buildApp({
    config,
    store,
    build,
    logger,
    devMiddleware: (request, response, next) => {
      if (ready.vite) ready.vite.middlewares(request, response, next);
      else next();
    },
  });
  const devServer = await createServer({
    root,
    server: { middlewareMode: true, hmr: { server: app.server } },
    appType: 'custom',
    logLevel: config.LOG_LEVEL === 'silent' ? 'silent' : 'info',
  });
  ready.vite = devServer;
  store.startBackground();
  await app.listen({ port: config.PORT, host: config.HOST });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;

  return {
    app,
    vite: devServer,
    store,
    url: `http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${port}`,
    async close() {
      await app.close();
      await devServer.close();
      await store.close();
    },
  };
}

async function main() {
  let server: DevServer;
  try {
    server = await startDevServer();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  console.log(`Boostly (dev, hot reload) is running at ${server.url} (database: ${server.store.database.dialect})`);
  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    await server.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown());
  process.on('SIGINT', () => void shutdown());
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
