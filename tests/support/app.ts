/** Builds the real application in-process against a test database. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import type { ServerBuild } from 'react-router';
import type { DialectName } from '../../db/database.ts';
import { useTestHashCost } from '../../core/auth/passwords.ts';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { importServerBuild } from '../../server/server-build.ts';
import { type Store, type StoreOverrides, openStore } from '../../server/store.ts';
import { type TestDatabase, openTestDatabase } from './databases.ts';

export const root = path.resolve(import.meta.dirname, '../..');
const serverBuildPath = path.join(root, 'build/server/index.js');
/** The TOTP_ENCRYPTION_KEY of the apps tests start (32 bytes, base64; a test key only). */
export const TEST_TOTP_ENCRYPTION_KEY = 'dGVzdC1vbmx5IHRvdHAga2V5LCBuZXZlciB1c2UgaXQ=';

export interface TestApp {
  app: FastifyInstance;
  store: Store;
  database: TestDatabase;
  close(): Promise<void>;
}

export async function loadServerBuild(): Promise<ServerBuild> {
  if (!existsSync(serverBuildPath)) {
    throw new Error('No production build: run `npm run build` first (npm test does it).');
  }
  return importServerBuild(serverBuildPath);
}

export async function startTestApp(
  dialect: DialectName,
  options: {
    withPages?: boolean;
    env?: Record<string, string>;
    overrides?: StoreOverrides;
    /** Extra routes for a test, registered after the app's own and before it is ready. */
    routes?: (app: FastifyInstance) => void | Promise<void>;
    /**
     * Another instance of the store over this app's database (its own store, worker and app, as
     * a second server would have); closing it leaves the database to its owner.
     */
    sameDatabaseAs?: TestApp;
  } = {},
): Promise<TestApp> {
  // Admins' passwords hashed at a test cost in this process (production's is checked elsewhere):
  // the login suites spent most of their time in scrypt.
  useTestHashCost();
  const shared = options.sameDatabaseAs?.database;
  const database = shared ? { ...shared, dispose: async () => {} } : await openTestDatabase(dialect);
  const config = loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: path.join(root, '.tmp/unused'),
    LOG_LEVEL: 'silent',
    // Production keeps admins' TOTP secrets only under this key (decision 022).
    TOTP_ENCRYPTION_KEY: TEST_TOTP_ENCRYPTION_KEY,
    ...options.env,
  });
  const store = await openStore(config, database, { logger: pino({ level: 'silent' }), ...options.overrides });
  // Without pages the app is API-only: it gets neither a server build nor client assets.
  const pages = options.withPages ? { build: await loadServerBuild(), clientDir: path.join(root, 'build/client') } : {};
  const app = await buildApp({ config, store, ...pages, logger: false });
  await options.routes?.(app);
  await app.ready();
  return {
    app,
    store,
    database,
    async close() {
      await closeStep('the app (Fastify and its server)', () => app.close());
      await closeStep('the job worker', () => store.worker.stop());
      await closeStep('the mailer', () => store.mailer.close());
      await closeStep('the database', () => database.dispose());
    },
  };
}

/** Longer than any step of a healthy close takes, well inside Vitest's hook timeout (60 s). */
const CLOSE_STEP_MS = 20_000;

/**
 * One step of closing a test app, failing with the step's name when it hangs: a suite's `afterAll`
 * that only says "Hook timed out" gives no clue whether the server, a job or the database pool
 * (a connection never released) is what waits.
 */
async function closeStep(name: string, step: () => Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`closing the test app: ${name} did not finish in ${CLOSE_STEP_MS / 1000} s`)),
      CLOSE_STEP_MS,
    );
  });
  try {
    await Promise.race([step(), hung]);
  } finally {
    clearTimeout(timer);
  }
}
