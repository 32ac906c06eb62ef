/**
 * `npm run db:restore -- <file> [--force]`: loads a `npm run db:backup` file into the configured
 * database (same configuration as the server: environment, then `.env`).
 *
 * Stop every instance of the store first. The target must be empty (a new PostgreSQL database,
 * or no SQLite file yet) unless `--force` is given, which replaces what is there. A backup taken
 * with an older version of the store is migrated forward at the next start (or `npm run
 * db:migrate`).
 *
 * - PostgreSQL: `pg_restore` in one transaction, stopping at the first error, so a failed
 *   restore leaves the database as it was. Needs `pg_restore` of the dump's version or newer.
 * - SQLite: the file is checked (SQLite's integrity check), copied next to the database and
 *   renamed over it, with the old database's WAL files removed.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { openDatabase } from '../db/database.ts';
import { ConfigError, loadConfig } from '../server/config.ts';
import { backupFormatOf, postgresToolEnv } from './backup-tools.ts';

const USAGE = 'Usage: npm run db:restore -- <file> [--force]';

class UsageError extends Error {}

/** Tables in the target database (Kysely's own migration tables included). */
async function tableCount(options: { url?: string | undefined; sqlitePath?: string | undefined }): Promise<number> {
  const handle = openDatabase(options);
  try {
    return (await handle.db.introspection.getTables({ withInternalKyselyTables: true })).length;
  } finally {
    await handle.close();
  }
}

function restorePostgres(databaseUrl: string, file: string, replace: boolean): void {
  const { url, env } = postgresToolEnv(databaseUrl);
  const result = spawnSync(
    'pg_restore',
    [
      '--no-owner',
      '--no-privileges',
      '--exit-on-error',
      '--single-transaction',
      ...(replace ? ['--clean', '--if-exists'] : []),
      `--dbname=${url}`,
      file,
    ],
    { stdio: ['ignore', 'inherit', 'inherit'], env },
  );
  if (result.error) throw new Error(`could not run pg_restore (install postgresql-client): ${result.error.message}`);
  if (result.status !== 0) throw new Error(`pg_restore failed with exit code ${result.status ?? 'none'}`);
}

function checkSqlite(file: string): void {
  const copy = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const check: unknown = copy.pragma('integrity_check', { simple: true });
    if (check !== 'ok') throw new Error(`${file} failed SQLite's integrity check: ${String(check)}`);
  } finally {
    copy.close();
  }
}

function restoreSqlite(databaseFile: string, file: string): void {
  checkSqlite(file);
  mkdirSync(path.dirname(databaseFile), { recursive: true });
  const incoming = `${databaseFile}.restoring`;
  copyFileSync(file, incoming);
  try {
    checkSqlite(incoming);
    // The old database's write-ahead log belongs to the old file: left behind, SQLite would
    // apply it to the restored one.
    for (const suffix of ['-wal', '-shm']) rmSync(`${databaseFile}${suffix}`, { force: true });
    renameSync(incoming, databaseFile);
  } finally {
    rmSync(incoming, { force: true });
  }
}

async function main(argv: string[]): Promise<void> {
  const force = argv.includes('--force');
  const [file, ...extra] = argv.filter((arg) => arg !== '--force');
  if (!file || file.startsWith('-') || extra.length > 0) throw new UsageError(USAGE);
  const source = path.resolve(file);
  if (!existsSync(source)) throw new UsageError(`${source} does not exist.`);
  const format = backupFormatOf(source);
  if (!format) throw new UsageError(`${source} is not a db:backup file (neither a pg_dump archive nor SQLite).`);

  const config = loadConfig();
  const dialect = config.DATABASE_URL ? 'postgres' : 'sqlite';
  if (format !== dialect) {
    throw new UsageError(
      format === 'postgres'
        ? 'This is a PostgreSQL backup, but the configured database is SQLite: set DATABASE_URL.'
        : 'This is a SQLite backup, but DATABASE_URL points at PostgreSQL: unset it to restore into SQLite.',
    );
  }
  const target = config.DATABASE_URL ? { url: config.DATABASE_URL } : { sqlitePath: config.sqlitePath };
  const existing = config.DATABASE_URL || existsSync(config.sqlitePath) ? await tableCount(target) : 0;
  if (existing > 0 && !force) {
    throw new UsageError(
      `The target database is not empty (${existing} tables). Restore into an empty database, or pass --force to replace its contents.`,
    );
  }

  if (config.DATABASE_URL) restorePostgres(config.DATABASE_URL, source, existing > 0);
  else restoreSqlite(config.sqlitePath, source);
  const where = config.DATABASE_URL ? 'the PostgreSQL database' : config.sqlitePath;
  console.log(`Restored ${source} into ${where}. Start the store (it migrates the database if the backup is older).`);
}

try {
  await main(process.argv.slice(2));
} catch (error) {
  console.error(error instanceof UsageError || error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
