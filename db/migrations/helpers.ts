import { type CreateTableBuilder, type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect.ts';

/**
 * The database a migration runs against. Untyped on purpose: a migration is frozen in time and
 * must not depend on today's schema type, which describes the tables after every migration.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not depend on today's schema type (Kysely's documented pattern)
export type MigrationDb = Kysely<any>;

/** An auto-increment integer primary key in either dialect. */
export function idColumn<T extends string>(db: MigrationDb, table: CreateTableBuilder<T, never>) {
  return isPostgres(db)
    ? table.addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

export { isPostgres, sql };
