/**
 * One Kysely instance for either dialect: SQLite (default, a file under DATA_DIR) or
 * PostgreSQL (a postgres:// URL). Queries and migrations are written once for both.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { type Driver, Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';
import { installedSqliteAddonProblem } from './sqlite-addon.ts';
import { cachingStatements } from './sqlite-statements.ts';

export type DialectName = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  close(): Promise<void>;
  /** PostgreSQL's pool: connections open, idle and clients waiting for one (metrics). */
  poolUse?: () => { total: number; idle: number; waiting: number };
}

interface DatabaseOptions {
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
    const poolUse = () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });
    return { db, dialect: 'postgres', close: () => db.destroy(), poolUse };
  }

  const file = options.sqlitePath ?? ':memory:';
  const addonProblem = installedSqliteAddonProblem();
  if (addonProblem) throw new DatabaseUnusable(addonProblem);
  let sqlite: SQLite.Database;
  try {
    if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
    sqlite = new SQLite(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
  } catch (error) {
    throw new DatabaseUnusable(
      `The SQLite database ${file} cannot be used: ${describeDatabaseFailure(error).message}`,
      {
        cause: error,
      },
    );
  }
  const db = new Kysely<Database>({ dialect: new SqliteStoreDialect(sqlite) });
  const close = async () => {
    await db.destroy();
    // Kysely closes the file only if it ever ran a query; a handle opened and never used is closed here.
    if (sqlite.open) sqlite.close();
  };
  return { db, dialect: 'sqlite', close };
}

/** The database cannot be opened (a DATA_DIR that is not a writable directory, a corrupt file): said in one line. */
export class DatabaseUnusable extends Error {
  override readonly name = 'DatabaseUnusable';
}

/**
 * Kysely's SQLite dialect, except that a transaction SQLite has already rolled back itself (it
 * does on SQLITE_FULL, SQLITE_IOERR, SQLITE_CORRUPT…) is not rolled back again: that second
 * ROLLBACK fails with "cannot rollback - no transaction is active" and its error would replace
 * the one that says what went wrong. Its statements are prepared once per SQL text
 * (sqlite-statements.ts).
 */
class SqliteStoreDialect extends SqliteDialect {
  readonly #sqlite: SQLite.Database;

  constructor(sqlite: SQLite.Database) {
    super({ database: cachingStatements(sqlite) });
    this.#sqlite = sqlite;
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    const rollback = driver.rollbackTransaction.bind(driver);
    driver.rollbackTransaction = async (connection) => {
      if (this.#sqlite.inTransaction) await rollback(connection);
    };
    return driver;
  }
}

/** Why the database refused: a cause an operator can act on, and a sentence saying it. */
interface DatabaseFailure {
  cause: 'full' | 'read-only' | 'corrupt' | 'unreachable' | 'other';
  message: string;
}

const SQLITE_CAUSES: [RegExp, DatabaseFailure['cause']][] = [
  [/^SQLITE_FULL/, 'full'],
  [/^SQLITE_READONLY/, 'read-only'],
  [/^SQLITE_(CORRUPT|NOTADB)/, 'corrupt'],
  [/^SQLITE_CANTOPEN/, 'unreachable'],
];
/** PostgreSQL SQLSTATEs: disk full / out of memory / too many connections, read-only, corruption. */
const POSTGRES_CAUSES: [RegExp, DatabaseFailure['cause']][] = [
  [/^53100$/, 'full'],
  [/^25006$/, 'read-only'],
  [/^XX00[12]$/, 'corrupt'],
  [/^(08|57P0)/, 'unreachable'],
];
const NODE_CAUSES: [RegExp, DatabaseFailure['cause']][] = [
  [/^ENOSPC$/, 'full'],
  [/^(EROFS|EACCES|EPERM)$/, 'read-only'],
  [/^(ENOTDIR|ENOENT|EISDIR|ECONNREFUSED|ETIMEDOUT|ENOTFOUND)$/, 'unreachable'],
];

/** SQLSTATEs are five characters with digits in them ('53100', 'XX001'); Node's codes have none ('EROFS'). */
const isSqlState = (code: string) => /^[0-9A-Z]{5}$/.test(code) && /\d/.test(code);

const CAUSE_TEXT: Record<DatabaseFailure['cause'], string> = {
  full: 'the disk or database is full',
  'read-only': 'the database is read-only',
  corrupt: 'the database file is corrupt',
  unreachable: 'the database cannot be reached or opened',
  other: 'the database refused the request',
};

/** Names the cause of a database error (SQLite, PostgreSQL or the file system), for readiness and boot. */
export function describeDatabaseFailure(error: unknown): DatabaseFailure {
  const rawCode = (error as { code?: unknown } | null)?.code;
  const code = typeof rawCode === 'string' ? rawCode : '';
  const detail = error instanceof Error ? error.message : String(error);
  const table = code.startsWith('SQLITE_') ? SQLITE_CAUSES : isSqlState(code) ? POSTGRES_CAUSES : NODE_CAUSES;
  const cause = table.find(([pattern]) => pattern.test(code))?.[1] ?? 'other';
  const said = code && !detail.startsWith(code) ? `${code}: ${detail}` : detail;
  return { cause, message: `${CAUSE_TEXT[cause]} (${said})` };
}

/** Thrown inside the probe's transaction so that it always rolls back. */
class ProbeRollback extends Error {}

/**
 * Whether the store can write, which a `select 1` does not tell (a full disk, a read-only or
 * corrupt file all answer it): one transaction creates a table and writes a row in it, which
 * needs a fresh page on SQLite (so `max_page_count` and a full disk show), then rolls back, so
 * nothing is left behind. Rejects with the database's own error.
 */
export async function checkWritable(db: Kysely<Database>): Promise<void> {
  try {
    await db.transaction().execute(async (trx) => {
      await sql`create table readiness_probe (written integer not null)`.execute(trx);
      await sql`insert into readiness_probe (written) values (1)`.execute(trx);
      throw new ProbeRollback('rolled back on purpose');
    });
  } catch (error) {
    if (!(error instanceof ProbeRollback)) throw error;
  }
}
