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

/**
 * Every dialect the run can reach, narrowed by `TEST_DIALECTS` (comma-separated, e.g. `postgres`)
 * to run one suite on one database while working on it.
 */
export const dialects: DialectName[] = selectDialects(process.env.TEST_DATABASE_URL, process.env.TEST_DIALECTS);

export function selectDialects(databaseUrl: string | undefined, wanted: string | undefined): DialectName[] {
  const available: DialectName[] = databaseUrl ? ['sqlite', 'postgres'] : ['sqlite'];
  if (!wanted?.trim()) return available;
  const names = wanted
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  for (const name of names) {
    if (name !== 'sqlite' && name !== 'postgres')
      throw new Error(`TEST_DIALECTS: unknown dialect "${name}" (sqlite, postgres)`);
    if (!available.includes(name)) throw new Error(`TEST_DIALECTS asks for ${name}, but TEST_DATABASE_URL is not set`);
  }
  return available.filter((dialect) => names.includes(dialect));
}

/** The PostgreSQL the 'postgres' runs use; only those runs ask, and they exist only when it is set. */
export function testDatabaseUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  return url;
}

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

  const url = testDatabaseUrl();
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
