/**
 * How scripts and tests start the store's own commands: as `npm start` and the owner's CLIs run
 * them, from their bundles in server-build/ (scripts/build-server.mjs, decision 075), after
 * scripts/build-if-needed.mjs has made the builds fresh.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

/** The bundles there are: the server and the CLIs (the entry points of scripts/build-server.mjs). */
export type StoreCommand = 'main' | 'admin' | 'db-migrate' | 'backup-database' | 'restore-database';

/** Node's arguments that run `command`, relative to the project root (the child's cwd). */
export function storeCommandArgs(command: StoreCommand, ...args: string[]): string[] {
  return ['--enable-source-maps', `server-build/${command}.mjs`, ...args];
}

/**
 * Builds what is missing or older than its sources (scripts/build-if-needed.mjs): the React Router
 * app and the bundles, or with `serverOnly` the bundles alone. Throws if a build fails.
 */
export function buildIfNeeded({ serverOnly = false } = {}): void {
  const result = spawnSync(process.execPath, ['scripts/build-if-needed.mjs', ...(serverOnly ? ['--server'] : [])], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`the build failed (exit ${result.status ?? result.signal})`);
}
