/**
 * One Kysely instance for either dialect: SQLite (default, a file under DATA_DIR) or
 * PostgreSQL (a postgres:// URL). Queries and migrations are written once for both.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';

export type DialectName = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres://… selects PostgreSQL; otherwise SQLite at `sqlitePath`. */
  url?: string | undefined;
  sqlitePath?: string | undefined;
  /** PostgreSQL schema to use (tests isolate each suite in its own). */
  pgSchema?: string | undefined;
  poolSize?: number | undefined;
}

const PG_INT8 = 20;

export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  if (options.url && /^postgres(ql)?:\/\//.test(options.url)) {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      options: options.pgSchema ? `-c search_path=${options.pgSchema}` : undefined,
      // bigint columns hold amounts and counts far below 2^53: read them as numbers.
      types: {
        // Declared `unknown` so pg's `any`-typed parsers do not leak `any` into our code.
        getTypeParser: (oid: number, format?: 'text' | 'binary'): unknown =>
          oid === PG_INT8 ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format),
      },
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }

  const file = options.sqlitePath ?? ':memory:';
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

export async function ping(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}
