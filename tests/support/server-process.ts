/**
 * A real server process (`server/main.ts`) on a free port, for tests that kill one (SIGKILL) and
 * start another on the same database. Resolves once it answers /readyz.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type DatabaseHandle, type DialectName, openDatabase } from '../../db/database.ts';
import { createFreshDatabase } from '../scale/fresh-database.ts';
import { root } from './app.ts';
import { freePort } from './free-port.ts';
import { waitFor } from './wait-for.ts';
import { storeCommandArgs } from '../../scripts/support/store-command.ts';

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  exited: Promise<NodeJS.Signals | number | null>;
  output: () => string;
}

export async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, storeCommandArgs('main'), {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: process.env.CRASH_LOG_LEVEL ?? 'warn',
      PORT: String(port),
      HOST: '127.0.0.1',
      // Its own address: what providers call back (a Cryptomus invoice carries its webhook URL).
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? code)),
  );
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    async () => {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`server exited early:\n${output}`);
      return fetch(`${url}/readyz`).then(
        (response) => response.ok,
        () => false,
      );
    },
    { timeout: 30_000, interval: 100, message: 'the server to answer /readyz' },
  );
  return { url, child, exited, output: () => output };
}

/**
 * A database for server processes started by a test, and the settings that point them at it:
 * on PostgreSQL a fresh database of its own (the processes are separate), on SQLite a file in a
 * data directory. The test reads it through `database`; `close` stops whatever processes are
 * still running (SIGKILL), then drops it all.
 */
export async function processDatabase(dialect: DialectName, name: string) {
  const dataDir = mkdtempSync(path.join(tmpdir(), `boostly-${name}-`));
  const fresh =
    dialect === 'postgres' ? await createFreshDatabase(process.env.TEST_DATABASE_URL ?? '', `boostly_${name}`) : null;
  const database: DatabaseHandle = fresh
    ? openDatabase({ url: fresh.url, poolSize: 2 })
    : openDatabase({ sqlitePath: path.join(dataDir, 'store.db') });
  const servers: ServerProcess[] = [];
  return {
    database,
    /** DATABASE_URL and DATA_DIR for the processes. */
    env: { DATABASE_URL: fresh?.url ?? '', DATA_DIR: dataDir },
    /** Starts a server process on this database (with `env` over its settings) and keeps it to stop. */
    async start(env: Record<string, string>): Promise<ServerProcess> {
      const server = await startServer({ DATABASE_URL: fresh?.url ?? '', DATA_DIR: dataDir, ...env });
      servers.push(server);
      return server;
    },
    async close() {
      for (const server of servers) {
        if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
        await server.exited;
      }
      await database.close();
      await fresh?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
