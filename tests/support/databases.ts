/**
 * The integration suites run once per dialect: SQLite always, PostgreSQL when
 * TEST_DATABASE_URL is set (CI sets it). Each suite gets a database of its own with every
 * migration applied: a copy of the run's template (tests/support/database-templates.ts), in a
 * temporary SQLite file or a PostgreSQL database dropped afterwards.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { type DatabaseHandle, type DialectName, openDatabase } from '../../db/database.ts';
import { createFreshDatabase } from '../scale/fresh-database.ts';

export interface TestDatabase extends DatabaseHandle {
  /** Another, independent connection (pool) to the same database, as a second instance has. */
  openAnother(): DatabaseHandle;
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
    const sqlitePath = path.join(dir, 'store.db');
    copyFileSync(inject('sqliteTemplate'), sqlitePath);
    const handle = openDatabase({ sqlitePath });
    return {
      ...handle,
      openAnother: () => openDatabase({ sqlitePath }),
      async dispose() {
        await handle.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }

  const fresh = await createFreshDatabase(testDatabaseUrl(), inject('postgresSuitePrefix'), {
    template: inject('postgresTemplate'),
  });
  const handle = openDatabase({ url: fresh.url, poolSize: 5 });
  return {
    ...handle,
    openAnother: () => openDatabase({ url: fresh.url, poolSize: 5 }),
    async dispose() {
      await handle.close();
      await fresh.drop();
    },
  };
}
