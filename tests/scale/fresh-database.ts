/**
 * A whole PostgreSQL database of its own, for suites that run the store the way an operator does
 * (separate processes, `pg_dump` / `pg_restore`), where a schema per suite is not enough. Made next
 * to TEST_DATABASE_URL's database, whose role needs CREATEDB (.ci/run grants it).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface FreshDatabase {
  /** TEST_DATABASE_URL with the new database's name. */
  url: string;
  drop(): Promise<void>;
}

export async function createFreshDatabase(adminUrl: string, prefix: string): Promise<FreshDatabase> {
  const name = `${prefix}_${process.pid}_${randomBytes(3).toString('hex')}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  try {
    await run(`CREATE DATABASE ${name}`);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`could not create a test database (${reason}): the role in TEST_DATABASE_URL needs CREATEDB`);
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      // FORCE ends the sessions still open; an autovacuum worker that happens to be in the
      // database belongs to no role, and ending it needs pg_signal_backend (.ci/run grants it).
      // Without that right, the worker is gone within moments: try again before giving up.
      for (let attempt = 1; ; attempt += 1) {
        try {
          await run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          return;
        } catch (error) {
          if (attempt >= 10 || !/pg_signal_backend|being accessed by other users/.test(String(error))) throw error;
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
      }
    },
  };
}
