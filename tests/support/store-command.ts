/**
 * How the tests start the store's own commands: as `npm start` and the owner's CLIs run them, from
 * their bundles in server-build/ (scripts/build-server.mjs, decision 075). Vitest's global setup and
 * the browser suites' server make sure the bundles are fresh first (`ensureStoreCommands`).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

/** The bundles a test can start: the server and the CLIs (see scripts/build-server.mjs). */
export type StoreCommand = 'main' | 'admin' | 'db-migrate' | 'backup-database' | 'restore-database';

/** Node's arguments that run `command`, relative to the project root (the child's cwd). */
export function storeCommandArgs(command: StoreCommand, ...args: string[]): string[] {
  return ['--enable-source-maps', `server-build/${command}.mjs`, ...args];
}

/** Builds server-build/ when it is missing or older than a source file; throws if the build fails. */
export function ensureStoreCommands(): void {
  const result = spawnSync(process.execPath, ['scripts/build-if-needed.mjs', '--server'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`building server-build/ failed (exit ${result.status ?? result.signal})`);
}
