/**
 * Readiness (decision 017) says whether the store can write. A full, read-only or corrupt
 * database answers /readyz 503 with its cause (logged once, by name), a failed write reports the
 * database's own error (not "cannot rollback - no transaction is active"), and a DATA_DIR the
 * server cannot use stops the boot with one clear line, not a stack trace.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkWritable, describeDatabaseFailure, openDatabase } from '../../db/database.ts';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { type Store, openStore } from '../../server/store.ts';
import { root } from '../support/app.ts';
import { type TestDatabase, dialects, openTestDatabase, testDatabaseUrl } from '../support/databases.ts';
import { storeCommandArgs } from '../../scripts/support/store-command.ts';

interface LogLine {
  level: number;
  msg: string;
  cause?: string;
}

describe.each(dialects)('readiness on %s', (dialect) => {
  let database: TestDatabase;
  let store: Store;
  let app: FastifyInstance;
  const logLines: LogLine[] = [];

  beforeAll(async () => {
    database = await openTestDatabase(dialect);
    const config = loadConfig({ NODE_ENV: 'production', DATA_DIR: path.join(root, '.tmp/unused'), LOG_LEVEL: 'info' });
    const logger = pino({ level: 'info' }, { write: (line: string) => logLines.push(JSON.parse(line) as LogLine) });
    store = await openStore(config, database, { logger: pino({ level: 'silent' }) });
    app = await buildApp({ config, store, logger });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await store?.worker.stop();
    await store?.mailer.close();
    await database?.dispose();
  });

  const readyz = async () => {
    const response = await app.inject({ method: 'GET', url: '/readyz' });
    return { status: response.statusCode, body: response.json<{ status: string; cause?: string; reason?: string }>() };
  };

  it('is ready when the database can write, and the probe leaves nothing behind', async () => {
    expect(await readyz()).toEqual({ status: 200, body: { status: 'ready', database: dialect } });
    const tables = await database.db.introspection.getTables();
    expect(tables.map((table) => table.name)).not.toContain('readiness_probe');
  });

  if (dialect === 'sqlite')
    it('answers 503 "full" while SQLite cannot grow, logs the cause once, recovers', async () => {
      const [pages] = (await sql<{ page_count: number }>`pragma page_count`.execute(database.db)).rows;
      await sql.raw(`pragma max_page_count = ${pages?.page_count ?? 1}`).execute(database.db);
      try {
        const first = await readyz();
        expect(first.status).toBe(503);
        expect(first.body).toMatchObject({ status: 'unavailable', cause: 'full' });
        expect(first.body.reason).toMatch(/full.*SQLITE_FULL/);
        expect((await readyz()).status).toBe(503);
        const notReady = logLines.filter((line) => line.msg.startsWith('not ready'));
        expect(notReady).toHaveLength(1);
        expect(notReady[0]).toMatchObject({ level: 50, cause: 'full' });
        expect(notReady[0]?.msg).toContain('SQLITE_FULL');

        // A write that fails inside a transaction reports SQLite's own error, not the rollback's.
        const failed = await database.db
          .transaction()
          .execute(async (trx) => {
            await sql`create table too_big (x integer)`.execute(trx);
          })
          .then(
            () => null,
            (error: unknown) => error,
          );
        expect(describeDatabaseFailure(failed).cause).toBe('full');
        expect(String(failed)).not.toMatch(/cannot rollback/);

        // Requests that need to write meanwhile are told to come back, never shown a 500: orders
        // fill the pages' free space until one no longer fits.
        let refused: Awaited<ReturnType<typeof app.inject>> | undefined;
        for (let n = 0; n < 200 && !refused; n += 1) {
          const reply = await app.inject({
            method: 'POST',
            url: '/api/order',
            remoteAddress: `10.77.${Math.floor(n / 250)}.${n % 250}`,
            payload: {
              type: 'Standard',
              slug: 'instagram-followers',
              qty: 100,
              name: `disk.full.${n}`,
              email: `disk.full.${n}@example.com`,
              order_id: String(424_000 + n),
            },
          });
          expect(reply.statusCode).not.toBe(500);
          if (reply.statusCode !== 200) refused = reply;
        }
        expect(refused?.statusCode).toBe(503);
        expect(refused?.headers['retry-after']).toBe('60');
        expect(refused?.json()).toMatchObject({ isSuccessful: false, message: expect.stringMatching(/try again/) });
        expect(logLines.some((line) => line.msg.startsWith('database unavailable') && line.cause === 'full')).toBe(
          true,
        );
      } finally {
        await sql.raw('pragma max_page_count = 1073741823').execute(database.db);
      }
      expect((await readyz()).status).toBe(200);
      expect(logLines.some((line) => line.msg.includes('can write again'))).toBe(true);
    });

  if (dialect === 'sqlite')
    it('keeps the error of a transaction SQLite has already rolled back itself', async () => {
      // SQLite ends the whole transaction itself on some errors (SQLITE_FULL while spilling, I/O,
      // corruption); ending it here does the same, deterministically.
      const cause = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
      const error = await database.db
        .transaction()
        .execute(async (trx) => {
          await sql`rollback`.execute(trx);
          throw cause;
        })
        .then(
          () => null,
          (reason: unknown) => reason,
        );
      expect(error).toBe(cause);
      expect((await readyz()).status).toBe(200);
    });

  if (dialect === 'postgres')
    it('names a read-only PostgreSQL as the cause', async () => {
      const url = new URL(testDatabaseUrl());
      url.searchParams.set('options', '-c default_transaction_read_only=on');
      const readOnly = openDatabase({ url: url.toString(), poolSize: 1 });
      try {
        await sql`select 1`.execute(readOnly.db);
        const error = await checkWritable(readOnly.db).then(
          () => null,
          (reason: unknown) => reason,
        );
        expect(describeDatabaseFailure(error)).toMatchObject({ cause: 'read-only' });
        expect(describeDatabaseFailure(error).message).toMatch(/read-only.*25006/);
      } finally {
        await readOnly.close();
      }
    });
});

describe('database failures by cause', () => {
  it('names SQLite, PostgreSQL and file-system causes', () => {
    const coded = (code: string) => Object.assign(new Error(`boom ${code}`), { code });
    expect(describeDatabaseFailure(coded('SQLITE_FULL')).cause).toBe('full');
    expect(describeDatabaseFailure(coded('SQLITE_READONLY_DBMOVED')).cause).toBe('read-only');
    expect(describeDatabaseFailure(coded('SQLITE_CORRUPT')).cause).toBe('corrupt');
    expect(describeDatabaseFailure(coded('SQLITE_NOTADB')).cause).toBe('corrupt');
    expect(describeDatabaseFailure(coded('53100')).cause).toBe('full');
    expect(describeDatabaseFailure(coded('XX001')).cause).toBe('corrupt');
    expect(describeDatabaseFailure(coded('ENOSPC')).cause).toBe('full');
    expect(describeDatabaseFailure(coded('EROFS')).cause).toBe('read-only');
    expect(describeDatabaseFailure(new Error('something else')).cause).toBe('other');
  });

  it('reports a corrupt SQLite file as corrupt when a write is probed', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'boostly-corrupt-'));
    try {
      const file = path.join(dir, 'store.db');
      const handle = openDatabase({ sqlitePath: file });
      await sql`create table t (x integer)`.execute(handle.db);
      await handle.close();
      // Keep the header, scribble over the schema page.
      const bytes = Buffer.alloc(4096, 0xab);
      writeFileSync(file, Buffer.concat([Buffer.from('SQLite format 3\0'), bytes]));
      const error = await Promise.resolve()
        .then(async () => {
          const reopened = openDatabase({ sqlitePath: file });
          try {
            await checkWritable(reopened.db);
          } finally {
            await reopened.close();
          }
        })
        .then(
          () => null,
          (reason: unknown) => reason,
        );
      expect(error).not.toBeNull();
      expect(String(error)).toMatch(/corrupt/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('boot with a database it cannot use', () => {
  function boot(dataDir: string) {
    const child = spawn(process.execPath, storeCommandArgs('main'), {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        DATABASE_URL: '',
        PORT: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    return new Promise<{ code: number | null; stderr: string; stdout: string }>((resolve) =>
      child.once('exit', (code) => resolve({ code, stderr, stdout })),
    );
  }
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('stops with one line naming the cause when DATA_DIR is not a usable directory', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'boostly-boot-'));
    dirs.push(dir);
    // Tests run as root, so chmod cannot make a directory unwritable: a path under a file cannot be one.
    writeFileSync(path.join(dir, 'a-file'), 'not a directory');
    const result = await boot(path.join(dir, 'a-file', 'data'));
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Boostly cannot start: .*a-file.*ENOTDIR/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);

  it('stops with one line naming a corrupt database file', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'boostly-boot-'));
    dirs.push(dir);
    writeFileSync(path.join(dir, 'store.db'), Buffer.concat([Buffer.from('SQLite format 3\0'), Buffer.alloc(8176, 7)]));
    const result = await boot(dir);
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Boostly cannot start: .*corrupt/);
  }, 60_000);
});
