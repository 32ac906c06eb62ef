/** What `db:backup` and `db:restore` share: how they call the PostgreSQL tools, and the file formats. */
import { closeSync, openSync, readSync } from 'node:fs';

/**
 * The connection URL without its password, and an environment that carries the password as
 * PGPASSWORD instead: a password on the command line is visible to every user in `ps`.
 */
export function postgresToolEnv(databaseUrl: string): { url: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return { url: url.toString(), env: password ? { ...process.env, PGPASSWORD: password } : { ...process.env } };
}

type BackupFormat = 'postgres' | 'sqlite';

/** `pg_dump --format=custom` files start with "PGDMP"; SQLite files with "SQLite format 3\0". */
export function backupFormatOf(file: string): BackupFormat | null {
  const head = Buffer.alloc(16);
  const fd = openSync(file, 'r');
  let read: number;
  try {
    read = readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  const start = head.subarray(0, read);
  if (start.subarray(0, 5).toString('latin1') === 'PGDMP') return 'postgres';
  if (start.toString('latin1') === 'SQLite format 3\0') return 'sqlite';
  return null;
}
