import { describe, expect, it } from 'vitest';
import { isCatalogRaceWithAnotherDatabase } from '../../db/migrate.ts';

/** An error as the pg driver throws it: a message and PostgreSQL's SQLSTATE code. */
function pgError(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

describe('migrations meeting another database going away on the same server', () => {
  const own = 'test_1_abc';

  it('asks again when the look for the bookkeeping tables met another schema, table or column vanishing', () => {
    for (const error of [
      pgError('schema "test_2_xyz" does not exist', '3F000'),
      pgError('relation "test_2_xyz.orders" does not exist', '42P01'),
      pgError('column "created_at" of relation "admin_invitations" does not exist', '42703'),
    ]) {
      expect(isCatalogRaceWithAnotherDatabase({ error }, own), error.message).toBe(true);
      expect(isCatalogRaceWithAnotherDatabase({ error, results: [] }, own), error.message).toBe(true);
    }
  });

  it('fails at once when a migration ran, the missing thing is ours, or the error is anything else', () => {
    const vanished = pgError('column "created_at" of relation "admin_invitations" does not exist', '42703');
    const ran = [{ migrationName: '001-catalogue', direction: 'Up', status: 'Error' }] as const;
    expect(isCatalogRaceWithAnotherDatabase({ error: vanished, results: [...ran] }, own)).toBe(false);
    expect(isCatalogRaceWithAnotherDatabase({ error: pgError(`schema "${own}" does not exist`, '3F000') }, own)).toBe(
      false,
    );
    expect(isCatalogRaceWithAnotherDatabase({ error: pgError('permission denied for schema x', '42501') }, own)).toBe(
      false,
    );
    expect(isCatalogRaceWithAnotherDatabase({ error: new Error('schema "test_2_xyz" does not exist') }, own)).toBe(
      false,
    );
    // SQLite has no schemas: nothing to race with.
    expect(isCatalogRaceWithAnotherDatabase({ error: vanished }, undefined)).toBe(false);
  });
});
