/**
 * `npm run bench:subscriptions`: what the supplier status sync (core/fulfilment/sync.ts) costs
 * with 10,000 live subscriptions, beside a baseline of 10,000 live one-off orders, in one run.
 *
 * Each scenario gets a fresh SQLite store (under the OS temp directory) seeded with realistic
 * orders (scripts/seed-orders.ts), of which BENCH_LIVE are made live at the supplier:
 *   - baseline: BENCH_LIVE one-off orders;
 *   - subscriptions: BENCH_LIVE running automatic-likes subscriptions and BENCH_ONE_OFF one-off
 *     orders beside them (do the subscriptions starve the one-off orders?).
 * The panel is a local stand-in answering the real protocol (multi `status`, 100 ids a call)
 * through the store's real client, after BENCH_PANEL_LATENCY_MS; it counts the calls. The store's
 * clock moves SUPPLIER_SYNC_SECONDS (60) per round, as the recurring job runs.
 *
 *   BENCH_LIVE=10000  BENCH_ONE_OFF=100  BENCH_ROUNDS=40  BENCH_PANEL_LATENCY_MS=50
 *
 * Reported per scenario: panel calls per round, ms per round (mean, p95), rows asked about per
 * round, and the rounds it took until every one-off order and every subscription was asked about
 * at least once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSmmPanelClient } from '../core/fulfilment/smm-panel-client.ts';
import { syncSupplierStatuses } from '../core/fulfilment/sync.ts';
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import type { Kysely, Selectable } from 'kysely';
import type { Database, OrdersTable } from '../db/schema.ts';
import { seedOrders } from './seed-orders.ts';

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name]?.replaceAll('_', '');
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    console.error(`${name} must be a whole number (got "${process.env[name]}")`);
    process.exit(2);
  }
  return value;
}

const LIVE = positiveInt('BENCH_LIVE', 10_000);
const ONE_OFF = positiveInt('BENCH_ONE_OFF', 100);
const ROUNDS = positiveInt('BENCH_ROUNDS', 40);
const LATENCY_MS = positiveInt('BENCH_PANEL_LATENCY_MS', 50);
const ROUND_MS = 60_000;
const DAY_MS = 86_400_000;

/** The panel: every order In progress, a few posts served; counts its `status` calls. */
function benchPanel() {
  let calls = 0;
  const fetchStub: typeof fetch = async (_url, init) => {
    const form = new URLSearchParams(typeof init?.body === 'string' ? init.body : '');
    calls += 1;
    await new Promise((resolve) => setTimeout(resolve, LATENCY_MS));
    const ids = (form.get('orders') ?? form.get('order') ?? '').split(',').filter(Boolean);
    const entry = {
      charge: '0.10',
      start_count: '0',
      status: 'In progress',
      remains: '0',
      currency: 'USD',
      posts: '3',
    };
    const body = form.get('orders') ? Object.fromEntries(ids.map((id) => [id, entry])) : entry;
    return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
  };
  const client = createSmmPanelClient({ url: 'http://bench.panel.invalid/api/v2', key: 'bench', fetch: fetchStub });
  return { panels: { get: () => Promise.resolve(client) }, calls: () => calls };
}

/**
 * Inserts `count` paid orders live at the supplier (In Progress), of `kind`, cloned from a seeded
 * order, with their supplier orders (and subscriptions). Inserts only: a bench never changes an
 * order's state (tests/unit/order-writers.test.ts).
 */
async function insertLive(
  db: Kysely<Database>,
  template: Selectable<OrdersTable>,
  count: number,
  kind: 'package' | 'automatic_likes',
  now: Date,
): Promise<void> {
  const at = now.toISOString();
  const { id: _id, ...base } = template;
  for (let start = 0; start < count; start += 200) {
    const size = Math.min(200, count - start);
    const rows = Array.from({ length: size }, (_, i) => {
      const n = `${kind}${start + i}`;
      return {
        ...base,
        provider_order_id: `order_bench${n}`,
        client_order_id: String(start + i),
        email: `bench.${n}@example.com`,
        payment_id: `pay_bench${n}`,
        kind,
        payment_status: 'paid' as const,
        order_status: 'In Progress' as const,
        fulfilment_state: 'submitted' as const,
        needs_review: 0,
        pending_action: null,
      };
    });
    const ids = (await db.insertInto('orders').values(rows).returning('id').execute()).map((r) => r.id);
    await db
      .insertInto('supplier_orders')
      .values(
        ids.map((orderId) => ({
          order_id: orderId,
          supplier_order_id: String(50_000_000 + orderId),
          quantity: 100,
          status: 'In Progress' as const,
          remains: 0,
          start_count: 0,
          charge_e4: 1000,
          final: 0,
          cancel_requested_at: null,
          error_message: null,
          created_at: at,
          synced_at: null,
        })),
      )
      .execute();
    if (kind === 'automatic_likes')
      await db
        .insertInto('subscriptions')
        .values(
          ids.map((orderId) => ({
            order_id: orderId,
            kind: 'automatic_likes' as const,
            per_unit: 100,
            posts: 30,
            delay_minutes: 0,
            period_days: 30,
            starts_at: at,
            ends_at: new Date(now.getTime() + 30 * DAY_MS).toISOString(),
          })),
        )
        .execute();
  }
}

interface ScenarioResult {
  name: string;
  calls: number[];
  ms: number[];
  checked: number[];
  oneOffCoveredAfter: number | null;
  subscriptionsCoveredAfter: number | null;
}

async function scenario(name: string, live: { oneOff: number; subscriptions: number }): Promise<ScenarioResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'boostly-bench-subs-'));
  const file = path.join(dir, 'store.db');
  const handle = openDatabase({ sqlitePath: file });
  try {
    const { db } = handle;
    await migrateToLatest(db);
    let clock = Date.now();
    const now = () => new Date(clock);
    // A few hundred finished orders around the live ones, and the template they are cloned from.
    await seedOrders(db, 'sqlite', 500, { seed: 57, sqliteFile: file, now: now() });
    await db.deleteFrom('supplier_orders').execute();
    const template = await db
      .selectFrom('orders')
      .selectAll()
      .where('payment_status', '=', 'paid')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    await insertLive(db, template, live.subscriptions, 'automatic_likes', now());
    await insertLive(db, template, live.oneOff, 'package', now());

    const panel = benchPanel();
    const deps = { db, panels: panel.panels, now };
    const result: ScenarioResult = {
      name,
      calls: [],
      ms: [],
      checked: [],
      oneOffCoveredAfter: null,
      subscriptionsCoveredAfter: null,
    };
    const unsynced = async (kind: 'package' | 'automatic_likes') =>
      Number(
        (
          await db
            .selectFrom('supplier_orders')
            .innerJoin('orders', 'orders.id', 'supplier_orders.order_id')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('orders.kind', '=', kind)
            .where('supplier_orders.synced_at', 'is', null)
            .executeTakeFirstOrThrow()
        ).n,
      );
    for (let round = 1; round <= ROUNDS; round += 1) {
      clock += ROUND_MS;
      const before = panel.calls();
      const started = performance.now();
      const { checked } = await syncSupplierStatuses(deps);
      result.ms.push(performance.now() - started);
      result.calls.push(panel.calls() - before);
      result.checked.push(checked);
      if (result.oneOffCoveredAfter === null && live.oneOff > 0 && (await unsynced('package')) === 0)
        result.oneOffCoveredAfter = round;
      if (
        result.subscriptionsCoveredAfter === null &&
        live.subscriptions > 0 &&
        (await unsynced('automatic_likes')) === 0
      )
        result.subscriptionsCoveredAfter = round;
    }
    return result;
  } finally {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / Math.max(1, values.length);
const p95 = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.max(0, Math.ceil(values.length * 0.95) - 1)] ?? 0;
const covered = (rounds: number | null) => (rounds === null ? `not within ${ROUNDS} rounds` : `${rounds} round(s)`);

async function main() {
  console.log(
    `Status sync: ${ROUNDS} rounds of ${ROUND_MS / 1000} s, panel latency ${LATENCY_MS} ms per call, SQLite\n`,
  );
  const results = [
    await scenario(`baseline: ${LIVE} one-off orders`, { oneOff: LIVE, subscriptions: 0 }),
    await scenario(`${LIVE} subscriptions + ${ONE_OFF} one-off orders`, { oneOff: ONE_OFF, subscriptions: LIVE }),
  ];
  for (const r of results) {
    console.log(r.name);
    console.log(
      `  panel calls per round: mean ${mean(r.calls).toFixed(1)}, max ${Math.max(...r.calls)}; rows asked per round: mean ${mean(r.checked).toFixed(0)}`,
    );
    console.log(`  ms per round: mean ${mean(r.ms).toFixed(0)}, p95 ${p95(r.ms).toFixed(0)}`);
    console.log(`  calls per round, round by round: ${r.calls.join(' ')}`);
    if (r.name.includes('subscriptions')) {
      console.log(`  every one-off order asked about after ${covered(r.oneOffCoveredAfter)}`);
      console.log(`  every subscription asked about after ${covered(r.subscriptionsCoveredAfter)}`);
    } else {
      console.log(`  every one-off order asked about after ${covered(r.oneOffCoveredAfter)}`);
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
