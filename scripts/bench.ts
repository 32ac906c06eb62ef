/**
 * `npm run bench`: load-test the production build against a bare Node `http` "hello" server.
 *
 * Both servers run pinned to CPU 0 and the load generator (autocannon, in this process) to
 * CPU 1, so the numbers measure one core of the store against one core of plain Node.
 *
 *   BENCH_SECONDS=10      measured seconds per target (after a 3 s warm-up)
 *   BENCH_CONNECTIONS=50  concurrent connections
 *   BENCH_JSON=path       also write the results as JSON to that path
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, closeSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

// autocannon ships no types: describe the small part of its API used here.
interface Histogram {
  average: number;
  p50: number;
  p99: number;
}
interface AutocannonResult {
  requests: Histogram & { total: number };
  latency: Histogram;
  throughput: Histogram;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodeStats: Record<string, { count: number }>;
}
interface AutocannonOptions {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string> | undefined;
}
interface AutocannonInstance {
  stop(): void;
}
type Autocannon = (
  options: AutocannonOptions,
  callback: (error: Error | null, result: AutocannonResult) => void,
) => AutocannonInstance;

const require = createRequire(import.meta.url);
const autocannon = require('autocannon') as Autocannon;

const root = path.resolve(import.meta.dirname, '..');
const WARMUP_SECONDS = 3;

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) {
    console.error(`${name} must be a positive integer (got "${raw}")`);
    process.exit(2);
  }
  return value;
}

const seconds = positiveInt('BENCH_SECONDS', 10);
const connections = positiveInt('BENCH_CONNECTIONS', 50);
const jsonPath = process.env.BENCH_JSON;

const hasTaskset = spawnSync('sh', ['-c', 'command -v taskset'], { stdio: 'ignore' }).status === 0;
const cpuCount = os.cpus().length;
const pin = hasTaskset && cpuCount >= 2;

/** `node args…`, prefixed with `taskset -c 0` when pinning is possible. */
function spawnPinned(args: string[], options: Parameters<typeof spawn>[2]): ChildProcess {
  return pin
    ? spawn('taskset', ['-c', '0', process.execPath, ...args], options)
    : spawn(process.execPath, args, options);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `url` until it answers 200; fails early when `child` exits. */
async function waitFor200(url: string, child: ChildProcess, name: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}) before it became ready`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`${name} did not answer 200 on ${url} within ${timeoutMs / 1000} s`);
}

/** SIGTERM, wait for exit, SIGKILL after 5 s. */
async function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const killTimer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(killTimer);
}

let current: AutocannonInstance | undefined;
function runAutocannon(options: AutocannonOptions): Promise<AutocannonResult> {
  return new Promise((resolve, reject) => {
    current = autocannon(options, (error, result) => {
      current = undefined;
      if (error) reject(error);
      else resolve(result);
    });
  });
}

interface Target {
  name: string;
  url: string;
  headers?: Record<string, string>;
}

interface Row {
  target: string;
  url: string;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  throughputMBps: number;
  ratioToHello: number;
  totalRequests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
}

const HELLO_SERVER = `
const http = require('node:http');
http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end('hello');
}).listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
`;

let tempDir: string | undefined;
let store: ChildProcess | undefined;
let hello: ChildProcess | undefined;
let cleaning: Promise<void> | undefined;

function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    current?.stop();
    await Promise.all([stopChild(store), stopChild(hello)]);
    if (tempDir) rmSync(tempDir, { recursive: true, force: true });
  })();
  return cleaning;
}

process.once('SIGINT', () => {
  console.error('\nInterrupted: stopping the servers…');
  void cleanup().finally(() => process.exit(130));
});
process.once('SIGTERM', () => {
  void cleanup().finally(() => process.exit(143));
});

function pad(value: string, width: number, right = false): string {
  return right ? value.padStart(width) : value.padEnd(width);
}

function printTable(rows: Row[]): void {
  const header = ['target', 'req/s', 'p50 ms', 'p99 ms', 'MB/s', 'vs hello'];
  const cells = rows.map((row) => [
    row.target,
    row.reqPerSec.toFixed(0),
    row.p50Ms.toFixed(2),
    row.p99Ms.toFixed(2),
    row.throughputMBps.toFixed(2),
    row.ratioToHello.toFixed(2),
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...cells.map((line) => line[i]?.length ?? 0)));
  const format = (line: string[]) => line.map((cell, i) => pad(cell, widths[i] ?? 0, i > 0)).join('  ');
  console.log(format(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const line of cells) console.log(format(line));
}

async function main(): Promise<number> {
  // 4. The load generator runs here, on CPU 1 (-a: every thread of this process).
  if (pin) {
    try {
      execFileSync('taskset', ['-a', '-cp', '1', String(process.pid)], { stdio: 'ignore' });
    } catch (error) {
      console.warn(`warning: could not pin the load generator to CPU 1: ${(error as Error).message}`);
    }
  } else {
    console.warn(hasTaskset ? 'warning: fewer than 2 CPUs; not pinning' : 'warning: taskset not found; not pinning');
  }

  // 1. The production build.
  if (!existsSync(path.join(root, 'build/server/index.js'))) {
    console.log('No build found: running `npx react-router build`…');
    const result = spawnSync('npx', ['react-router', 'build'], { cwd: root, stdio: 'inherit' });
    if (result.status !== 0) throw new Error(`react-router build failed (exit ${result.status ?? result.signal})`);
  }

  // 2. The store, with a fresh data directory.
  tempDir = mkdtempSync(path.join(os.tmpdir(), 'boostly-bench-'));
  const logPath = path.join(tempDir, 'server.log');
  const storePort = await freePort();
  const logFd = openSync(logPath, 'a');
  store = spawnPinned(['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(storePort),
      HOST: '127.0.0.1',
      DATA_DIR: tempDir,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', logFd, logFd],
  });
  closeSync(logFd);
  const storeUrl = `http://127.0.0.1:${storePort}`;
  try {
    await waitFor200(`${storeUrl}/readyz`, store, 'store server');
  } catch (error) {
    const log = existsSync(logPath) ? readFileSync(logPath, 'utf8') : '';
    if (log) console.error(`--- store server log ---\n${log}------------------------`);
    throw error;
  }

  // 3. The baseline.
  const helloPort = await freePort();
  hello = spawnPinned(['-e', HELLO_SERVER], {
    env: { ...process.env, PORT: String(helloPort) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const helloUrl = `http://127.0.0.1:${helloPort}`;
  await waitFor200(`${helloUrl}/`, hello, 'hello server');

  const browser = { 'accept-encoding': 'br, gzip' };
  const targets: Target[] = [
    { name: 'hello /', url: `${helloUrl}/` },
    { name: 'store /', url: `${storeUrl}/`, headers: browser },
    { name: 'store /service/instagram-followers', url: `${storeUrl}/service/instagram-followers`, headers: browser },
    { name: 'store /api/services', url: `${storeUrl}/api/services`, headers: browser },
  ];

  const cpuModel = os.cpus()[0]?.model ?? 'unknown';
  console.log(`Node ${process.version} | ${cpuModel} | ${cpuCount} cores`);
  console.log(
    `${seconds} s per target after a ${WARMUP_SECONDS} s warm-up, ${connections} connections; ` +
      (pin ? 'servers pinned to CPU 0, load generator to CPU 1' : 'no CPU pinning'),
  );

  // 5. Warm up, then measure, one target at a time.
  const results: { target: Target; result: AutocannonResult }[] = [];
  for (const target of targets) {
    process.stdout.write(`  ${target.name}: warming up… `);
    await runAutocannon({ url: target.url, connections, duration: WARMUP_SECONDS, headers: target.headers });
    process.stdout.write('measuring… ');
    const result = await runAutocannon({ url: target.url, connections, duration: seconds, headers: target.headers });
    console.log(`${Math.round(result.requests.average)} req/s`);
    results.push({ target, result });
  }

  // The first target is the bare hello server: the baseline for "vs hello".
  const baseline = results[0];
  if (!baseline) throw new Error('No benchmark results');
  const helloRate = baseline.result.requests.average;
  const rows: Row[] = results.map(({ target, result }) => ({
    target: target.name,
    url: target.url,
    reqPerSec: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    throughputMBps: result.throughput.average / 1e6,
    ratioToHello: helloRate > 0 ? Number((result.requests.average / helloRate).toFixed(2)) : 0,
    totalRequests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, stat]) => [code, stat.count])),
  }));

  // 6. Report.
  console.log('');
  printTable(rows);
  console.log('(MB/s = 10^6 bytes/s of response bodies and headers as received; "vs hello" = req/s ÷ hello req/s)');

  if (jsonPath) {
    const report = {
      date: new Date().toISOString(),
      node: process.version,
      cpu: cpuModel,
      cores: cpuCount,
      pinned: pin,
      seconds,
      warmupSeconds: WARMUP_SECONDS,
      connections,
      results: rows,
    };
    writeFileSync(path.resolve(jsonPath), `${JSON.stringify(report, null, 2)}\n`);
    console.log(`Results written to ${path.resolve(jsonPath)}`);
  }

  const failed = rows.filter((row) => row.non2xx > 0 || row.errors > 0);
  for (const row of failed) {
    console.error(
      `FAIL ${row.target}: ${row.non2xx} non-2xx responses, ${row.errors} errors (${row.timeouts} timeouts); ` +
        `status codes: ${JSON.stringify(row.statusCodes)}`,
    );
  }
  return failed.length > 0 ? 1 : 0;
}

let exitCode = 1;
try {
  exitCode = await main();
} catch (error) {
  console.error(error);
  exitCode = 1;
} finally {
  await cleanup();
}
process.exit(exitCode);
