/**
 * The backup and restore commands of docs/operations.md, run as an operator runs them: a store
 * takes orders, `npm run backup -- <file>` copies its database while it is open,
 * `npm run restore -- <file>` loads the copy into an empty database, and a store started on
 * that database finds the same orders; every table the database catalogue lists comes back with
 * the same rows. On SQLite (a file under DATA_DIR) and on PostgreSQL (a
 * fresh database of its own, through pg_dump / pg_restore).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, type DialectName, openDatabase } from '../../db/database.ts';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { type Store, openStore } from '../../server/store.ts';
import { type FreshDatabase, createFreshDatabase } from '../scale/fresh-database.ts';
import { orderBody } from '../scale/order-body.ts';
import { root } from '../support/app.ts';
import { dialects, testDatabaseUrl } from '../support/databases.ts';

/** Where one store keeps its data: a DATA_DIR, and for PostgreSQL a database of its own. */
interface Place {
  env: Record<string, string>;
  dispose(): Promise<void>;
}

async function newPlace(dialect: DialectName): Promise<Place> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'boostly-backup-'));
  const database: FreshDatabase | null =
    dialect === 'postgres' ? await createFreshDatabase(testDatabaseUrl(), 'boostly_backup') : null;
  return {
    // An empty DATABASE_URL means SQLite under DATA_DIR (config.ts treats empty as unset).
    env: { DATA_DIR: dataDir, DATABASE_URL: database?.url ?? '' },
    async dispose() {
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

interface RunningStore {
  store: Store;
  app: FastifyInstance;
  close(): Promise<void>;
}

/** Stores still open; closed before their databases are dropped, even when a test failed. */
const running = new Set<RunningStore>();

async function openPlace(place: Place): Promise<RunningStore> {
  const config = loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'silent', ...place.env });
  const store = await openStore(config, undefined, { logger: pino({ level: 'silent' }) });
  let app: FastifyInstance;
  try {
    app = await buildApp({ config, store, logger: false });
    await app.ready();
  } catch (error) {
    await store.close();
    throw error;
  }
  const opened: RunningStore = {
    store,
    app,
    async close() {
      running.delete(opened);
      await app.close();
      await store.close();
    },
  };
  running.add(opened);
  return opened;
}

/** Opens the place's database directly, as the tables are what a restore must bring back. */
function databaseOf(place: Place): DatabaseHandle {
  const { DATA_DIR: dataDir = '', DATABASE_URL: url } = place.env;
  return openDatabase({ url: url || undefined, sqlitePath: path.join(dataDir, 'store.db') });
}

/** `npm run <script> -- <args>` with the place's configuration, as in docs/operations.md. */
function npmRun(script: string, args: string[], place: Place): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script, '--', ...args], {
      cwd: root,
      env: { ...process.env, ...place.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

/** Every table the database's own catalogue lists: SQLite's sqlite_master, PostgreSQL's pg_tables. */
async function tableNames(handle: DatabaseHandle): Promise<string[]> {
  const { rows } =
    handle.dialect === 'postgres'
      ? await sql<{ name: string }>`select tablename as name from pg_catalog.pg_tables
          where schemaname = current_schema() order by tablename`.execute(handle.db)
      : await sql<{ name: string }>`select name from sqlite_master
          where type = 'table' and name not like 'sqlite_%' order by name`.execute(handle.db);
  return rows.map((row) => row.name);
}

/**
 * Every table with its row count and its rows (in a stable order: a restore need not keep the
 * physical one), so a backup that leaves out a table, a row or a value cannot pass.
 */
async function snapshot(place: Place) {
  const handle = databaseOf(place);
  try {
    const tables: Record<string, { count: number; rows: unknown[] }> = {};
    for (const name of await tableNames(handle)) {
      const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(handle.db);
      const { rows: counted } = await sql<{ count: number | string }>`select count(*) as count from ${sql.table(
        name,
      )}`.execute(handle.db);
      const sorted = rows
        .map((row) => ({
          key: JSON.stringify(row, (_key, value: unknown) =>
            Buffer.isBuffer(value) ? value.toString('base64') : value,
          ),
          row,
        }))
        .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
        .map(({ row }) => row);
      tables[name] = { count: Number(counted[0]?.count ?? -1), rows: sorted };
    }
    return tables;
  } finally {
    await handle.close();
  }
}

/** The orders of a snapshot, by id. */
const ordersOf = (tables: Awaited<ReturnType<typeof snapshot>>) =>
  (tables.orders?.rows ?? []) as { id: number; payment_status: string }[];

describe.each(dialects)('backup and restore on %s', (dialect) => {
  const places: Place[] = [];
  const dir = mkdtempSync(path.join(tmpdir(), 'boostly-backup-files-'));
  afterAll(async () => {
    await Promise.all([...running].map((opened) => opened.close()));
    await Promise.all(places.splice(0).map((place) => place.dispose()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('backs up a store with orders while it runs and restores it into an empty database', async () => {
    const source = await newPlace(dialect);
    const target = await newPlace(dialect);
    places.push(source, target);

    // A store with paid and unpaid orders, receipts sent and paid orders with the supplier.
    const shop = await openPlace(source);
    const paidIds: string[] = [];
    let client = 0;
    const post = (url: string, payload: object) =>
      shop.app.inject({ method: 'POST', url, payload, remoteAddress: `10.9.0.${++client}` });
    for (let n = 0; n < 4; n += 1) {
      const created = await post('/api/order', orderBody('backup', n));
      expect(created.statusCode).toBe(200);
      if (n === 3) continue; // one customer never pays
      const { razorpay_order_id: providerOrderId } = created.json().data as { razorpay_order_id: string };
      const paid = await post('/api/sandbox/pay', { razorpay_order_id: providerOrderId });
      const verified = await post('/api/order/verify-payment', paid.json().data as object);
      expect(verified.statusCode).toBe(200);
      paidIds.push((verified.json().data as { orderId: string }).orderId);
    }
    while ((await shop.store.worker.runOnce()) > 0) {
      // drain: receipts, submissions to the simulated panel
    }

    const file = path.join(dir, dialect === 'postgres' ? 'store.dump' : 'store.sqlite');
    const backup = await npmRun('backup', [file], source);
    expect(backup.output).toContain('Backed up');
    expect(backup.code).toBe(0);
    const before = await snapshot(source);
    await shop.close();
    expect(ordersOf(before)).toHaveLength(4);
    expect(ordersOf(before).filter((order) => order.payment_status === 'paid')).toHaveLength(3);
    // The store's own tables are all there, with rows where this store wrote some.
    for (const table of ['orders', 'order_events', 'jobs', 'settings'])
      expect(before[table]?.count, table).toBeGreaterThan(0);

    // An existing file is never overwritten.
    expect((await npmRun('db:backup', [file], source)).code).toBe(1);

    const restore = await npmRun('restore', [file], target);
    expect(restore.output).toContain('Restored');
    expect(restore.code).toBe(0);
    const after = await snapshot(target);
    expect(Object.keys(after)).toEqual(Object.keys(before));
    for (const [table, contents] of Object.entries(before)) {
      expect(after[table]?.count, `${table}: row count`).toBe(contents.count);
      expect(after[table]?.rows, `${table}: rows`).toEqual(contents.rows);
    }

    // The restored store serves the same orders, and its installation secrets came along.
    const restored = await openPlace(target);
    try {
      for (const orderId of paidIds) {
        const status = await restored.app.inject({ method: 'GET', url: `/api/order/order-status?orderId=${orderId}` });
        expect(status.statusCode).toBe(200);
        expect(status.json().data).toMatchObject({ orderId, paymentStatus: 'paid' });
      }
    } finally {
      await restored.close();
    }

    // A second restore into the now non-empty database is refused unless forced.
    const again = await npmRun('db:restore', [file], target);
    expect(again.code).toBe(1);
    expect(again.output).toContain('not empty');
    const forced = await npmRun('db:restore', [file, '--force'], target);
    expect(forced.code).toBe(0);
    expect(await snapshot(target)).toEqual(before);
  }, 120_000);

  it('refuses a file that is not a backup for this kind of database, before touching anything', async () => {
    const place = await newPlace(dialect);
    places.push(place);
    const text = path.join(dir, 'notes.txt');
    writeFileSync(text, 'not a database');
    const otherKind = path.join(dir, `other-kind-${dialect}`);
    if (dialect === 'postgres') {
      const sqlite = new SQLite(otherKind);
      sqlite.exec('create table t (x integer)');
      sqlite.close();
    } else {
      writeFileSync(otherKind, 'PGDMP\u0001\u000e\u0000'); // how a pg_dump archive starts
    }

    const notABackup = await npmRun('db:restore', [text], place);
    expect(notABackup.code).toBe(1);
    expect(notABackup.output).toContain('is not a db:backup file');
    const wrongKind = await npmRun('db:restore', [otherKind], place);
    expect(wrongKind.code).toBe(1);
    expect(wrongKind.output).toContain(
      dialect === 'postgres' ? 'This is a SQLite backup' : 'This is a PostgreSQL backup',
    );
    const handle = databaseOf(place);
    try {
      expect(await handle.db.introspection.getTables()).toEqual([]);
    } finally {
      await handle.close();
    }
  }, 60_000);
});
