/**
 * `npm run bench`: load-test the production build against a bare Node `http` "hello" server.
 *
 * Both servers run pinned to CPU 0 and the load generator (autocannon, in this process) to
 * CPU 1, so the numbers measure one core of the store against one core of plain Node.
 *
 *   BENCH_SECONDS=10      measured seconds per target (after a 3 s warm-up)
 *   BENCH_CONNECTIONS=50  concurrent connections
 *   BENCH_JSON=path       also write the results as JSON to that path
 *   BENCH_CPU_PROF=dir    run the store under `node --cpu-prof` (profile written to dir) and print
 *                         its top self-time functions over the cached-page targets
 *
 * The table has the bare Node server, the cached public pages (/, a service page, /blog), the
 * JSON API, and uncached server rendering (a second store with PAGE_CACHE_SECONDS=0, asked for
 * `/`), each with its ratio to the bare server measured in this same run.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { freePort, stopChild, waitFor200 } from './support/child-process.ts';

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
const cpuProfDir = process.env.BENCH_CPU_PROF ? path.resolve(process.env.BENCH_CPU_PROF) : undefined;

const hasTaskset = spawnSync('sh', ['-c', 'command -v taskset'], { stdio: 'ignore' }).status === 0;
const cpuCount = os.cpus().length;
const pin = hasTaskset && cpuCount >= 2;

/** `node args…`, prefixed with `taskset -c 0` when pinning is possible. */
function spawnPinned(args: string[], options: Parameters<typeof spawn>[2]): ChildProcess {
  return pin
    ? spawn('taskset', ['-c', '0', process.execPath, ...args], options)
    : spawn(process.execPath, args, options);
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
  /** Whether this is a cached public page: the goal is at least half the bare server's req/s. */
  cachedPage?: boolean;
  /** The process answering it: its CPU time per request is measured. */
  server: ChildProcess;
}

interface Row {
  target: string;
  url: string;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  throughputMBps: number;
  ratioToHello: number;
  /** CPU time (user + system) the answering process spent per request while measured. */
  serverCpuUsPerRequest: number | null;
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

/**
 * Bare Node again, answering with the exact bytes and headers the store sent for a cached page
 * (BODY_FILE, HEADERS_FILE): what one core and this machine's network path allow for that size.
 */
const SAME_BYTES_SERVER = `
const http = require('node:http');
const fs = require('node:fs');
const body = fs.readFileSync(process.env.BODY_FILE);
const headers = JSON.parse(fs.readFileSync(process.env.HEADERS_FILE, 'utf8'));
http.createServer((req, res) => {
  res.writeHead(200, { ...headers, 'content-length': body.length });
  res.end(body);
}).listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
`;

/** user + system CPU microseconds of a process so far (Linux /proc; null elsewhere). */
function cpuMicros(child: ChildProcess): number | null {
  try {
    // With taskset in front, the server is taskset's child; /proc/<pid>/task/<pid>/children names it.
    let pid = child.pid;
    if (pin && pid !== undefined) {
      const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
      if (children) pid = Number(children.split(/\s+/)[0]);
    }
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after "pid (name) ".
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1e6) / CLOCK_TICKS : null;
  } catch {
    return null;
  }
}
const CLOCK_TICKS = 100;

/** The raw (still compressed) bytes and headers of one response. */
function fetchRaw(
  url: string,
  headers: Record<string, string>,
): Promise<{ body: Buffer; headers: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const kept: Record<string, string> = {};
          for (const [name, value] of Object.entries(response.headers)) {
            if (typeof value === 'string' && !['content-length', 'date', 'connection', 'keep-alive'].includes(name)) {
              kept[name] = value;
            }
          }
          resolve({ body: Buffer.concat(chunks), headers: kept });
        });
      })
      .on('error', reject);
  });
}

let tempDir: string | undefined;
let store: ChildProcess | undefined;
let uncachedStore: ChildProcess | undefined;
let hello: ChildProcess | undefined;
let sameBytes: ChildProcess | undefined;
let cleaning: Promise<void> | undefined;

function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    current?.stop();
    await Promise.all([stopChild(store), stopChild(uncachedStore), stopChild(hello), stopChild(sameBytes)]);
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
  const header = ['target', 'req/s', 'p50 ms', 'p99 ms', 'MB/s', 'vs hello', 'server CPU µs/req'];
  const cells = rows.map((row) => [
    row.target,
    row.reqPerSec.toFixed(0),
    row.p50Ms.toFixed(2),
    row.p99Ms.toFixed(2),
    row.throughputMBps.toFixed(2),
    row.ratioToHello.toFixed(2),
    row.serverCpuUsPerRequest === null ? '-' : row.serverCpuUsPerRequest.toFixed(0),
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...cells.map((line) => line[i]?.length ?? 0)));
  const format = (line: string[]) => line.map((cell, i) => pad(cell, widths[i] ?? 0, i > 0)).join('  ');
  console.log(format(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const line of cells) console.log(format(line));
}

/** Starts `server/main.ts` in production mode on a free port with its own data directory. */
async function startStore(
  name: string,
  dataDir: string,
  env: Record<string, string>,
  nodeArgs: string[] = [],
): Promise<{ child: ChildProcess; url: string }> {
  mkdirSync(dataDir, { recursive: true });
  const logPath = path.join(dataDir, 'server.log');
  const port = await freePort();
  const logFd = openSync(logPath, 'a');
  const child = spawnPinned([...nodeArgs, '--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', logFd, logFd],
  });
  closeSync(logFd);
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor200(`${url}/readyz`, child, name);
  } catch (error) {
    const log = existsSync(logPath) ? readFileSync(logPath, 'utf8') : '';
    if (log) console.error(`--- ${name} log ---\n${log}------------------------`);
    throw error;
  }
  return { child, url };
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

/**
 * The store's main-thread profile in `dir` (the largest .cpuprofile: tsx's loader thread writes a
 * small one of its own): its top functions by self time (samples in the function itself).
 */
function printProfileSummary(dir: string, top = 20): void {
  const largest = readdirSync(dir)
    .filter((name) => name.endsWith('.cpuprofile'))
    .map((name) => path.join(dir, name))
    .sort((a, b) => statSync(b).size - statSync(a).size)[0];
  if (!largest) {
    console.warn(`No .cpuprofile written to ${dir}`);
    return;
  }
  const profile = JSON.parse(readFileSync(largest, 'utf8')) as { nodes: ProfileNode[] };
  const selfByFunction = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    total += hits;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url ? `${url.replace(/^file:\/\//, '').replace(`${root}/`, '')}:${lineNumber + 1}` : '';
    const key = `${functionName || '(anonymous)'} ${where}`.trim();
    selfByFunction.set(key, (selfByFunction.get(key) ?? 0) + hits);
  }
  const rows = [...selfByFunction]
    .filter(([name]) => name !== '(idle)')
    .sort((a, b) => b[1] - a[1])
    .slice(0, top);
  const busy = total - (selfByFunction.get('(idle)') ?? 0);
  console.log(`\nCPU profile ${largest}: ${total} samples, ${busy} busy; top ${top} by self time (% of busy):`);
  for (const [name, hits] of rows) console.log(`${((hits / busy) * 100).toFixed(1).padStart(5)}%  ${name}`);
  // The same samples by where the code lives: a package, Node itself, or our own files.
  const byOwner = new Map<string, number>();
  for (const [name, hits] of selfByFunction) {
    if (name === '(idle)') continue;
    const owner =
      /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(name)?.[1] ??
      (/ node:/.test(name) || !name.includes(' ') ? 'node internals / native' : 'our code and build');
    byOwner.set(owner, (byOwner.get(owner) ?? 0) + hits);
  }
  console.log('By owner (% of busy):');
  for (const [owner, hits] of [...byOwner].sort((a, b) => b[1] - a[1]).slice(0, 12)) {
    console.log(`${((hits / busy) * 100).toFixed(1).padStart(5)}%  ${owner}`);
  }
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

  // 2. The store, with a fresh data directory; a second one without the page cache measures
  // server rendering itself.
  tempDir = mkdtempSync(path.join(os.tmpdir(), 'boostly-bench-'));
  if (cpuProfDir) mkdirSync(cpuProfDir, { recursive: true });
  const profileArgs = cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`] : [];
  const started = await startStore('store', path.join(tempDir, 'cached'), {}, profileArgs);
  store = started.child;
  const storeUrl = started.url;
  const startedUncached = await startStore('uncached store', path.join(tempDir, 'uncached'), {
    PAGE_CACHE_SECONDS: '0',
  });
  uncachedStore = startedUncached.child;
  const uncachedUrl = startedUncached.url;

  // 3. The baseline.
  const helloPort = await freePort();
  hello = spawnPinned(['-e', HELLO_SERVER], {
    env: { ...process.env, PORT: String(helloPort) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const helloUrl = `http://127.0.0.1:${helloPort}`;
  await waitFor200(`${helloUrl}/`, hello, 'hello server');

  // The transport's ceiling for a page of that size: bare Node sending cached /'s exact bytes.
  const browser = { 'accept-encoding': 'br, gzip' };
  await fetchRaw(`${storeUrl}/`, browser); // the first request renders and caches it
  const homeBytes = await fetchRaw(`${storeUrl}/`, browser);
  writeFileSync(path.join(tempDir, 'home.body'), homeBytes.body);
  writeFileSync(path.join(tempDir, 'home.headers.json'), JSON.stringify(homeBytes.headers));
  const sameBytesPort = await freePort();
  sameBytes = spawnPinned(['-e', SAME_BYTES_SERVER], {
    env: {
      ...process.env,
      PORT: String(sameBytesPort),
      BODY_FILE: path.join(tempDir, 'home.body'),
      HEADERS_FILE: path.join(tempDir, 'home.headers.json'),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const sameBytesUrl = `http://127.0.0.1:${sameBytesPort}`;
  await waitFor200(`${sameBytesUrl}/`, sameBytes, 'same-bytes server');

  const targets: Target[] = [
    { name: 'hello /', url: `${helloUrl}/`, server: hello },
    { name: `bare Node, cached / bytes (${homeBytes.body.length} B)`, url: `${sameBytesUrl}/`, server: sameBytes },
    { name: 'cached /', url: `${storeUrl}/`, headers: browser, cachedPage: true, server: store },
    {
      name: 'cached /service/instagram-followers',
      url: `${storeUrl}/service/instagram-followers`,
      headers: browser,
      cachedPage: true,
      server: store,
    },
    { name: 'cached /blog', url: `${storeUrl}/blog`, headers: browser, cachedPage: true, server: store },
    // On the second store, so that the profiled one serves cached pages only (plus its start-up).
    { name: 'api /api/services', url: `${uncachedUrl}/api/services`, headers: browser, server: uncachedStore },
    { name: 'uncached SSR /', url: `${uncachedUrl}/`, headers: browser, server: uncachedStore },
  ];

  const cpuModel = os.cpus()[0]?.model ?? 'unknown';
  console.log(`Node ${process.version} | ${cpuModel} | ${cpuCount} cores`);
  console.log(
    `${seconds} s per target after a ${WARMUP_SECONDS} s warm-up, ${connections} connections; ` +
      (pin ? 'servers pinned to CPU 0, load generator to CPU 1' : 'no CPU pinning'),
  );

  // 5. Warm up, then measure, one target at a time.
  const results: { target: Target; result: AutocannonResult; cpuUs: number | null }[] = [];
  for (const target of targets) {
    process.stdout.write(`  ${target.name}: warming up… `);
    await runAutocannon({ url: target.url, connections, duration: WARMUP_SECONDS, headers: target.headers });
    process.stdout.write('measuring… ');
    const cpuBefore = cpuMicros(target.server);
    const result = await runAutocannon({ url: target.url, connections, duration: seconds, headers: target.headers });
    const cpuAfter = cpuMicros(target.server);
    console.log(`${Math.round(result.requests.average)} req/s`);
    const cpuUs = cpuBefore !== null && cpuAfter !== null ? cpuAfter - cpuBefore : null;
    results.push({ target, result, cpuUs });
  }

  // The first target is the bare hello server: the baseline for "vs hello".
  const baseline = results[0];
  if (!baseline) throw new Error('No benchmark results');
  const helloRate = baseline.result.requests.average;
  const rows: Row[] = results.map(({ target, result, cpuUs }) => ({
    target: target.name,
    url: target.url,
    reqPerSec: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    throughputMBps: result.throughput.average / 1e6,
    ratioToHello: helloRate > 0 ? Number((result.requests.average / helloRate).toFixed(2)) : 0,
    serverCpuUsPerRequest: cpuUs !== null && result.requests.total > 0 ? cpuUs / result.requests.total : null,
    totalRequests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, stat]) => [code, stat.count])),
  }));

  // 6. Report.
  console.log('');
  printTable(rows);
  console.log(
    '(MB/s = 10^6 bytes/s of response bodies and headers as received; "vs hello" = req/s ÷ hello req/s; ' +
      'server CPU = user + system time of the answering process while measured ÷ requests)',
  );
  const cachedRows = rows.filter((_row, i) => targets[i]?.cachedPage);
  const worst = Math.min(...cachedRows.map((row) => row.reqPerSec / helloRate));
  console.log(
    `Cached pages: lowest ratio ${worst.toFixed(2)} to bare Node (goal ≥ 0.50): ${worst >= 0.5 ? 'met' : 'NOT met'}`,
  );

  if (cpuProfDir) {
    // The profile is written when the store exits (tsx's loader thread writes a small one too).
    await stopChild(store);
    printProfileSummary(cpuProfDir);
  }

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
      cachedPageLowestRatio: Number(worst.toFixed(2)),
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
