/**
 * Vitest's global setup: one database per dialect with every migration applied, made once per run.
 * Each integration suite's database starts as a copy of it (tests/support/databases.ts), instead
 * of running the migrations again: on PostgreSQL that was about 0.7 s a suite, over 200 times a
 * run. The migrations themselves still run from nothing here, on each dialect the run tests, and
 * in every suite that starts the store as a separate process on an empty database.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../db/database.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { type FreshDatabase, createFreshDatabase, dropDatabase } from '../scale/fresh-database.ts';
import { dialects, testDatabaseUrl } from './databases.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A SQLite file with every migration applied, for each suite to copy. */
    sqliteTemplate: string;
    /** A PostgreSQL database with every migration applied; '' when the run does not test PostgreSQL. */
    postgresTemplate: string;
    /** How this run's suite databases are named on PostgreSQL, so the teardown finds any left behind. */
    postgresSuitePrefix: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = mkdtempSync(path.join(tmpdir(), 'boostly-template-'));
  const sqliteTemplate = path.join(dir, 'store.db');
  const sqlite = openDatabase({ sqlitePath: sqliteTemplate });
  try {
    await migrateToLatest(sqlite.db);
  } finally {
    // Closing the last connection checkpoints the WAL into the file: the copy needs nothing else.
    await sqlite.close();
  }
  project.provide('sqliteTemplate', sqliteTemplate);

  const postgres = dialects.includes('postgres');
  const adminUrl = postgres ? testDatabaseUrl() : '';
  const postgresSuitePrefix = `boostly_suite_${process.pid}`;
  let template: FreshDatabase | null = null;
  if (postgres) {
    template = await createFreshDatabase(adminUrl, 'boostly_template');
    // A template must have no session open when it is copied: this pool is closed before any suite starts.
    const handle = openDatabase({ url: template.url, poolSize: 1 });
    try {
      await migrateToLatest(handle.db);
    } finally {
      await handle.close();
    }
  }
  project.provide('postgresTemplate', template?.name ?? '');
  project.provide('postgresSuitePrefix', postgresSuitePrefix);

  return async () => {
    rmSync(dir, { recursive: true, force: true });
    if (!template) return;
    // Suites dispose of their own databases; a worker that died leaves its own behind.
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    const { rows } = await client
      .query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [
        `${postgresSuitePrefix}_`,
      ])
      .finally(() => client.end());
    for (const { datname } of rows) await dropDatabase(adminUrl, datname);
    await template.drop();
  };
}
