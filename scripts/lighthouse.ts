/**
 * `npm run bench:lighthouse`: Lighthouse (mobile defaults: a mid-range phone, simulated slow 4G
 * and 4× CPU slowdown) on the store's public pages, with Debian's Chromium, the median of several
 * runs per page, against decision 036's bar:
 *
 *   performance ≥ 95, accessibility 100, best practices 100, CLS < 0.02
 *
 *   npm run bench:lighthouse [-- --pages /,/faq,order-confirm --runs 3]
 *
 * It builds the store when there is no build, starts it in production mode on a free port with
 * a fresh SQLite database (the seed catalogue and blog posts), buys a package through the API
 * (sandbox payment) so the confirmation page shows a real paid order, then runs Lighthouse on
 * each page `--runs` times (default 3) and prints a table of medians, the audits each page
 * fails (accessibility and best practices below a full score, performance opportunities), and
 * exits 1 when any page misses the bar. A run Lighthouse itself fails (NO_NAVSTART,
 * PROTOCOL_TIMEOUT, …) is repeated with a fresh browser up to 2 more times; the table's "retries"
 * column counts them per page. A bench, not part of `npm test` (decision 036).
 * CHROME_PATH picks the browser (default /usr/bin/chromium).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, waitFor200 } from './support/child-process.ts';
import { buildIfNeeded, storeCommandArgs } from './support/store-command.ts';
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';

const root = path.resolve(import.meta.dirname, '..');
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';

/** Decision 036's bar. */
const BAR = { performance: 95, accessibility: 100, bestPractices: 100, maxCls: 0.02 } as const;

/** The pages measured, by the name `--pages` accepts; their paths are filled in once the store runs. */
const PAGE_NAMES = [
  '/',
  'service',
  'order',
  'order-confirm',
  '/client',
  '/blog',
  'blog-post',
  '/faq',
  '/courses',
] as const;

const SERVICE_SLUG = 'instagram-followers';
const ORDER_QTY = 100;
const ORDER_TYPE = 'Standard';

interface Options {
  pages: string[];
  runs: number;
}

function parseOptions(argv: string[]): Options {
  let pages: string[] = [...PAGE_NAMES];
  let runs = 3;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    const [flag, inline] = arg.split('=', 2) as [string, string | undefined];
    const value = () => inline ?? argv[++i] ?? '';
    if (flag === '--pages')
      pages = value()
        .split(',')
        .map((page) => page.trim())
        .filter(Boolean);
    else if (flag === '--runs') runs = Number(value());
    else {
      console.error(`Unknown option ${arg}. Options: --pages ${PAGE_NAMES.join(',')} (or any path), --runs N`);
      process.exit(2);
    }
  }
  if (!Number.isInteger(runs) || runs < 1) {
    console.error('--runs must be a positive whole number');
    process.exit(2);
  }
  return { pages, runs };
}

/** The production store on a free port with its own empty data directory (a fresh SQLite database). */
async function startStore(dataDir: string): Promise<{ child: ChildProcess; url: string; logPath: string }> {
  const port = await freePort();
  const logPath = path.join(dataDir, 'server.log');
  const logFd = openSync(logPath, 'a');
  const child = spawn(process.execPath, storeCommandArgs('main'), {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', logFd, logFd],
  });
  closeSync(logFd);
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor200(`${url}/readyz`, child, 'the store');
  } catch (error) {
    if (existsSync(logPath)) console.error(readFileSync(logPath, 'utf8'));
    throw error;
  }
  return { child, url, logPath };
}

interface Envelope<T> {
  isSuccessful: boolean;
  message: string;
  data: T;
}

async function post<T>(url: string, body: unknown): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const reply = (await response.json()) as Envelope<T>;
  if (!response.ok || !reply.isSuccessful) throw new Error(`POST ${url}: ${response.status} ${reply.message}`);
  return reply.data;
}

/** A paid order, bought the way the order page does: create it, pay in the sandbox, verify. */
async function buyOrder(storeUrl: string): Promise<string> {
  const created = await post<{ razorpay_order_id: string }>(`${storeUrl}/api/order`, {
    type: ORDER_TYPE,
    slug: SERVICE_SLUG,
    qty: String(ORDER_QTY),
    name: 'lighthouse.bench',
    email: 'lighthouse@example.com',
    order_id: String(100_000 + Math.floor(Math.random() * 900_000)),
  });
  const payment = await post<Record<string, string>>(`${storeUrl}/api/sandbox/pay`, {
    razorpay_order_id: created.razorpay_order_id,
  });
  const verified = await post<{ orderId: string }>(`${storeUrl}/api/order/verify-payment`, payment);
  return verified.orderId;
}

/** The first post linked from /blog. */
async function firstBlogPostPath(storeUrl: string): Promise<string> {
  const html = await (await fetch(`${storeUrl}/blog`)).text();
  const slug = [...html.matchAll(/href="\/blog\/([a-z0-9-]+)"/g)]
    .map((match) => match[1])
    .find((candidate) => candidate !== 'category' && candidate !== 'feed');
  if (!slug) throw new Error('/blog links to no post');
  return `/blog/${slug}`;
}

async function resolvePaths(names: string[], storeUrl: string): Promise<string[]> {
  const paths: string[] = [];
  for (const name of names) {
    if (name === 'service') paths.push(`/service/${SERVICE_SLUG}`);
    else if (name === 'order') paths.push(`/order/${SERVICE_SLUG}GOI${ORDER_QTY}?type=${ORDER_TYPE}`);
    else if (name === 'order-confirm') paths.push(`/order-confirm/${await buyOrder(storeUrl)}`);
    else if (name === 'blog-post') paths.push(await firstBlogPostPath(storeUrl));
    else if (name.startsWith('/')) paths.push(name);
    else throw new Error(`Unknown page "${name}": use ${PAGE_NAMES.join(', ')} or a path starting with /`);
  }
  return paths;
}

interface AuditResult {
  id: string;
  title: string;
  score: number | null;
  scoreDisplayMode: string;
  numericValue?: number;
  displayValue?: string;
}

interface LighthouseResult {
  categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>;
  audits: Record<string, AuditResult>;
  runtimeError?: { code: string; message: string };
}

interface RunScores {
  performance: number;
  accessibility: number;
  bestPractices: number;
  cls: number;
  lcp: number;
  tbt: number;
  /** "category: audit-id (display value)" for every audit below a full score. */
  failing: string[];
}

const percent = (score: number | null | undefined) => Math.round((score ?? 0) * 100);

function scoresOf(lhr: LighthouseResult): RunScores {
  const failing: string[] = [];
  for (const [category, label] of [
    ['accessibility', 'a11y'],
    ['best-practices', 'best practices'],
    ['performance', 'performance'],
  ] as const) {
    for (const ref of lhr.categories[category]?.auditRefs ?? []) {
      const audit = lhr.audits[ref.id];
      if (!audit || audit.score === null || audit.scoreDisplayMode === 'informative') continue;
      if (audit.scoreDisplayMode === 'manual' || audit.scoreDisplayMode === 'notApplicable') continue;
      // Performance metrics are in the table; below 0.9 is what Lighthouse itself flags.
      const failed = category === 'performance' ? audit.score < 0.9 : audit.score < 1;
      if (failed) failing.push(`${label}: ${audit.id}${audit.displayValue ? ` (${audit.displayValue})` : ''}`);
    }
  }
  return {
    performance: percent(lhr.categories.performance?.score),
    accessibility: percent(lhr.categories.accessibility?.score),
    bestPractices: percent(lhr.categories['best-practices']?.score),
    cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? Number.NaN,
    lcp: lhr.audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
    tbt: lhr.audits['total-blocking-time']?.numericValue ?? Number.NaN,
    failing,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

interface PageSummary {
  path: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  cls: number;
  lcp: number;
  tbt: number;
  /** Audits that failed in at least half of the runs. */
  failing: string[];
  pass: boolean;
  /** Runs repeated because Lighthouse errored (see MAX_RETRIES). */
  retries: number;
}

function summarise(pagePath: string, runs: RunScores[]): Omit<PageSummary, 'retries'> {
  const pick = (key: 'performance' | 'accessibility' | 'bestPractices' | 'cls' | 'lcp' | 'tbt') =>
    median(runs.map((run) => run[key]));
  // An audit is reported when it failed in at least half of the runs, with its last wording.
  const auditId = (entry: string) => entry.replace(/ \(.*\)$/, '');
  const counts = new Map<string, { count: number; wording: string }>();
  for (const run of runs) {
    for (const entry of run.failing) {
      const seen = counts.get(auditId(entry));
      counts.set(auditId(entry), { count: (seen?.count ?? 0) + 1, wording: entry });
    }
  }
  const failing = [...counts.values()].filter(({ count }) => count * 2 >= runs.length).map(({ wording }) => wording);
  const summary = {
    path: pagePath,
    performance: pick('performance'),
    accessibility: pick('accessibility'),
    bestPractices: pick('bestPractices'),
    cls: pick('cls'),
    lcp: pick('lcp'),
    tbt: pick('tbt'),
    failing,
  };
  const pass =
    summary.performance >= BAR.performance &&
    summary.accessibility >= BAR.accessibility &&
    summary.bestPractices >= BAR.bestPractices &&
    summary.cls < BAR.maxCls;
  return { ...summary, pass };
}

function printTable(summaries: PageSummary[], runs: number): void {
  const header = ['page', 'perf', 'a11y', 'best pr.', 'CLS', 'LCP', 'TBT', 'retries', 'result'];
  const rows = summaries.map((summary) => [
    summary.path,
    String(summary.performance),
    String(summary.accessibility),
    String(summary.bestPractices),
    summary.cls.toFixed(3),
    `${(summary.lcp / 1000).toFixed(2)} s`,
    `${Math.round(summary.tbt)} ms`,
    String(summary.retries),
    summary.pass ? 'pass' : 'FAIL',
  ]);
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: string[]) =>
    `| ${cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join(' | ')} |`;
  console.log(
    `\nLighthouse ${lighthouseVersion()} mobile, median of ${runs} run${runs === 1 ? '' : 's'} per page; bar: performance ≥ ${BAR.performance}, accessibility ${BAR.accessibility}, best practices ${BAR.bestPractices}, CLS < ${BAR.maxCls}\n`,
  );
  console.log(line(header));
  console.log(
    `|${widths.map((width, column) => (column === 0 ? `:${'-'.repeat(width + 1)}` : `${'-'.repeat(width + 1)}:`)).join('|')}|`,
  );
  for (const row of rows) console.log(line(row));
  const withFailures = summaries.filter((summary) => summary.failing.length > 0);
  if (withFailures.length > 0) {
    console.log('\nAudits below the bar (in at least half of the runs):');
    for (const summary of withFailures) console.log(`  ${summary.path}\n    ${summary.failing.join('\n    ')}`);
  }
}

function lighthouseVersion(): string {
  const manifest = JSON.parse(readFileSync(path.join(root, 'node_modules/lighthouse/package.json'), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}

/** A run that errors is repeated up to this many more times; the table counts the retries. */
const MAX_RETRIES = 2;

type Chrome = Awaited<ReturnType<typeof launch>>;

function launchChrome(): Promise<Chrome> {
  return launch({
    chromePath: CHROME_PATH,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
  });
}

/** One Lighthouse run; throws on no result or a runtime error (the caller retries those). */
async function measureOnce(url: string, port: number): Promise<LighthouseResult> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility', 'best-practices'],
  });
  const lhr = result?.lhr as LighthouseResult | undefined;
  if (!lhr) throw new Error('Lighthouse returned no result');
  if (lhr.runtimeError) throw new Error(`${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  return lhr;
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  if (!existsSync(CHROME_PATH)) {
    console.error(`No Chromium at ${CHROME_PATH}: install it (apt-get install chromium) or set CHROME_PATH.`);
    return 2;
  }
  try {
    buildIfNeeded();
  } catch {
    return 1; // the build has said why
  }

  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'boostly-lighthouse-'));
  let store: ChildProcess | undefined;
  let chrome: Chrome | undefined;
  try {
    const started = await startStore(dataDir);
    store = started.child;
    const paths = await resolvePaths(options.pages, started.url);
    chrome = await launchChrome();
    const summaries: PageSummary[] = [];
    for (const pagePath of paths) {
      // One unmeasured load first, so every measured run sees a warm page cache, as a visitor would.
      const warmUp = await fetch(`${started.url}${pagePath}`);
      await warmUp.arrayBuffer();
      if (warmUp.status !== 200) {
        const log = existsSync(started.logPath) ? readFileSync(started.logPath, 'utf8').slice(-4000) : '';
        throw new Error(`${pagePath} answers ${warmUp.status}, not 200: nothing to measure.\n${log}`);
      }
      const runs: RunScores[] = [];
      let retries = 0;
      for (let run = 1; run <= options.runs; run += 1) {
        // Lighthouse sometimes fails a run for reasons of its own (NO_NAVSTART, PROTOCOL_TIMEOUT on a
        // busy machine): such a run is repeated, with a fresh browser, up to MAX_RETRIES more times.
        let lhr: LighthouseResult | undefined;
        for (let attempt = 0; ; attempt += 1) {
          try {
            lhr = await measureOnce(`${started.url}${pagePath}`, chrome.port);
            break;
          } catch (error) {
            const reason = error instanceof Error ? error.message : String(error);
            if (attempt >= MAX_RETRIES) throw new Error(`${pagePath}: ${reason} (after ${MAX_RETRIES} retries)`);
            retries += 1;
            console.warn(`${pagePath} run ${run}/${options.runs}: ${reason}; retrying (${attempt + 1}/${MAX_RETRIES})`);
            chrome.kill();
            chrome = await launchChrome();
          }
        }
        const scores = scoresOf(lhr);
        runs.push(scores);
        console.log(
          `${pagePath} run ${run}/${options.runs}: performance ${scores.performance}, accessibility ${scores.accessibility}, best practices ${scores.bestPractices}, CLS ${scores.cls.toFixed(3)}, LCP ${Math.round(scores.lcp)} ms, TBT ${Math.round(scores.tbt)} ms`,
        );
      }
      summaries.push({ ...summarise(pagePath, runs), retries });
    }
    printTable(summaries, options.runs);
    const failed = summaries.filter((summary) => !summary.pass);
    console.log(
      failed.length === 0
        ? '\nEvery page meets the bar.'
        : `\n${failed.length} of ${summaries.length} pages miss the bar.`,
    );
    return failed.length === 0 ? 0 : 1;
  } finally {
    chrome?.kill();
    store?.kill('SIGTERM');
    if (store && store.exitCode === null) await new Promise((resolve) => store?.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
