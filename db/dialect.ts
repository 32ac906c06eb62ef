/**
 * The two things code asks about the database it runs on: which dialect it is (where SQLite and
 * PostgreSQL need different SQL or locking), and whether a write failed on a unique constraint
 * (the way to learn that a name, slug or open refill is taken without a racy read first).
 */
import { type Kysely, PostgresAdapter } from 'kysely';

/** Any Kysely instance or transaction, whatever its tables (only its executor is read). */
export function isPostgres(db: Pick<Kysely<object>, 'getExecutor'>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * A unique constraint (or primary key) refused the write: PostgreSQL's SQLSTATE 23505, SQLite's
 * extended result codes. The driver's code, not its message, which differs between versions.
 */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
