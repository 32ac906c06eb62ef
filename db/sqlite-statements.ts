/**
 * better-sqlite3 behind Kysely with its prepared statements kept. Kysely's SQLite driver calls
 * `prepare` for every query, and compiling the SQL is a measurable part of a page that reads the
 * database several times (about 2 % of a blog search's CPU); the same few hundred SQL texts come
 * back on every request, so each is compiled once and reused. A statement reads the table as it
 * is when it runs (a cached one returns rows written after it was prepared), and SQLite
 * recompiles it itself when the schema changed under it.
 */
import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/**
 * How many SQL texts stay prepared. Queries whose text varies with their input (an `in (?, ?, …)`
 * list) make new texts; the least recently used one is dropped past this many.
 */
export const STATEMENT_CACHE_SIZE = 500;

export interface CachingSqlite extends SqliteDatabase {
  /** Statements prepared so far (new SQL texts, or a text whose statement was still busy). */
  readonly prepared: () => number;
  /** SQL texts held now. */
  readonly held: () => number;
}

export function cachingStatements(sqlite: SQLite.Database, capacity = STATEMENT_CACHE_SIZE): CachingSqlite {
  // A Map keeps insertion order: re-inserting on use makes its first key the least recently used.
  const statements = new Map<string, SQLite.Statement>();
  let prepared = 0;
  return {
    close: () => {
      statements.clear();
      sqlite.close();
    },
    prepare: (text: string): SqliteStatement => {
      const held = statements.get(text);
      // A statement still being iterated (a streamed query) cannot run again until it ends.
      if (held && !held.busy) {
        statements.delete(text);
        statements.set(text, held);
        return held;
      }
      const statement = sqlite.prepare(text);
      prepared += 1;
      if (held) return statement;
      statements.set(text, statement);
      if (statements.size > capacity) {
        const oldest = statements.keys().next();
        if (!oldest.done) statements.delete(oldest.value);
      }
      return statement;
    },
    prepared: () => prepared,
    held: () => statements.size,
  };
}
