/**
 * `npm run bench`: load-test the production build against a bare Node `http` "hello" server.
 *
 * Both servers run pinned to CPU 0 and the load generator to CPU 1, so the numbers measure one
 * core of the store against one core of plain Node. The generator is wrk (C) when installed
 * (Debian: `apt-get install -y wrk`), else autocannon (JavaScript, in this process); the output
 * names the one that ran.
 *
 *   BENCH_SECONDS=10      measured seconds per target (after a warm-up of 3 s and at least 2,000
 *                         requests, 30 s at most)
 *   BENCH_CONNECTIONS=50  concurrent connections
 *   BENCH_GENERATOR=wrk|autocannon  force a load generator
 *   BENCH_JSON=path       also write the results as JSON to that path
 *   BENCH_LOG_LEVEL=info  the stores' LOG_LEVEL (default: info, as shipped)
 *   BENCH_CPU_PROF=dir    run both stores under `node --cpu-prof` (profiles written to dir/cached and
 *                         dir/uncached) and print each one's top self-time functions
 *   BENCH_PAIRED_ROUNDS=7 alternating rounds of cached / and bare Node sending its bytes, and of
 *                         each uncached target and hello (3 s each); their median ratios are the
 *                         ones the goals are judged by (0: none)
 *   BENCH_ONLY=a,b        measure only the targets whose names contain one of these words (hello
 *                         always runs: it is the baseline), e.g. BENCH_ONLY=search,uncached
 *
 * The table has the bare Node server, bare Node sending cached `/`'s exact bytes, the cached
 * public pages (/, a service page, /blog), the JSON API, and uncached server rendering (a second
 * store with PAGE_CACHE_SECONDS=0, asked for `/`), each with its ratio to the bare server in
 * this same run, by req/s and by server CPU per request, and the CPU each server and the
 * generator used while measured. It also prints what `/` is made of (markup, hydration data,
 * JSON-LD, inline SVG), raw and Brotli-compressed.
 *
 * What limits the ratio (decision 038): not the store's per-request work any more. A cached
 * page costs the store about what bare Node needs to send the same ~11 KB of Brotli (the
 * "bare Node, cached / bytes" row), so the page's size sets the ceiling; with autocannon the
 * JavaScript client parsing every body was a second limit, hence wrk. On a machine busy with
 * other work neither server gets a whole core: the "server %" column shows it, and the
 * by-CPU ratio is then the one to read.
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
import { brotliCompressSync, constants as zlibConstants } from 'node:zlib';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { freePort, stopChild, waitFor200 } from './support/child-process.ts';
import { buildIfNeeded, storeCommandArgs } from './support/store-command.ts';

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
  /** Replace `[<id>]` in the URL with a new id per request. */
  idReplacement?: boolean;
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
/**
 * A target is warmed for at least this many requests, too: V8 optimises a function after it has
 * run many times, and a page rendered per request (70 to 150 a second here) has served only a few
 * hundred in 3 s, while its CPU per request is still falling by a third over its first 2,000. A
 * server in production has served those long before; the cached pages pass this in 3 s anyway.
 */
const WARMUP_REQUESTS = 2_000;
/** The longest the extra warm-up for WARMUP_REQUESTS may take. */
const MAX_WARMUP_SECONDS = 30;

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
/** Alternating rounds of cached / and the same bytes from bare Node (0 leaves them out). */
const pairedRounds = process.env.BENCH_PAIRED_ROUNDS === '0' ? 0 : positiveInt('BENCH_PAIRED_ROUNDS', 7);
const PAIRED_SECONDS = 3;
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

/**
 * The load generator. wrk (C, one thread, reads responses without parsing bodies into JS
 * objects) when it is installed: autocannon runs in JavaScript and, measured on this machine,
 * saturates its core before the store does for 12 KB pages, so the ratio measured the client.
 * autocannon stays the fallback (BENCH_GENERATOR=autocannon forces it).
 */
const hasWrk = spawnSync('sh', ['-c', 'command -v wrk'], { stdio: 'ignore' }).status === 0;
const generatorChoice = process.env.BENCH_GENERATOR;
if (generatorChoice !== undefined && generatorChoice !== 'wrk' && generatorChoice !== 'autocannon') {
  console.error(`BENCH_GENERATOR must be "wrk" or "autocannon" (got "${generatorChoice}")`);
  process.exit(2);
}
if (generatorChoice === 'wrk' && !hasWrk) {
  console.error('BENCH_GENERATOR=wrk but wrk is not installed (Debian: apt-get install -y wrk)');
  process.exit(2);
}
const generator: 'wrk' | 'autocannon' = generatorChoice ?? (hasWrk ? 'wrk' : 'autocannon');

/** What one measured run gives, whichever generator made it. */
interface LoadResult {
  reqPerSec: number;
  totalRequests: number;
  p50Ms: number;
  p99Ms: number;
  /** Bytes per second received (headers and bodies). */
  bytesPerSec: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** CPU microseconds the load generator spent while measuring (null when unknown). */
  generatorCpuUs: number | null;
}

let currentWrk: ChildProcess | undefined;

/** The children's user + system time from the last line of the shell's `times` ("0m1.23s 0m0.45s"). */
function childrenCpuUs(out: string): number | null {
  const lines = out.trim().split('\n');
  const match = /(\d+)m([\d.]+)s\s+(\d+)m([\d.]+)s/.exec(lines.at(-1) ?? '');
  if (!match) return null;
  const secs = Number(match[1]) * 60 + Number(match[2]) + Number(match[3]) * 60 + Number(match[4]);
  return Math.round(secs * 1e6);
}

/** wrk's "1.23ms" / "850.00us" / "1.02s" as milliseconds. */
function wrkDurationMs(text: string): number {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim());
  if (!match) return Number.NaN;
  const value = Number(match[1]);
  const unit = match[2];
  return unit === 'us' ? value / 1000 : unit === 'ms' ? value : unit === 's' ? value * 1000 : value * 60_000;
}

/** wrk's "12.34MB" as bytes (wrk's units are powers of 1024). */
function wrkBytes(text: string): number {
  const match = /^([\d.]+)([KMGT]?B)$/.exec(text.trim());
  if (!match) return Number.NaN;
  const power = ['B', 'KB', 'MB', 'GB', 'TB'].indexOf(match[2] ?? 'B');
  return Number(match[1]) * 1024 ** power;
}

function runWrk(
  url: string,
  durationSeconds: number,
  headers: Record<string, string> | undefined,
  trackingLink: boolean,
  searchWord: boolean,
): Promise<LoadResult> {
  const args = ['-t1', `-c${connections}`, `-d${durationSeconds}s`, '--timeout', '10s', '--latency'];
  for (const [name, value] of Object.entries(headers ?? {})) args.push('-H', `${name}: ${value}`);
  if (trackingLink) {
    // A new click id per request, as every visitor from an ad brings its own.
    const { pathname } = new URL(url);
    const script = path.join(tempDir ?? os.tmpdir(), 'tracking-link.lua');
    writeFileSync(
      script,
      `local n = 0\nrequest = function()\n  n = n + 1\n  return wrk.format(nil, "${pathname}?${TRACKING_QUERY}" .. n .. "&gclid=" .. n)\nend\n`,
    );
    args.push('-s', script);
  } else if (searchWord) {
    // A word nobody searched before on every request: what a visitor (or a crawler) causes at will.
    const { pathname } = new URL(url);
    const script = path.join(tempDir ?? os.tmpdir(), 'search-word.lua');
    writeFileSync(
      script,
      `request = function()\n  return wrk.format(nil, "${pathname}?s=" .. string.format("w%x", math.random(1, 1073741824)))\nend\n`,
    );
    args.push('-s', script);
  }
  args.push(url);
  return new Promise((resolve, reject) => {
    // taskset -c 1: the generator on the core the servers do not use. The shell's `times` then
    // prints its children's (wrk's) user and system CPU time, exactly, on the last line.
    const command = `${pin ? 'taskset -c 1 ' : ''}wrk "$@"; status=$?; times; exit $status`;
    const child = spawn('sh', ['-c', command, 'sh', ...args]);
    currentWrk = child;
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      currentWrk = undefined;
      if (code !== 0) {
        reject(new Error(`wrk exited ${code}: ${out}`));
        return;
      }
      const total = /(\d+) requests in ([\d.]+\w+), ([\d.]+\w+) read/.exec(out);
      const rps = /Requests\/sec:\s+([\d.]+)/.exec(out);
      const transfer = /Transfer\/sec:\s+([\d.]+\w+)/.exec(out);
      const p50 = /^\s+50%\s+(\S+)/m.exec(out);
      const p99 = /^\s+99%\s+(\S+)/m.exec(out);
      const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(out);
      const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
      if (!total || !rps || !transfer || !p50 || !p99) {
        reject(new Error(`could not read wrk's output:\n${out}`));
        return;
      }
      const timeouts = Number(socket?.[4] ?? 0);
      const errors = socket ? Number(socket[1]) + Number(socket[2]) + Number(socket[3]) + timeouts : 0;
      const totalRequests = Number(total[1]);
      const bad = Number(non2xx?.[1] ?? 0);
      resolve({
        reqPerSec: Number(rps[1]),
        totalRequests,
        p50Ms: wrkDurationMs(p50[1] ?? ''),
        p99Ms: wrkDurationMs(p99[1] ?? ''),
        bytesPerSec: wrkBytes(transfer[1] ?? ''),
        non2xx: bad,
        errors,
        timeouts,
        // wrk counts non-2xx/3xx but does not break them down by code.
        statusCodes: bad > 0 ? { '2xx/3xx': totalRequests - bad, other: bad } : { '2xx/3xx': totalRequests },
        generatorCpuUs: childrenCpuUs(out),
      });
    });
  });
}

/** What an ad's link adds to the address; each request completes it with its own click id. */
const TRACKING_QUERY = 'utm_source=bench&utm_medium=cpc&utm_campaign=';

async function runLoad(
  url: string,
  durationSeconds: number,
  headers: Record<string, string> | undefined,
  trackingLink = false,
  searchWord = false,
): Promise<LoadResult> {
  if (generator === 'wrk') return runWrk(url, durationSeconds, headers, trackingLink, searchWord);
  const before = process.cpuUsage();
  const result = await runAutocannon(
    searchWord
      ? { url: `${url}?s=w[<id>]`, idReplacement: true, connections, duration: durationSeconds, headers }
      : trackingLink
        ? {
            url: `${url}?${TRACKING_QUERY}[<id>]&gclid=[<id>]`,
            idReplacement: true,
            connections,
            duration: durationSeconds,
            headers,
          }
        : { url, connections, duration: durationSeconds, headers },
  );
  const used = process.cpuUsage(before);
  return {
    reqPerSec: result.requests.average,
    totalRequests: result.requests.total,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    bytesPerSec: result.throughput.average,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, stat]) => [code, stat.count])),
    generatorCpuUs: used.user + used.system,
  };
}

interface Target {
  name: string;
  url: string;
  headers?: Record<string, string>;
  /** Whether this is a cached public page: the goal is at least half the bare server's req/s. */
  cachedPage?: boolean;
  /** Each request carries new tracking parameters (utm_*, gclid), as links from ads do. */
  trackingLink?: boolean;
  /** Each request searches for a new random word (`?s=`), so no cached page can answer it. */
  searchWord?: boolean;
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
  /**
   * hello's server CPU per request ÷ this target's: the ratio the two would reach if each had a
   * whole core to itself. Unlike req/s, it holds on a machine busy with other work.
   */
  cpuRatioToHello: number | null;
  /** The answering process's and the generator's CPU use while measured, % of one core. */
  serverCpuPercent: number | null;
  generatorCpuPercent: number | null;
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
    currentWrk?.kill('SIGTERM');
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
  const header = [
    'target',
    'req/s',
    'p50 ms',
    'p99 ms',
    'MB/s',
    'vs hello',
    'server CPU µs/req',
    'vs hello by CPU',
    'server %',
    'gen %',
  ];
  const cells = rows.map((row) => [
    row.target,
    row.reqPerSec.toFixed(0),
    row.p50Ms.toFixed(2),
    row.p99Ms.toFixed(2),
    row.throughputMBps.toFixed(2),
    row.ratioToHello.toFixed(2),
    row.serverCpuUsPerRequest === null ? '-' : row.serverCpuUsPerRequest.toFixed(0),
    row.cpuRatioToHello === null ? '-' : row.cpuRatioToHello.toFixed(2),
    row.serverCpuPercent === null ? '-' : row.serverCpuPercent.toFixed(0),
    row.generatorCpuPercent === null ? '-' : row.generatorCpuPercent.toFixed(0),
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...cells.map((line) => line[i]?.length ?? 0)));
  const format = (line: string[]) => line.map((cell, i) => pad(cell, widths[i] ?? 0, i > 0)).join('  ');
  console.log(format(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const line of cells) console.log(format(line));
}

/** Starts the server as `npm start` runs it, in production mode on a free port with its own data directory. */
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
  const child = spawnPinned([...nodeArgs, ...storeCommandArgs('main')], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      // The store's logging as shipped (one line per request at `info`), unless told otherwise.
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
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

/**
 * What a page's HTML is made of, raw and Brotli-compressed on its own (the parts compress better
 * together, so the column does not add up to the whole): inline SVG, React Router's hydration
 * data (the inline scripts that stream the loader data), JSON-LD, other inline scripts, and the
 * rest (markup and text).
 */
function pageBreakdown(html: string): { part: string; raw: number; br: number }[] {
  const parts: [string, RegExp][] = [
    ['JSON-LD', /<script type="application\/ld\+json"[^>]*>[\s\S]*?<\/script>/g],
    ['hydration data (inline scripts)', /<script(?![^>]*\bsrc=)(?![^>]*ld\+json)[^>]*>[\s\S]*?<\/script>/g],
    ['inline SVG', /<svg[\s\S]*?<\/svg>/g],
    ['module/preload tags', /<(?:link|script)[^>]*\b(?:src|href)="[^"]*\/assets\/[^"]*"[^>]*>(?:<\/script>)?/g],
  ];
  const br = (text: string) =>
    text.length === 0
      ? 0
      : brotliCompressSync(Buffer.from(text), { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  let rest = html;
  const rows: { part: string; raw: number; br: number }[] = [];
  for (const [part, pattern] of parts) {
    const found = rest.match(pattern) ?? [];
    rest = rest.replace(pattern, '');
    const joined = found.join('');
    rows.push({ part: `${part} ×${found.length}`, raw: Buffer.byteLength(joined), br: br(joined) });
  }
  rows.push({ part: 'markup and text', raw: Buffer.byteLength(rest), br: br(rest) });
  rows.push({ part: 'whole page', raw: Buffer.byteLength(html), br: br(html) });
  return rows;
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

  // 1. The production build, as `npm start` makes it (built again only if a source changed).
  buildIfNeeded();

  // 2. The store, with a fresh data directory; a second one without the page cache measures
  // server rendering itself.
  tempDir = mkdtempSync(path.join(os.tmpdir(), 'boostly-bench-'));
  if (cpuProfDir) mkdirSync(cpuProfDir, { recursive: true });
  const profileArgs = (which: string) =>
    cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${path.join(cpuProfDir, which)}`] : [];
  const started = await startStore('store', path.join(tempDir, 'cached'), {}, profileArgs('cached'));
  store = started.child;
  const storeUrl = started.url;
  const startedUncached = await startStore(
    'uncached store',
    path.join(tempDir, 'uncached'),
    { PAGE_CACHE_SECONDS: '0' },
    profileArgs('uncached'),
  );
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

  const allTargets: Target[] = [
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
    {
      name: '/ from an ad (new utm_*, gclid each)',
      url: `${storeUrl}/`,
      headers: browser,
      cachedPage: true,
      trackingLink: true,
      server: store,
    },
    // Through the store with the page cache on, as visitors reach it: the cache cannot help.
    {
      name: 'random blog search /blog?s=',
      url: `${storeUrl}/blog`,
      headers: browser,
      searchWord: true,
      server: store,
    },
    // On the second store, so that its profile holds only uncached work (plus its start-up).
    { name: 'api /api/services', url: `${uncachedUrl}/api/services`, headers: browser, server: uncachedStore },
    { name: 'uncached SSR /', url: `${uncachedUrl}/`, headers: browser, server: uncachedStore },
  ];
  const only = (process.env.BENCH_ONLY ?? '')
    .split(',')
    .map((word) => word.trim())
    .filter(Boolean);
  const targets =
    only.length === 0
      ? allTargets
      : allTargets.filter((target, i) => i === 0 || only.some((word) => target.name.includes(word)));

  // What the cached home page is made of (identity encoding: the HTML itself).
  const homeHtml = (await fetchRaw(`${storeUrl}/`, { 'accept-encoding': 'identity' })).body.toString('utf8');
  console.log('\nGET / is made of (bytes; br = that part alone at Brotli quality 11):');
  for (const row of pageBreakdown(homeHtml)) {
    console.log(`  ${row.part.padEnd(40)} ${String(row.raw).padStart(7)} raw ${String(row.br).padStart(6)} br`);
  }
  console.log('');

  const cpuModel = os.cpus()[0]?.model ?? 'unknown';
  console.log(`Node ${process.version} | ${cpuModel} | ${cpuCount} cores`);
  console.log(
    `load generator: ${generator === 'wrk' ? 'wrk (C, 1 thread)' : 'autocannon (JavaScript, in this process)'}; ` +
      `${seconds} s per target after a warm-up of ${WARMUP_SECONDS} s and ${WARMUP_REQUESTS} requests ` +
      `(${MAX_WARMUP_SECONDS} s at most), ${connections} connections; ` +
      (pin ? 'servers pinned to CPU 0, load generator to CPU 1' : 'no CPU pinning'),
  );

  // 5. Warm up, then measure, one target at a time.
  const results: { target: Target; result: LoadResult; cpuUs: number | null }[] = [];
  for (const target of targets) {
    process.stdout.write(`  ${target.name}: warming up… `);
    const { result, cpuUs } = await measureTarget(target, WARMUP_SECONDS, seconds, {
      onWarm: () => process.stdout.write('measuring… '),
    });
    console.log(`${Math.round(result.reqPerSec)} req/s`);
    results.push({ target, result, cpuUs });
  }

  // The first target is the bare hello server: the baseline for "vs hello".
  const baseline = results[0];
  if (!baseline) throw new Error('No benchmark results');
  const helloRate = baseline.result.reqPerSec;
  const percentOfCore = (us: number | null) => (us === null ? null : (us / (seconds * 1e6)) * 100);
  const helloCpuPerRequest =
    baseline.cpuUs !== null && baseline.result.totalRequests > 0
      ? baseline.cpuUs / baseline.result.totalRequests
      : null;
  const rows: Row[] = results.map(({ target, result, cpuUs }) => ({
    target: target.name,
    url: target.url,
    reqPerSec: result.reqPerSec,
    p50Ms: result.p50Ms,
    p99Ms: result.p99Ms,
    throughputMBps: result.bytesPerSec / 1e6,
    ratioToHello: helloRate > 0 ? Number((result.reqPerSec / helloRate).toFixed(2)) : 0,
    serverCpuUsPerRequest: cpuUs !== null && result.totalRequests > 0 ? cpuUs / result.totalRequests : null,
    cpuRatioToHello:
      helloCpuPerRequest !== null && cpuUs !== null && result.totalRequests > 0
        ? Number((helloCpuPerRequest / (cpuUs / result.totalRequests)).toFixed(2))
        : null,
    serverCpuPercent: percentOfCore(cpuUs),
    generatorCpuPercent: percentOfCore(result.generatorCpuUs),
    totalRequests: result.totalRequests,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: result.statusCodes,
  }));

  // 6. Report.
  console.log('');
  printTable(rows);
  console.log(
    '(MB/s = 10^6 bytes/s of response bodies and headers as received; "vs hello" = req/s ÷ hello req/s; ' +
      'server CPU = user + system time of the answering process while measured ÷ requests; ' +
      '"vs hello by CPU" = hello\'s server CPU per request ÷ this one\'s, the ratio with a whole core each; ' +
      'server % / gen % = CPU time of the server / the load generator while measured, % of one core: ' +
      'a generator near 100 % means the client, not the server, set the rate)',
  );
  const cachedRows = rows.filter((_row, i) => targets[i]?.cachedPage);
  const worst = cachedRows.length > 0 ? Math.min(...cachedRows.map((row) => row.reqPerSec / helloRate)) : 0;
  // The transport's limit for cached `/`: bare Node sending its exact bytes and headers, in this run.
  const sameBytesRow = rows.find((row) => row.target.startsWith('bare Node, cached / bytes'));
  const cachedHomeRow = rows.find((row) => row.target === 'cached /');
  let toTransportLimit: number | null = null;
  if (sameBytesRow && cachedHomeRow) {
    toTransportLimit = cachedHomeRow.reqPerSec / sameBytesRow.reqPerSec;
    const byCpu =
      sameBytesRow.serverCpuUsPerRequest !== null && cachedHomeRow.serverCpuUsPerRequest !== null
        ? sameBytesRow.serverCpuUsPerRequest / cachedHomeRow.serverCpuUsPerRequest
        : null;
    console.log(
      `Cached /: ${toTransportLimit.toFixed(2)} of bare Node sending the same bytes` +
        `${byCpu === null ? '' : ` (${byCpu.toFixed(2)} by server CPU per request)`} (goal ≥ 0.90): ` +
        `${toTransportLimit >= 0.9 ? 'met' : 'NOT met'}`,
    );
  }
  // The same ratio measured in alternating short rounds (bare, store, store, bare, …): a machine
  // whose speed drifts by 20 % between two ten-second runs moves a single pair's ratio by as much,
  // while the median of paired rounds barely moves.
  const sameBytesTarget = targets.find((target) => target.name.startsWith('bare Node, cached / bytes'));
  const cachedHomeTarget = targets.find((target) => target.name === 'cached /');
  let pairedRatios: { byRate: number; byCpu: number | null }[] = [];
  if (sameBytesTarget && cachedHomeTarget && pairedRounds > 0) {
    process.stdout.write(
      `\nCached / against the same bytes, ${pairedRounds} alternating rounds of ${PAIRED_SECONDS} s: `,
    );
    pairedRatios = await measurePairedRounds(sameBytesTarget, cachedHomeTarget);
    const byRate = pairedRatios.map((ratio) => ratio.byRate);
    const byCpu = pairedRatios.flatMap((ratio) => (ratio.byCpu === null ? [] : [ratio.byCpu]));
    console.log(byRate.map((ratio) => ratio.toFixed(2)).join(' '));
    console.log(
      `Cached /, paired rounds: median ${median(byRate).toFixed(2)} of bare Node sending the same bytes` +
        `${byCpu.length > 0 ? ` (${median(byCpu).toFixed(2)} by server CPU per request)` : ''} (goal ≥ 0.90): ` +
        `${median(byRate) >= 0.9 ? 'met' : 'NOT met'}`,
    );
  }
  // Pages no cache can hold: the goals are ratios to hello in the same run, so they survive a busy
  // machine. A single pair of ten-second runs moves by a quarter between two runs of the same code
  // here (hello alone from 17,500 to 26,400 req/s), so these too are judged by paired rounds.
  const helloTarget = targets.find((target) => target.name === 'hello /');
  const uncachedPairedRatios: Record<string, { byRate: number; byCpu: number | null }[]> = {};
  for (const [name, goal] of [
    ['random blog search', 0.008],
    ['uncached SSR /', 0.005],
  ] as const) {
    const row = rows.find((candidate) => candidate.target.startsWith(name));
    const target = targets.find((candidate) => candidate.name.startsWith(name));
    if (!row || !target) continue;
    const ratio = row.reqPerSec / helloRate;
    console.log(`${name}: ${ratio.toFixed(4)} × hello (goal ≥ ${goal}): ${ratio >= goal ? 'met' : 'NOT met'}`);
    if (!helloTarget || pairedRounds === 0) continue;
    process.stdout.write(`${name} against hello, ${pairedRounds} alternating rounds of ${PAIRED_SECONDS} s: `);
    const paired = await measurePairedRounds(helloTarget, target);
    uncachedPairedRatios[name] = paired;
    const byRate = paired.map((pair) => pair.byRate);
    console.log(byRate.map((pair) => pair.toFixed(4)).join(' '));
    console.log(
      `${name}, paired rounds: median ${median(byRate).toFixed(4)} × hello (goal ≥ ${goal}): ` +
        `${median(byRate) >= goal ? 'met' : 'NOT met'}`,
    );
  }
  // What set the rate: a server or the generator using a whole core is the limit; neither means
  // other work on the machine took the CPU, and req/s ratios then say little.
  const busiest = (pick: (row: Row) => number | null) => Math.max(...rows.map((row) => pick(row) ?? 0));
  const serverPeak = busiest((row) => row.serverCpuPercent);
  const generatorPeak = busiest((row) => row.generatorCpuPercent);
  if (generatorPeak >= 90) {
    console.warn(
      `note: the load generator reached ${generatorPeak.toFixed(0)} % of its core: the client, not only the server, set the rate`,
    );
  } else if (serverPeak < 80) {
    console.warn(
      `note: no server used more than ${serverPeak.toFixed(0)} % of its core and the generator at most ${generatorPeak.toFixed(0)} %: ` +
        'other work on this machine took the CPU, so compare "vs hello by CPU" rather than req/s',
    );
  }

  if (cpuProfDir) {
    // The profile is written when the store exits (tsx's loader thread writes a small one too).
    await Promise.all([stopChild(store), stopChild(uncachedStore)]);
    console.log('\nThe store with the page cache on (cached pages, tracking links, blog search):');
    printProfileSummary(path.join(cpuProfDir, 'cached'));
    console.log('\nThe store with the page cache off (api, uncached SSR /):');
    printProfileSummary(path.join(cpuProfDir, 'uncached'));
  }

  if (jsonPath) {
    const report = {
      date: new Date().toISOString(),
      node: process.version,
      cpu: cpuModel,
      cores: cpuCount,
      pinned: pin,
      generator,
      seconds,
      warmupSeconds: WARMUP_SECONDS,
      connections,
      cachedPageLowestRatioToHello: Number(worst.toFixed(2)),
      cachedHomeToTransportLimit: toTransportLimit === null ? null : Number(toTransportLimit.toFixed(2)),
      cachedHomeToTransportLimitPairedRounds: pairedRatios,
      uncachedToHelloPairedRounds: uncachedPairedRatios,
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

/** How long `untilIdle` waits at most. */
const MAX_IDLE_WAIT_MS = 5_000;

/**
 * Waits until `server` has finished the requests a load run left behind. The generator stops with
 * every connection's request still queued at the server, which then answers them to closed
 * sockets: 50 connections of a 7 ms page are a third of a second of work. Measured right away, that
 * work fell into the next run's window and cost a page rendered per request about a tenth of a
 * 3-second round; a cached page leaves nothing behind and goes on at once.
 */
async function untilIdle(server: ChildProcess): Promise<void> {
  const started = Date.now();
  let before = cpuMicros(server);
  while (before !== null && Date.now() - started < MAX_IDLE_WAIT_MS) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = cpuMicros(server);
    // Under a clock tick (10 ms) of CPU in 100 ms: nothing left to answer.
    if (now === null || now - before <= 10_000) return;
    before = now;
  }
}

/** The middle value (the upper one of an even count). */
function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
}

/**
 * Load `target` for `warmupSeconds` (and on to `warmupRequests` requests), then measure it for
 * `measureSeconds`: the result and its server's CPU time (µs).
 */
async function measureTarget(
  target: Target,
  warmupSeconds: number,
  measureSeconds: number,
  { onWarm, warmupRequests = WARMUP_REQUESTS }: { onWarm?: () => void; warmupRequests?: number } = {},
): Promise<{ result: LoadResult; cpuUs: number | null }> {
  const warm = await runLoad(target.url, warmupSeconds, target.headers, target.trackingLink, target.searchWord);
  if (warm.totalRequests < warmupRequests && warm.reqPerSec > 0) {
    const more = Math.min(MAX_WARMUP_SECONDS, Math.ceil((warmupRequests - warm.totalRequests) / warm.reqPerSec));
    await runLoad(target.url, more, target.headers, target.trackingLink, target.searchWord);
  }
  await untilIdle(target.server);
  onWarm?.();
  const cpuBefore = cpuMicros(target.server);
  const result = await runLoad(target.url, measureSeconds, target.headers, target.trackingLink, target.searchWord);
  const cpuAfter = cpuMicros(target.server);
  return { result, cpuUs: cpuBefore !== null && cpuAfter !== null ? cpuAfter - cpuBefore : null };
}

/**
 * Rounds of `a` then `b` (order swapped every other round, so neither always runs second), each
 * after a one-second warm-up; per round, b's rate and CPU per request against a's.
 */
async function measurePairedRounds(a: Target, b: Target): Promise<{ byRate: number; byCpu: number | null }[]> {
  const measure = async (target: Target) => {
    // Each store was warmed to the full count before its own measurement; a second settles it again.
    const { result, cpuUs } = await measureTarget(target, 1, PAIRED_SECONDS, { warmupRequests: 0 });
    const cpuPerRequest = cpuUs !== null && result.totalRequests > 0 ? cpuUs / result.totalRequests : null;
    return { rate: result.reqPerSec, cpuPerRequest };
  };
  const ratios: { byRate: number; byCpu: number | null }[] = [];
  for (let round = 0; round < pairedRounds; round++) {
    const [first, second] = round % 2 === 0 ? [a, b] : [b, a];
    const firstResult = await measure(first);
    const secondResult = await measure(second);
    const [ofA, ofB] = round % 2 === 0 ? [firstResult, secondResult] : [secondResult, firstResult];
    ratios.push({
      byRate: ofA.rate > 0 ? ofB.rate / ofA.rate : 0,
      byCpu:
        ofA.cpuPerRequest !== null && ofB.cpuPerRequest !== null && ofB.cpuPerRequest > 0
          ? ofA.cpuPerRequest / ofB.cpuPerRequest
          : null,
    });
    process.stdout.write('.');
  }
  process.stdout.write(' ');
  return ratios;
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
