/**
 * `npm start`: check the configuration, open and migrate the database, seed an empty
 * catalogue, serve the built store, and shut down cleanly on SIGTERM/SIGINT.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { productionLogger } from './logging.ts';
import { importServerBuild } from './server-build.ts';
import { openStore } from './store.ts';
import { DatabaseUnusable, describeDatabaseFailure } from '../db/database.ts';
import { TotpKeyError } from '../core/auth/totp-keys.ts';

const root = path.resolve(import.meta.dirname, '..');

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const serverEntry = path.join(root, 'build/server/index.js');
  if (!existsSync(serverEntry)) {
    console.error('No build found at build/server/index.js: run `npm run build` (npm start does it for you).');
    process.exit(1);
  }
  const build = await importServerBuild(serverEntry);

  const logger = productionLogger(config.LOG_LEVEL);
  const store = await openStore(config, undefined, { logger }).catch((error: unknown) => {
    // A DATA_DIR that is no writable directory, a read-only, full or corrupt database: one line
    // that names the cause, no stack trace. Anything else is a bug and keeps its stack.
    const failure = databaseFailureAtBoot(error);
    if (!failure) throw error;
    console.error(`Boostly cannot start: ${failure}`);
    process.exit(1);
  });
  const app = await buildApp({ config, store, build, clientDir: path.join(root, 'build/client'), logger });
  store.startBackground();

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => {
      app.log.error('shutdown took longer than 10 s; exiting');
      process.exit(1);
    }, 10_000);
    force.unref();
    await app.close();
    await store.close();
    app.log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.PORT, host: config.HOST });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  app.log.info(
    {
      url: `http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${port}`,
      database: store.database.dialect,
    },
    'Boostly is ready',
  );
  console.log(`Boostly is running at http://localhost:${port} (database: ${store.database.dialect})`);
}

/** What to tell the operator when opening or migrating the database failed for a reason they can fix. */
function databaseFailureAtBoot(error: unknown): string | null {
  if (error instanceof DatabaseUnusable) return error.message;
  // Admins' TOTP secrets the configured keys cannot read (decision 022): names the variable.
  if (error instanceof TotpKeyError) return error.message;
  const failure = describeDatabaseFailure(error);
  return failure.cause === 'other' ? null : failure.message;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
