/**
 * `npm run bench:admin`: latency of the admin orders list (core/admin/orders-search.ts) and of
 * the owner's dashboard (core/admin/dashboard.ts) at a million orders, on SQLite and on
 * PostgreSQL, for every kind of request the console serves: no filter, each status, keyword
 * searches, status + keyword, pages 1, 2 and 500, the payment provider filter; the dashboard over
 * 7, 30 and 90 days.
 *
 * Each dialect gets its own store, seeded once with `seedOrders` (scripts/seed-orders.ts) and
 * reused by later runs:
 *   - SQLite: $BENCH_SQLITE_DIR/orders-<N>/store.db (default under the OS temp directory);
 *   - PostgreSQL: schema `bench_<N>` in $BENCH_DATABASE_URL
 *     (default postgres://boostly:boostly@127.0.0.1:5432/boostly_bench; create the database with
 *     su postgres -c "psql -c 'CREATE DATABASE boostly_bench OWNER boostly'").
 *
 *   BENCH_ORDERS=1000000      orders to seed and measure against
 *   BENCH_RUNS=30             timed calls per combination (after BENCH_WARMUP=3 untimed ones)
 *   BENCH_DIALECTS=sqlite,postgres
 *   BENCH_TARGET_MS=50        the p95 each orders-list combination must stay under
 *   BENCH_DASHBOARD_TARGET_MS=200  the p95 each dashboard range must stay under (decision 042)
 *   BENCH_FRESH=1             drop the seeded store and seed again
 *   BENCH_JSON=path           also write the results as JSON
 *
 * Latency is measured around `console.list(...)` and `dashboard.figures(...)` in this process:
 * the queries, the count and the row mapping, without HTTP. Exit status 1 when any combination fails the target.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { sql } from 'kysely';
import { DASHBOARD_RANGES } from '../core/admin/dashboard-figures.ts';
import { createDashboard } from '../core/admin/dashboard.ts';
import { createOrdersConsole } from '../core/admin/orders-console.ts';
import type { OrdersListQuery as ListQuery, OrdersPage as ListResult } from '../core/admin/contracts.ts';
import { type DatabaseHandle, type DialectName, openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { seedOrders } from './seed-orders.ts';

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name]?.replaceAll('_', '');
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) {
    console.error(`${name} must be a positive integer (got "${process.env[name]}")`);
    process.exit(2);
  }
  return value;
}

const ORDERS = positiveInt('BENCH_ORDERS', 1_000_000);
const RUNS = positiveInt('BENCH_RUNS', 30);
const WARMUP = positiveInt('BENCH_WARMUP', 3);
const TARGET_MS = positiveInt('BENCH_TARGET_MS', 50);
const DASHBOARD_TARGET_MS = positiveInt('BENCH_DASHBOARD_TARGET_MS', 200);
const FRESH = process.env.BENCH_FRESH === '1';
// Checked one by one in main(), so a bad name stops the run where it appears.
const DIALECTS = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',').map((d) => d.trim());
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://boostly:boostly@127.0.0.1:5432/boostly_bench';
const SQLITE_DIR = path.join(
  process.env.BENCH_SQLITE_DIR ?? path.join(os.tmpdir(), 'boostly-bench-admin'),
  `orders-${ORDERS}`,
);
const PG_SCHEMA = `bench_${ORDERS}`;
const SEED_KEY = 'bench-admin.seed';

interface Combination {
  group: string;
  label: string;
  /** An orders-list query, or a dashboard range. */
  query: ListQuery | { dashboardDays: (typeof DASHBOARD_RANGES)[number] };
}

interface Measured extends Combination {
  p50: number;
  p95: number;
  max: number;
  count: number;
  countExact: boolean;
  rows: number;
  targetMs: number;
  pass: boolean;
}

interface DialectReport {
  dialect: DialectName;
  orders: number;
  seed: { ms: number; at: string; reused: boolean };
  results: Measured[];
}

function percentile(sorted: number[], p: number): number {
  const value = sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
  if (value === undefined) throw new Error('No timings to take a percentile of');
  return value;
}

async function openBenchDatabase(dialect: DialectName): Promise<DatabaseHandle | null> {
  if (dialect === 'sqlite') {
    if (FRESH) rmSync(SQLITE_DIR, { recursive: true, force: true });
    mkdirSync(SQLITE_DIR, { recursive: true });
    return openDatabase({ sqlitePath: path.join(SQLITE_DIR, 'store.db') });
  }
  const admin = new pg.Client({ connectionString: PG_URL });
  try {
    await admin.connect();
  } catch (error) {
    const code = (error as { code?: string }).code;
    console.error(
      code === '3D000'
        ? `PostgreSQL: the database in BENCH_DATABASE_URL does not exist. Create it, e.g.:\n  su postgres -c "psql -c 'CREATE DATABASE boostly_bench OWNER boostly'"`
        : `PostgreSQL: cannot connect to ${PG_URL.replace(/:[^:@/]*@/, ':***@')}: ${(error as Error).message}`,
    );
    return null;
  }
  if (FRESH) await admin.query(`drop schema if exists ${PG_SCHEMA} cascade`);
  await admin.query(`create schema if not exists ${PG_SCHEMA}`);
  await admin.end();
  return openDatabase({ url: PG_URL, pgSchema: PG_SCHEMA, poolSize: 4 });
}

async function orderCount(handle: DatabaseHandle): Promise<number> {
  const { rows } = await sql<{ n: number | string | null }>`select sum(n) as n from order_counts`.execute(handle.db);
  return Number(rows[0]?.n ?? 0);
}

/** Seeds the store unless a previous run did; returns how long seeding took (then or now). */
async function ensureSeeded(handle: DatabaseHandle, dialect: DialectName): Promise<DialectReport['seed']> {
  await migrateToLatest(handle.db);
  const existing = await orderCount(handle);
  const note = await handle.db.selectFrom('settings').select('value').where('key', '=', SEED_KEY).executeTakeFirst();
  if (existing >= ORDERS * 0.99 && note) {
    const seed = JSON.parse(note.value) as { ms: number; at: string };
    console.log(
      `${dialect}: ${existing.toLocaleString('en-US')} orders already seeded (${(seed.ms / 1000).toFixed(1)} s on ${seed.at}).`,
    );
    return { ...seed, reused: true };
  }
  if (existing > 0) {
    console.log(`${dialect}: an incomplete seed (${existing} orders): starting over.`);
    if (dialect === 'postgres') await sql`truncate orders cascade`.execute(handle.db);
    else await sql`delete from orders`.execute(handle.db);
  }
  console.log(`${dialect}: seeding ${ORDERS.toLocaleString('en-US')} orders…`);
  let last = 0;
  const result = await seedOrders(handle.db, dialect, ORDERS, {
    seed: 20_261_122,
    sqliteFile: dialect === 'sqlite' ? path.join(SQLITE_DIR, 'store.db') : undefined,
    onProgress(inserted) {
      if (inserted - last >= 200_000 || inserted >= ORDERS) {
        last = inserted;
        console.log(`  ${inserted.toLocaleString('en-US')}`);
      }
    },
  });
  const seed = { ms: Math.round(result.ms), at: new Date().toISOString() };
  await handle.db
    .insertInto('settings')
    .values({ key: SEED_KEY, value: JSON.stringify(seed) })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(seed) }))
    .execute();
  console.log(
    `${dialect}: seeded ${result.inserted.toLocaleString('en-US')} orders in ${(result.ms / 1000).toFixed(1)} s.`,
  );
  return { ...seed, reused: false };
}

/** Keywords taken from the seeded data, so every search means something. */
async function combinations(handle: DatabaseHandle): Promise<Combination[]> {
  const { db } = handle;
  const span = await db
    .selectFrom('orders')
    .select((eb) => [eb.fn.min('id').as('lo'), eb.fn.max('id').as('hi')])
    .executeTakeFirstOrThrow();
  const at = (fraction: number) => Math.floor(Number(span.lo) + (Number(span.hi) - Number(span.lo)) * fraction);
  const sample = await db
    .selectFrom('orders')
    .select(['provider_order_id', 'email'])
    .where('id', '>=', at(0.37))
    .orderBy('id')
    .limit(1)
    .executeTakeFirstOrThrow();
  const handleRow = await db
    .selectFrom('orders')
    .select('target')
    .where('id', '>=', at(0.61))
    .where('target_kind', '=', 'instagram_username')
    .orderBy('id')
    .limit(1)
    .executeTakeFirstOrThrow();
  // "olivia.martin87@gmail.com" → "olivia.martin": what an admin types from a customer's e-mail.
  const emailFragment = (sample.email.split('@')[0] ?? '').replace(/\d+$/, '').slice(0, 14) || sample.email.slice(0, 6);
  // A handle without its decoration, e.g. "sophia_kim_fit" → "sophia_k".
  const targetFragment = handleRow.target.slice(0, 8);
  const orderId = sample.provider_order_id;
  const publicId = orderId.replace(/^order_/, '');

  const list: Combination[] = [{ group: 'no filter', label: 'all orders, page 1', query: {} }];
  for (const status of ['Completed', 'In Progress', 'Partial', 'Processing', 'Canceled', 'Pending']) {
    list.push({ group: 'status', label: status, query: { status } });
  }
  list.push(
    { group: 'keyword', label: `e-mail fragment "${emailFragment}"`, query: { keyword: emailFragment } },
    { group: 'keyword', label: `target fragment "${targetFragment}"`, query: { keyword: targetFragment } },
    { group: 'keyword', label: 'service name "Instagram Followers"', query: { keyword: 'Instagram Followers' } },
    { group: 'keyword', label: 'service name "TikTok Likes"', query: { keyword: 'TikTok Likes' } },
    { group: 'keyword', label: `exact order id "${orderId}"`, query: { keyword: orderId } },
    { group: 'keyword', label: `order id without prefix "${publicId}"`, query: { keyword: publicId } },
    { group: 'keyword', label: 'common fragment "gmail"', query: { keyword: 'gmail' } },
    { group: 'keyword', label: 'rare, no hits "zzq-no-such-order"', query: { keyword: 'zzq-no-such-order' } },
    { group: 'keyword', label: 'two characters "zq" (prefix)', query: { keyword: 'zq' } },
    { group: 'keyword', label: 'two characters "ol" (prefix)', query: { keyword: 'ol' } },
    {
      group: 'status + keyword',
      label: `Completed + "${emailFragment}"`,
      query: { status: 'Completed', keyword: emailFragment },
    },
    {
      group: 'status + keyword',
      label: 'Partial + "instagram followers"',
      query: { status: 'Partial', keyword: 'instagram followers' },
    },
    { group: 'status + keyword', label: 'Pending + "gmail"', query: { status: 'Pending', keyword: 'gmail' } },
    {
      group: 'status + keyword',
      label: 'In Progress + "youtube"',
      query: { status: 'In Progress', keyword: 'youtube' },
    },
    {
      group: 'status + keyword',
      label: 'Completed + "tiktok likes"',
      query: { status: 'Completed', keyword: 'tiktok likes' },
    },
    { group: 'pages', label: 'all orders, page 2', query: { page: 2 } },
    { group: 'pages', label: 'all orders, page 500', query: { page: 500 } },
    { group: 'pages', label: 'all orders, page 500, size 100', query: { page: 500, size: 100 } },
    { group: 'pages', label: 'Completed, page 2', query: { status: 'Completed', page: 2 } },
    { group: 'pages', label: 'Completed, page 500', query: { status: 'Completed', page: 500 } },
    { group: 'pages', label: 'Pending, page 500', query: { status: 'Pending', page: 500 } },
    { group: 'pages', label: '"instagram followers", page 2', query: { keyword: 'instagram followers', page: 2 } },
    { group: 'pages', label: '"instagram followers", page 500', query: { keyword: 'instagram followers', page: 500 } },
    { group: 'pages', label: `"${emailFragment}", page 2`, query: { keyword: emailFragment, page: 2 } },
    // The seeded orders are all Razorpay's: its filter is the widest one (an estimated count), and
    // Cryptomus's the empty one.
    { group: 'provider', label: 'Razorpay, page 1', query: { provider: 'razorpay' } },
    { group: 'provider', label: 'Razorpay, page 500', query: { provider: 'razorpay', page: 500 } },
    { group: 'provider', label: 'Razorpay + Completed', query: { provider: 'razorpay', status: 'Completed' } },
    { group: 'provider', label: 'Razorpay + "gmail"', query: { provider: 'razorpay', keyword: 'gmail' } },
    {
      group: 'provider',
      label: `Razorpay + "${emailFragment}"`,
      query: { provider: 'razorpay', keyword: emailFragment },
    },
    { group: 'provider', label: 'Cryptomus (no orders)', query: { provider: 'cryptomus' } },
  );
  for (const dashboardDays of DASHBOARD_RANGES) {
    list.push({ group: 'dashboard', label: `figures, last ${dashboardDays} days`, query: { dashboardDays } });
  }
  return list;
}

async function measure(handle: DatabaseHandle, combination: Combination): Promise<Measured> {
  const console_ = createOrdersConsole({ db: handle.db });
  const dashboard = createDashboard({ db: handle.db });
  const { query } = combination;
  // What one call answered, in the table's terms: a dashboard's "count" is its days × currencies.
  const call = async (): Promise<{ count: number; countExact: boolean; rows: number }> => {
    if ('dashboardDays' in query) {
      const figures = await dashboard.figures(query.dashboardDays);
      const days = figures.series.reduce((sum, series) => sum + series.days.length, 0);
      return { count: days, countExact: true, rows: figures.series.length };
    }
    const page: ListResult = await console_.list(query);
    return { count: page.count, countExact: page.countExact, rows: page.rows.length };
  };
  let last = { count: 0, countExact: true, rows: 0 };
  for (let i = 0; i < WARMUP; i += 1) last = await call();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const started = performance.now();
    last = await call();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const p95 = percentile(times, 95);
  const targetMs = 'dashboardDays' in query ? DASHBOARD_TARGET_MS : TARGET_MS;
  return {
    ...combination,
    p50: percentile(times, 50),
    p95,
    max: percentile(times, 100),
    ...last,
    targetMs,
    pass: p95 <= targetMs,
  };
}

function printReport(report: DialectReport) {
  const seed = `${(report.seed.ms / 1000).toFixed(1)} s${report.seed.reused ? ` (seeded ${report.seed.at})` : ''}`;
  console.log(
    `\n${report.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'}: ${report.orders.toLocaleString('en-US')} orders, seed ${seed}, ${RUNS} runs each after ${WARMUP} warm-up, target p95 ≤ ${TARGET_MS} ms (orders list) and ≤ ${DASHBOARD_TARGET_MS} ms (dashboard)\n`,
  );
  const header = ['group', 'combination', 'p50 ms', 'p95 ms', 'max ms', 'count', 'rows', 'result'];
  const lines = report.results.map((r) => [
    r.group,
    r.label.length > 52 ? `${r.label.slice(0, 51)}…` : r.label,
    r.p50.toFixed(1),
    r.p95.toFixed(1),
    r.max.toFixed(1),
    `${r.countExact ? '' : '~'}${r.count.toLocaleString('en-US')}`,
    String(r.rows),
    r.pass ? 'PASS' : 'FAIL',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]?.length ?? 0)));
  const row = (cells: string[]) =>
    cells.map((c, i) => (i >= 2 && i <= 6 ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join('  ');
  console.log(row(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const line of lines) console.log(row(line));
  const failed = report.results.filter((r) => !r.pass);
  console.log(
    `\n${failed.length === 0 ? 'PASS' : 'FAIL'}: ${report.results.length - failed.length}/${report.results.length} combinations within their p95 target (~ marks an estimated count)`,
  );
}

async function main() {
  const reports: DialectReport[] = [];
  let failed = false;
  for (const dialect of DIALECTS) {
    if (dialect !== 'sqlite' && dialect !== 'postgres') {
      console.error(`Unknown dialect "${dialect}" in BENCH_DIALECTS`);
      process.exit(2);
    }
    const handle = await openBenchDatabase(dialect);
    if (!handle) {
      failed = true;
      continue;
    }
    try {
      const seed = await ensureSeeded(handle, dialect);
      const orders = await orderCount(handle);
      const results: Measured[] = [];
      for (const combination of await combinations(handle)) results.push(await measure(handle, combination));
      const report: DialectReport = { dialect, orders, seed, results };
      printReport(report);
      reports.push(report);
      if (results.some((r) => !r.pass)) failed = true;
    } finally {
      await handle.close();
    }
  }
  if (process.env.BENCH_JSON)
    writeFileSync(
      process.env.BENCH_JSON,
      JSON.stringify({ targetMs: TARGET_MS, dashboardTargetMs: DASHBOARD_TARGET_MS, runs: RUNS, reports }, null, 2),
    );
  process.exit(failed ? 1 : 0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
