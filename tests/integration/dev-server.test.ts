/**
 * `npm run dev` (server/dev.ts): the Fastify app with Vite's dev server in front, started as its
 * own process on a spare port with the SQLite defaults, as a developer runs it. A page renders
 * through Vite's on-demand server build, the API answers as in production, and Vite's own client
 * (hot reload) is served from the same port. Production's entry point must not reach Vite.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../support/app.ts';
import { freePort } from '../support/free-port.ts';

describe('npm run dev', () => {
  let dev: ChildProcess | undefined;
  let dataDir: string;
  let url: string;
  let output = '';
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'boostly-dev-'));
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
    // SQLite under DATA_DIR, whatever database the test run itself uses.
    delete env.DATABASE_URL;
    env.NODE_ENV = 'development';
    dev = spawn(process.execPath, ['--import', 'tsx', 'server/dev.ts'], { cwd: root, env });
    const child = dev;
    url = await new Promise<string>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const running = /is running at (http:\/\/\S+)/.exec(output);
        if (running?.[1]) resolve(running[1].replace('localhost', '127.0.0.1'));
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      child.once('exit', (code) => reject(new Error(`npm run dev exited (${code}):\n${output}`)));
    });
  }, 120_000);
  afterAll(async () => {
    if (dev && dev.exitCode === null) {
      const exited = new Promise((resolve) => dev?.once('exit', resolve));
      dev.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  it('renders the home page from the Vite server build, with Vite’s hot-reload client', async () => {
    const response = await fetch(`${url}/`);
    expect(response.status, output).toBe(200);
    const html = await response.text();
    expect(html).toContain('Instagram Followers');
    // Modules come from Vite's on-demand transform, not from a build; Vite's client (which opens
    // the hot-update socket) is served on the same port.
    expect(html.includes('href="/app/root.tsx"'), 'root module served by Vite').toBe(true);
    const client = await fetch(`${url}/@vite/client`);
    expect(client.status).toBe(200);
    expect(client.headers.get('content-type')).toMatch(/javascript/);
    expect(await client.text()).toContain('[vite] connecting');
    // Same security headers as production, with a per-response nonce (the dev page cache is off).
    expect(response.headers.get('content-security-policy')).toMatch(/script-src 'self' 'nonce-/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  }, 120_000);

  it('answers the JSON API through the same app', async () => {
    const response = await fetch(`${url}/api/services`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { isSuccessful: boolean; data: { slug: string }[] };
    expect(body.isSuccessful).toBe(true);
    expect(body.data.map((group) => group.slug)).toContain('instagram');
  });
});

describe('production never loads Vite', () => {
  it('only server/dev.ts imports vite among the files npm start runs', () => {
    const importers: string[] = [];
    for (const folder of ['server', 'core', 'db']) {
      for (const file of readdirSync(path.join(root, folder), { recursive: true, encoding: 'utf8' })) {
        if (!/\.tsx?$/.test(file)) continue;
        const source = readFileSync(path.join(root, folder, file), 'utf8');
        if (/from '(vite|@react-router\/dev[^']*)'|import\('vite'\)|from '\.\/dev\.ts'/.test(source)) {
          importers.push(`${folder}/${file}`);
        }
      }
    }
    expect(importers).toEqual(['server/dev.ts']);
  });
});
