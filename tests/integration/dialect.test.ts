/**
 * db/dialect.ts against the real drivers: the dialect each connection reports, and which
 * refused writes count as a unique violation (a duplicate key of either kind does; a missing
 * value does not, though SQLite calls both a constraint failure).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPostgres, isUniqueViolation } from '../../db/dialect.ts';
import { type TestDatabase, dialects, openTestDatabase } from '../support/databases.ts';

describe.each(dialects)('db/dialect.ts on %s', (dialect) => {
  let database: TestDatabase;
  /** The store's database seen with the one scratch table this suite adds. */
  const probe = () => database.db.withTables<{ dialect_probe: { id: number; name: string | null } }>();
  beforeAll(async () => {
    database = await openTestDatabase(dialect);
    await database.db.schema
      .createTable('dialect_probe')
      .addColumn('id', 'integer', (column) => column.primaryKey())
      .addColumn('name', 'text', (column) => column.notNull().unique())
      .execute();
    await probe().insertInto('dialect_probe').values({ id: 1, name: 'taken' }).execute();
  });
  afterAll(async () => {
    await database.dispose();
  });

  /** The error the insert fails with, or null when it succeeds. */
  async function insertError(values: { id: number; name: string | null }): Promise<unknown> {
    try {
      await probe().insertInto('dialect_probe').values(values).execute();
      return null;
    } catch (error) {
      return error;
    }
  }

  it('knows which dialect it talks to', () => {
    expect(isPostgres(database.db)).toBe(dialect === 'postgres');
  });

  it('sees a duplicate unique value and a duplicate primary key as unique violations', async () => {
    expect(isUniqueViolation(await insertError({ id: 2, name: 'taken' }))).toBe(true);
    expect(isUniqueViolation(await insertError({ id: 1, name: 'free' }))).toBe(true);
  });

  it('does not call another refused write, or anything that is not a driver error, a unique violation', async () => {
    const missingName = await insertError({ id: 3, name: null });
    expect(missingName).not.toBeNull();
    expect(isUniqueViolation(missingName)).toBe(false);
    expect(isUniqueViolation(await insertError({ id: 4, name: 'fresh' }))).toBe(false);
    for (const value of [null, undefined, 'UNIQUE constraint failed', new Error('duplicate key value')]) {
      expect(isUniqueViolation(value)).toBe(false);
    }
  });
});
