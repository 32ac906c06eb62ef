/**
 * `npm run db:backup -- <file>`: a consistent copy of the configured database, taken while the
 * store keeps running. It reads the same configuration as the server (environment, then `.env`).
 *
 * - PostgreSQL (`DATABASE_URL` set): `pg_dump --format=custom`, one snapshot of the whole
 *   database. Needs `pg_dump` of the server's major version or newer (Debian: postgresql-client).
 * - SQLite: SQLite's online backup API (better-sqlite3's `backup()`), which copies page by page
 *   while requests go on, then an integrity check of the copy.
 *
 * The file appears only once it is complete (written as `<file>.partial`, then renamed), and an
 * existing file is never overwritten. `npm run db:restore -- <file>` loads it back.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { ConfigError, loadConfig } from '../server/config.ts';
import { postgresToolEnv } from './backup-tools.ts';

const USAGE = 'Usage: npm run db:backup -- <file>';

class UsageError extends Error {}

function dumpPostgres(databaseUrl: string, file: string): void {
  const { url, env } = postgresToolEnv(databaseUrl);
  const result = spawnSync(
    'pg_dump',
    ['--format=custom', '--no-owner', '--no-privileges', `--file=${file}`, `--dbname=${url}`],
    { stdio: ['ignore', 'inherit', 'inherit'], env },
  );
  if (result.error) throw new Error(`could not run pg_dump (install postgresql-client): ${result.error.message}`);
  if (result.status !== 0) throw new Error(`pg_dump failed with exit code ${result.status ?? 'none'}`);
}

async function copySqlite(databaseFile: string, file: string): Promise<void> {
  if (!existsSync(databaseFile)) throw new Error(`no SQLite database at ${databaseFile}`);
  const source = new SQLite(databaseFile, { fileMustExist: true });
  try {
    await source.backup(file);
  } finally {
    source.close();
  }
  const copy = new SQLite(file, { fileMustExist: true });
  try {
    // The copy inherits the store's WAL mode; a backup is one self-contained file.
    copy.pragma('journal_mode = DELETE');
    const check: unknown = copy.pragma('integrity_check', { simple: true });
    if (check !== 'ok') throw new Error(`the copy failed SQLite's integrity check: ${String(check)}`);
  } finally {
    copy.close();
  }
}

async function main(argv: string[]): Promise<void> {
  const [file, ...extra] = argv;
  if (!file || file.startsWith('-') || extra.length > 0) throw new UsageError(USAGE);
  const target = path.resolve(file);
  if (existsSync(target)) throw new UsageError(`${target} already exists: back up to a new file.`);
  const config = loadConfig();
  const partial = `${target}.partial`;
  rmSync(partial, { force: true });
  try {
    if (config.DATABASE_URL) dumpPostgres(config.DATABASE_URL, partial);
    else await copySqlite(config.sqlitePath, partial);
    renameSync(partial, target);
  } finally {
    rmSync(partial, { force: true });
  }
  const kind = config.DATABASE_URL ? 'PostgreSQL' : `SQLite (${config.sqlitePath})`;
  console.log(`Backed up the ${kind} database to ${target} (${statSync(target).size} bytes).`);
}

try {
  await main(process.argv.slice(2));
} catch (error) {
  console.error(error instanceof UsageError || error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
