/**
 * The integration suites run once per dialect: SQLite always, PostgreSQL when
 * TEST_DATABASE_URL is set (CI sets it). Each suite gets its own empty database: a temporary
 * SQLite file, or a fresh PostgreSQL schema dropped afterwards.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type DatabaseHandle, type DialectName, openDatabase } from '../../db/database.ts';

export interface TestDatabase extends DatabaseHandle {
  /** Closes the connection and deletes the database. */
  dispose(): Promise<void>;
}

export const dialects: DialectName[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export async function openTestDatabase(dialect: DialectName): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'boostly-test-'));
    const handle = openDatabase({ sqlitePath: path.join(dir, 'store.db') });
    return {
      ...handle,
      async dispose() {
        await handle.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }

  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const handle = openDatabase({ url, pgSchema: schema, poolSize: 5 });
  return {
    ...handle,
    async dispose() {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      await cleanup.query(`DROP SCHEMA ${schema} CASCADE`);
      await cleanup.end();
    },
  };
}
