/**
 * A real server process (`server/main.ts`) on a free port, for tests that kill one (SIGKILL) and
 * start another on the same database. Resolves once it answers /readyz.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { root } from './app.ts';
import { freePort } from './free-port.ts';
import { waitFor } from './wait-for.ts';

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  exited: Promise<NodeJS.Signals | number | null>;
  output: () => string;
}

export async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
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
