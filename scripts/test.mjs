// `npm run test:quick` (`--quick`): the same checks and the Vitest suites on SQLite only, no
// browser: the inner loop while changing code. Its lint skips the files that did not change since
// its last run (see `checks` below). CI runs everything.
// `npm test`: the code checks (types, lint with zero warnings, format, the import graph), then
// build the store if needed, run the Vitest suites (unit and integration, on SQLite and, when
// TEST_DATABASE_URL is set, PostgreSQL), then the Playwright suites in Chromium, and end with one
// summary line. A failed check fails the run but does not stop it, so one run shows everything
// that is wrong.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
/**
 * TypeScript 7's compiler, the native port, for the type check: the same checking as TypeScript 6,
 * which the linter and the build keep using through its JavaScript interface, in a fifth of the time
 * (decision 074). Named by its path: both packages provide a `tsc` command.
 */
const TSC = 'node node_modules/typescript-7/bin/tsc';
const quick = process.argv.includes('--quick');
const reports = path.join(root, '.tmp/test-reports');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

/** How long each step took, printed at the end, so every run says where its time went. */
const steps = [];
const runStarted = Date.now();
let stepStarted = runStarted;
/** Ends the step that is running now under `name` and starts the next. */
const stepDone = (name) => {
  const now = Date.now();
  steps.push(`${name} ${((now - stepStarted) / 1000).toFixed(0)} s`);
  stepStarted = now;
};

const run = (command, args, env = {}) =>
  spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1;

// The checks are independent programs, each mostly single-threaded: they run as many at a time as
// there are cores, the longest first, each one's output held back and printed whole, in this order,
// once all have ended. Lint runs as two processes, the store's files and the tests', because each
// half builds a TypeScript program of its own for the type-aware rules: one process would build both
// in turn while a core sat idle (decision 074).
const check = ([name, command]) =>
  new Promise((resolve) => {
    const started = Date.now();
    const child = spawn('sh', ['-c', command], { cwd: root, env: process.env });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (status) =>
      resolve({ name, status: status ?? 1, output: Buffer.concat(output), seconds: (Date.now() - started) / 1000 }),
    );
  });
/** Runs `checks` at most `lanes` at a time, in their order, and gives their results in that order. */
async function runChecks(checks, lanes) {
  const results = [];
  let next = 0;
  const lane = async () => {
    while (next < checks.length) {
      const index = next++;
      results[index] = await check(checks[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(lanes, checks.length) }, lane));
  return results;
}
// Lint's type-aware rules read React Router's generated route types: generate them once, before
// the side-by-side start (so typecheck here is `npm run typecheck` without its own typegen).
run('npx', ['react-router', 'typegen']);
// What a check may keep between runs, under node_modules/ (so a fresh install starts without it,
// and git never sees it). Decision 076:
// - The type check is incremental: TypeScript records what each file's check depended on and
//   checks again only what a change can reach, so its result is the same as a full check.
// - Prettier skips a file whose content, options and version are unchanged: formatting one file
//   never depends on another.
// - Lint keeps results only in `test:quick`. Its type-aware rules read types from other files, and
//   ESLint's cache knows only each file's own content: a changed type can leave a finding in a file
//   that did not change unreported. `npm test` and CI lint every file.
const cached = (name) => path.join('node_modules', '.cache', 'boostly', name);
const lintCache = (name) => (quick ? ` --cache --cache-strategy content --cache-location ${cached(name)}` : '');
// Longest first (measured alone here, without kept results: the two lints about 95 s and 56 s,
// each of the rest under 30 s), so the short ones fill in beside the longest.
const checks = [
  ['lint (store)', `npx eslint . --ignore-pattern 'tests/**' --max-warnings 0${lintCache('eslint-store')}`],
  ['lint (tests)', `npx eslint tests --max-warnings 0${lintCache('eslint-tests')}`],
  [
    'typecheck',
    `${TSC} --noEmit --incremental --tsBuildInfoFile ${cached('app.tsbuildinfo')} && ` +
      `${TSC} --noEmit -p tests --incremental --tsBuildInfoFile ${cached('tests.tsbuildinfo')}`,
  ],
  ['format:check', `npx prettier --check . --cache --cache-strategy content --cache-location ${cached('prettier')}`],
  ['check:imports', 'npm run --silent check:imports'],
];
const failedChecks = [];
for (const result of await runChecks(checks, Math.max(2, availableParallelism()))) {
  console.log(`\n> ${result.name}`);
  process.stdout.write(result.output);
  console.log(`${result.name} ${result.status === 0 ? 'ok' : 'FAILED'} (${result.seconds.toFixed(1)} s)`);
  if (result.status !== 0) failedChecks.push(result.name);
}

stepDone('checks');

// The page suites render the built store (rebuilt only when a source file changed).
if (run('node', ['scripts/build-if-needed.mjs']) !== 0) process.exit(1);
stepDone('build');

if (quick) {
  process.env.TEST_DIALECTS = 'sqlite';
} else if (!process.env.TEST_DATABASE_URL) {
  console.log('TEST_DATABASE_URL is not set: integration suites run on SQLite only (CI runs PostgreSQL too).');
}
const vitestJson = path.join(reports, 'vitest.json');
const vitestStatus = run('npx', [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${vitestJson}`,
]);

stepDone('vitest');

// playwright.config.ts picks the browser, and fails the run with how to install one when none is there.
const playwrightJson = path.join(reports, 'playwright.json');
const playwrightStatus = quick
  ? 0
  : run('npx', ['playwright', 'test', '--reporter=list,json'], { PLAYWRIGHT_JSON_OUTPUT_FILE: playwrightJson });

if (!quick) stepDone('playwright');

const counts = { passed: 0, failed: 0, skipped: 0 };
if (existsSync(vitestJson)) {
  const report = JSON.parse(readFileSync(vitestJson, 'utf8'));
  counts.passed += report.numPassedTests;
  counts.failed += report.numFailedTests;
  counts.skipped += report.numPendingTests + (report.numTodoTests ?? 0);
}
if (existsSync(playwrightJson)) {
  const { stats } = JSON.parse(readFileSync(playwrightJson, 'utf8'));
  counts.passed += stats.expected + stats.flaky;
  counts.failed += stats.unexpected;
  counts.skipped += stats.skipped;
}
const suitesFailed = vitestStatus !== 0 || playwrightStatus !== 0;
if (suitesFailed && counts.failed === 0) counts.failed = 1; // a suite that could not run counts as a failure
counts.failed += failedChecks.length; // each failed check counts as one failure
const failed = suitesFailed || failedChecks.length > 0;
console.log(
  `\nchecks ${failedChecks.length ? `FAILED: ${failedChecks.join(', ')}` : 'ok'}, vitest ${vitestStatus === 0 ? 'ok' : 'FAILED'}${quick ? ' (SQLite; no browser suites: npm test runs them)' : `, playwright ${playwrightStatus === 0 ? 'ok' : 'FAILED'}`}`,
);
console.log(`${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
console.log(`time: ${steps.join(', ')}; ${((Date.now() - runStarted) / 1000).toFixed(0)} s in all`);
process.exit(failed ? 1 : 0);
