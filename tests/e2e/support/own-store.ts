/**
 * A store of its own for a spec that changes what other specs read: a configured sale, an edited
 * catalogue. It is the production build (server/main.ts) on a free port with a fresh SQLite data
 * directory, next to the suite's shared server; the shared store keeps its seeded prices and
 * services for the specs running beside (two workers) and after this one.
 *
 * Its admins are made in its database with the calls the admin CLI makes, and given a session
 * directly: logging in is the login suites' subject, and this store has no mail sink to read a
 * code from (its mail goes to files in the data directory).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from '@playwright/test';
import { createAdminAccounts } from '../../../core/auth/admin-accounts.ts';
import { createAdminSessions } from '../../../core/auth/admin-sessions.ts';
import type { AdminRole } from '../../../core/auth/roles.ts';
import { openDatabase } from '../../../db/database.ts';
import { freePort, stopChild, waitFor200 } from '../../../scripts/support/child-process.ts';
import { E2E_ADMIN_PASSWORD } from './admins.ts';
import { storeCommandArgs } from '../../../scripts/support/store-command.ts';

const root = path.resolve(import.meta.dirname, '../../..');

export interface OwnStore {
  /** `http://127.0.0.1:<port>`: prefix every address the spec opens or calls. */
  base: string;
  /** Its data directory: `store.db` (SQLite) and `mail/` (the e-mails it sent, as .eml files). */
  dataDir: string;
  /** A live session token for a verified admin of this store with `role` (made on first use). */
  adminToken(email: string, role: AdminRole): Promise<string>;
  stop(): Promise<void>;
}

/**
 * Starts the store with `env` over the suite's environment; `name` appears in errors. `env` may be
 * made from the store's own address, for settings that must name it: a payment provider's fake
 * started by the spec sends the buyer back to, and its webhooks to, `PUBLIC_URL` (e.g.
 * `(base) => ({ PUBLIC_URL: base, CRYPTOMUS_API_URL: fake.url, … })`).
 */
export async function startOwnStore(
  name: string,
  env: Record<string, string> | ((base: string) => Record<string, string>) = {},
): Promise<OwnStore> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `boostly-e2e-${name}-`));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    TRUST_PROXY: 'true',
    // Queued work (e-mails, order steps) picked up within a tenth of a second, as on the shared store.
    JOB_POLL_MS: '100',
    ...(typeof env === 'function' ? env(base) : env),
  };
  // SQLite in the data directory and mail in files there, whatever the shared store uses.
  delete childEnv.DATABASE_URL;
  delete childEnv.SMTP_URL;
  const child: ChildProcess = spawn(process.execPath, storeCommandArgs('main'), {
    cwd: root,
    env: childEnv,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stop = async () => {
    await stopChild(child);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitFor200(`${base}/readyz`, child, `the ${name} store`, 90_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    base,
    dataDir,
    async adminToken(email, role) {
      // The store has migrated its database by the time it is ready; this is a second connection.
      const handle = openDatabase({ sqlitePath: path.join(dataDir, 'store.db') });
      try {
        const now = () => new Date();
        // Made on first use; a later test of the same spec gets a new session for the same admin.
        const existing = await handle.db
          .selectFrom('admins')
          .select('id')
          .where('email', '=', email)
          .executeTakeFirst();
        const adminId =
          existing?.id ??
          (await createAdminAccounts({ db: handle.db, now }).createAdmin(email, E2E_ADMIN_PASSWORD, role)).id;
        await handle.db.updateTable('admins').set({ is_verified: 1 }).where('id', '=', adminId).execute();
        return (await createAdminSessions({ db: handle.db, now }).issue(adminId, now())).token;
      } finally {
        await handle.close();
      }
    },
    stop,
  };
}

/**
 * Playwright's `test` on a store of its own: one per worker, started before the spec's first test
 * and stopped after its last. `baseURL` points at it, so `page.goto('/…')` and the `request`
 * fixture reach it with the spec's relative addresses; `ownStore.adminToken` makes its admins.
 */
export function testOnOwnStore(name: string, env: Record<string, string> = {}) {
  return test.extend<object, { ownStore: OwnStore }>({
    ownStore: [
      // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from this pattern
      async ({}, use) => {
        const store = await startOwnStore(name, env);
        try {
          await use(store);
        } finally {
          await store.stop();
        }
      },
      { scope: 'worker', timeout: 120_000 },
    ],
    baseURL: async ({ ownStore }, use) => {
      await use(ownStore.base);
    },
  });
}
