/** The real `npm start` entry point as an operator runs it: boot checks and graceful shutdown. */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { root } from '../support/app.ts';
import { freePort } from '../support/free-port.ts';
import { waitFor } from '../support/wait-for.ts';
import { storeCommandArgs } from '../../scripts/support/store-command.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function startServer(env: Record<string, string>) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'boostly-proc-'));
  dirs.push(dataDir);
  const child = spawn(process.execPath, storeCommandArgs('main'), {
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
    { timeout: 30_000, interval: 100, message: 'the server to answer /readyz' },
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

  // Decision 014: simulated payments must never buy real supplier orders by default.
  const realPanel = { SMM_PANEL_URL: 'http://127.0.0.1:9/api/v2', SMM_PANEL_KEY: 'panel-key' };
  const noRazorpay = { RAZORPAY_KEY_ID: '', RAZORPAY_KEY_SECRET: '', SANDBOX_PAYMENTS: '' };

  it('refuses to boot with a real supplier panel and no payment provider, in one line naming the variables', async () => {
    const server = startServer({ ...realPanel, ...noRazorpay });
    expect(await server.exited).toBe(1);
    const lines = server.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^Refusing to start: SMM_PANEL_URL .*RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET.*SANDBOX_PAYMENTS=allow/,
    );
  });

  it('with SANDBOX_PAYMENTS=allow boots and marks every page, the admin included, as test mode', async () => {
    const port = await freePort();
    const server = startServer({ PORT: String(port), ...realPanel, ...noRazorpay, SANDBOX_PAYMENTS: 'allow' });
    await waitForReady(port, server.child);
    const html = async (url: string) => (await fetch(`http://127.0.0.1:${port}${url}`)).text();
    for (const url of ['/', '/service/instagram-followers', '/order/instagram-followersGOI100?type=Standard']) {
      const page = await html(url);
      expect(page, url).toContain('data-testid="sandbox-notice"');
      expect(page, url).toContain('Test mode: payments are simulated.');
    }
    const admin = await html('/admin');
    expect(admin).toContain('Test mode: payments are simulated.');
    expect(admin).toContain('Set RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET to take real payments.');
    // The sandbox really takes the order: the opt-in is what allows it.
    const order = await fetch(`http://127.0.0.1:${port}/api/order`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        type: 'Standard',
        slug: 'instagram-followers',
        qty: 100,
        name: 'opted.in',
        email: 'opted@example.com',
        order_id: '314159',
      }),
    });
    expect(((await order.json()) as { data: { checkout: { provider: string } } }).data.checkout.provider).toBe(
      'sandbox',
    );
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
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

  it('at the default level, logs one JSON line per request and writes every buffered line before it exits', async () => {
    const port = await freePort();
    const server = startServer({ PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' });
    await waitForReady(port, server.child);
    for (let i = 0; i < 3; i += 1) expect((await fetch(`http://127.0.0.1:${port}/api/services?i=${i}`)).ok).toBe(true);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const entries = server
      .output()
      .trim()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg: string; url?: string; status?: number });
    const requests = entries.filter((entry) => entry.msg === 'request' && entry.url?.startsWith('/api/services'));
    expect(requests.map((entry) => [entry.url, entry.status])).toEqual([
      ['/api/services?i=0', 200],
      ['/api/services?i=1', 200],
      ['/api/services?i=2', 200],
    ]);
    // Written in blocks, yet nothing is lost: the last line, written as the process ends, is there.
    expect(entries.at(-1)?.msg).toBe('stopped');
  });
});
