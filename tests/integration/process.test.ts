/** The real `npm start` entry point as an operator runs it: boot checks and graceful shutdown. */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { root } from '../support/app.ts';
import { waitFor } from '../support/wait-for.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function startServer(env: Record<string, string>) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'boostly-proc-'));
  dirs.push(dataDir);
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

async function waitForReady(port: number, child: ChildProcess): Promise<void> {
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error('server exited early');
      try {
        return (await fetch(`http://127.0.0.1:${port}/readyz`)).ok;
      } catch {
        return false; // not listening yet
      }
    },
    { timeout: 20_000, interval: 100, message: 'the server to answer /readyz' },
  );
}

/**
 * A POST whose body is held back until `send` is called. The server's `100 Continue` (Node
 * answers it once it has parsed the headers and begun the request) resolves `accepted`: from
 * then on the request is provably in flight inside the server, with no guessing how long that takes.
 */
function heldRequest(port: number, path: string, body: string) {
  const request = httpRequest({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path,
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), expect: '100-continue' },
  });
  const accepted = new Promise<void>((resolve) => request.once('continue', () => resolve()));
  const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.once('error', reject);
    request.once('response', (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.once('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
  });
  request.flushHeaders();
  return { accepted, answered, send: () => request.end(body) };
}

describe('server process', () => {
  it('refuses to boot on a bad value and names the variable', async () => {
    const server = startServer({ PORT: 'not-a-port' });
    expect(await server.exited).toBe(1);
    expect(server.output()).toMatch(/Invalid configuration:\n\s+PORT: /);
  });

  it('migrates and seeds an empty database, serves, and stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    const server = startServer({ PORT: String(port), HOST: '127.0.0.1' });
    await waitForReady(port, server.child);
    const services = (await (await fetch(`http://127.0.0.1:${port}/api/services`)).json()) as { data: unknown[] };
    expect(services.data).toHaveLength(3);

    // A request in flight when SIGTERM arrives still gets its answer.
    const detail = (await (await fetch(`http://127.0.0.1:${port}/api/services/instagram-followers`)).json()) as {
      data: { services: { slug: string; plans: { type: string; list: { qty: number }[] }[] }[] };
    };
    const plan = detail.data.services.find((service) => service.slug === 'instagram-followers')?.plans[0];
    const lookup = { slug: 'instagram-followers', qty: plan?.list[0]?.qty, type: plan?.type };
    const inFlight = heldRequest(port, '/api/order/form-detail', JSON.stringify(lookup));
    await inFlight.accepted;
    server.child.kill('SIGTERM');
    // Shutting down: the server takes no new request…
    await waitFor(
      async () => {
        try {
          return (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 503;
        } catch {
          return true; // no longer listening
        }
      },
      { timeout: 10_000, message: 'the server to refuse new requests' },
    );
    // …but the one it had begun is answered in full.
    inFlight.send();
    const answer = await inFlight.answered;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ isSuccessful: true });
    expect(await server.exited).toBe(0);
  });
});
