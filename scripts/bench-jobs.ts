/**
 * `npm run bench:jobs`: does background work keep up with checkout? One store instance (its app
 * and its job worker, as `npm start` runs them) takes paid orders as fast as BENCH_CONNECTIONS
 * buyers can place and pay them (create the order, pay in the keyless sandbox, verify the signed
 * result), while its worker sends each paid order to the simulated supplier panel and its receipt
 * to a local SMTP sink. In ONE run it prints:
 *
 * - paid orders accepted per second;
 * - paid orders drained per second while the load ran (submitted to the panel AND receipt
 *   handed to SMTP), and the ratio drained/accepted (1 or more: the worker keeps up);
 * - the backlog when the load stopped (paid orders still waiting for either) and how long it
 *   took to clear.
 *
 *   BENCH_SECONDS=20        seconds of load
 *   BENCH_CONNECTIONS=20    buyers at once
 *   BENCH_DATABASE_URL=postgres://…  run on PostgreSQL (a fresh schema, dropped afterwards);
 *                           default a fresh SQLite file
 *   DATABASE_POOL_SIZE=10   the store's setting: on PostgreSQL the worker runs up to two fewer
 *                           jobs at once than the pool has connections
 *
 * The buyers are HTTP clients in this process, over keep-alive sockets to the store listening on
 * 127.0.0.1 (each buyer its own X-Forwarded-For, as behind a proxy); the SMTP sink is a process
 * of its own. The numbers are for this machine as loaded: compare the two rates, not runs.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { pino } from 'pino';
import { catalogueSeed } from '../core/catalogue/seed/catalogue-seed.ts';
import { openDatabase } from '../db/database.ts';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { openStore } from '../server/store.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 20);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const pgUrl = process.env.BENCH_DATABASE_URL;
const poolSize = Number(process.env.DATABASE_POOL_SIZE ?? 10);

/**
 * The SMTP sink runs in a process of its own, as a mail server would: in the store's process it
 * would compete with the store for the event loop and slow every send down.
 */
const SINK_SOURCE = `
const { SMTPServer } = require('smtp-server');
let received = 0;
const server = new SMTPServer({
  authOptional: true, disabledCommands: ['STARTTLS'], logger: false,
  onData(stream, _session, callback) { stream.resume(); stream.on('end', () => { received += 1; callback(); }); },
});
server.listen(0, '127.0.0.1', () => console.log('port ' + server.server.address().port));
process.on('message', () => process.send(received));
`;

async function startSmtpSink(): Promise<{ url: string; received: () => Promise<number>; close: () => void }> {
  const child = spawn(process.execPath, ['-e', SINK_SOURCE], {
    cwd: path.resolve(import.meta.dirname, '..'),
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      const match = /port (\d+)/.exec(chunk.toString());
      if (match?.[1]) resolve(Number(match[1]));
    });
    child.on('exit', () => reject(new Error('the SMTP sink did not start')));
  });
  return {
    url: `smtp://127.0.0.1:${port}`,
    received: () =>
      new Promise<number>((resolve) => {
        child.once('message', (count) => resolve(Number(count)));
        child.send('count');
      }),
    close: () => void child.kill(),
  };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'boostly-bench-jobs-'));
  const schema = `bench_jobs_${randomBytes(4).toString('hex')}`;
  const database = pgUrl
    ? openDatabase({ url: pgUrl, pgSchema: schema, poolSize: poolSize })
    : openDatabase({ sqlitePath: path.join(dir, 'store.db') });
  // The store migrates into its own schema on PostgreSQL; the schema itself must exist first.
  if (pgUrl) await sql`create schema if not exists ${sql.id(schema)}`.execute(database.db);
  const smtp = await startSmtpSink();
  const config = loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: dir,
    LOG_LEVEL: 'silent',
    SMTP_URL: smtp.url,
    PUBLIC_URL: 'https://shop.example',
    // Each buyer is told apart by X-Forwarded-For, as behind a proxy (per-client rate limits).
    TRUST_PROXY: '127.0.0.1',
    TOTP_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    DATABASE_POOL_SIZE: String(poolSize),
  });
  const store = await openStore(config, database, { logger: pino({ level: process.env.BENCH_LOG ?? 'silent' }) });
  const app = await buildApp({ config, store, logger: false });
  await app.ready();
  store.startBackground();

  const service = catalogueSeed.groups[0]?.services[0];
  const plan = service?.plans[0];
  const tier = plan?.tiers[0];
  if (!service || !plan || !tier) throw new Error('the seed catalogue has no first package');
  let sequence = 0;
  let failures = 0;
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const post = async (url: string, payload: object, address: string) => {
    const response = await fetch(`${base}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
      body: JSON.stringify(payload),
    });
    const body = await response.text();
    return { statusCode: response.status, body, json: () => JSON.parse(body) as unknown };
  };

  /** One buyer: order, pay, verify; true when the order ended paid. */
  async function buy(): Promise<boolean> {
    const n = (sequence += 1);
    // Each buyer its own address (per-client rate limits) and its own account (one live order per link).
    const address = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
    const created = await post(
      '/api/order',
      {
        type: plan?.type,
        slug: service?.slug,
        qty: tier?.qty,
        name: `bench.buyer${n}`,
        email: `buyer${n}@example.com`,
        order_id: String(100_000 + (n % 900_000)),
      },
      address,
    );
    if (created.statusCode !== 200) {
      if (process.env.BENCH_DEBUG) console.log(created.statusCode, created.body.slice(0, 300));
      return false;
    }
    const reference = (created.json() as { data: { razorpay_order_id: string } }).data.razorpay_order_id;
    const paid = await post('/api/sandbox/pay', { razorpay_order_id: reference }, address);
    if (paid.statusCode !== 200) return false;
    const verified = await post('/api/order/verify-payment', (paid.json() as { data: object }).data, address);
    return verified.statusCode === 200;
  }

  const { db } = database;
  const drained = async () => {
    const rows = await db
      .selectFrom('jobs')
      .select(['dedupe_key'])
      .where('status', '=', 'done')
      .where((eb) => eb.or([eb('dedupe_key', 'like', 'receipt:%'), eb('dedupe_key', 'like', 'fulfil:%')]))
      .execute();
    const receipts = new Set<string>();
    const submissions = new Set<string>();
    for (const { dedupe_key: key } of rows) {
      if (key?.startsWith('receipt:')) receipts.add(key.slice(8));
      else if (key?.startsWith('fulfil:')) submissions.add(key.slice(7));
    }
    return [...receipts].filter((id) => submissions.has(id)).length;
  };
  const paidCount = async () =>
    Number(
      (
        await db
          .selectFrom('orders')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('payment_status', '=', 'paid')
          .executeTakeFirstOrThrow()
      ).n,
    );

  console.log(`bench:jobs: ${connections} buyers for ${seconds} s on ${pgUrl ? 'PostgreSQL' : 'SQLite'} …`);
  const started = Date.now();
  const stopAt = started + seconds * 1000;
  let accepted = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < stopAt) {
        if (await buy()) accepted += 1;
        else failures += 1;
      }
    }),
  );
  const loadSeconds = (Date.now() - started) / 1000;
  if (process.env.BENCH_DEBUG)
    console.log(
      await db
        .selectFrom('jobs')
        .select(['kind', 'status', (eb) => eb.fn.countAll().as('n')])
        .groupBy(['kind', 'status'])
        .execute(),
    );
  const drainedDuringLoad = await drained();
  const paid = await paidCount();
  const backlog = paid - drainedDuringLoad;

  const clearStarted = Date.now();
  let left = backlog;
  while (left > 0 && Date.now() - clearStarted < 300_000) {
    await new Promise((r) => setTimeout(r, 250));
    left = paid - (await drained());
  }
  const clearSeconds = (Date.now() - clearStarted) / 1000;

  const acceptRate = accepted / loadSeconds;
  const drainRate = drainedDuringLoad / loadSeconds;
  const rows: [string, string, string][] = [
    ['paid orders accepted', String(accepted), `${acceptRate.toFixed(1)} /s`],
    ['paid orders drained while loaded', String(drainedDuringLoad), `${drainRate.toFixed(1)} /s`],
    ['ratio drained / accepted', '', (drainRate / acceptRate).toFixed(2)],
    ['backlog when the load stopped', String(backlog), 'paid orders'],
    ['time to clear the backlog', '', left > 0 ? `not cleared (${left} left)` : `${clearSeconds.toFixed(1)} s`],
    ['receipts at the SMTP sink', String(await smtp.received()), ''],
    ['buyers refused or failed', String(failures), ''],
  ];
  for (const [what, count, rate] of rows) console.log(`${what.padEnd(34)} ${count.padStart(8)}  ${rate}`);

  await app.close();
  await store.close();
  if (pgUrl) await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(database.db).catch(() => undefined);
  await database.close();
  smtp.close();
  rmSync(dir, { recursive: true, force: true });
  if (drainRate < acceptRate && backlog > connections) process.exitCode = 1;
}

await main();
