/**
 * A whole PostgreSQL database of its own, made next to TEST_DATABASE_URL's database, whose role
 * needs CREATEDB (.ci/run grants it). Suites that run the store the way an operator does (separate
 * processes, `pg_dump` / `pg_restore`) start from an empty one; the integration suites' databases
 * are copies of a template that already has every migration (tests/support/database-templates.ts).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface FreshDatabase {
  /** The new database's name (a template for others, for instance). */
  name: string;
  /** TEST_DATABASE_URL with the new database's name. */
  url: string;
  drop(): Promise<void>;
}

/** Runs one statement on a connection of its own (CREATE and DROP DATABASE refuse a transaction). */
async function runOnServer(adminUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** TEST_DATABASE_URL pointed at another database of the same server. */
function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function createFreshDatabase(
  adminUrl: string,
  prefix: string,
  options: { template?: string } = {},
): Promise<FreshDatabase> {
  const name = `${prefix}_${process.pid}_${randomBytes(3).toString('hex')}`;
  // WAL_LOG (PostgreSQL 15's default) copies a small template block by block, without the
  // checkpoint FILE_COPY needs: about 0.15 s against 0.6 s for running the migrations.
  const template = options.template ? ` TEMPLATE ${options.template} STRATEGY WAL_LOG` : '';
  try {
    await runOnServer(adminUrl, `CREATE DATABASE ${name}${template}`);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`could not create a test database (${reason}): the role in TEST_DATABASE_URL needs CREATEDB`);
  }
  return { name, url: databaseUrl(adminUrl, name), drop: () => dropDatabase(adminUrl, name) };
}

export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  // A pool closed a moment ago may still have sessions on their way out (pg's pool resolves its
  // end() before the server has seen every client go): wait for them first. Ending them (FORCE)
  // sends a closing client an error that nothing listens to any more, an uncaught exception.
  for (let attempt = 1; attempt <= GENTLE_ATTEMPTS; attempt += 1) {
    try {
      await runOnServer(adminUrl, `DROP DATABASE IF EXISTS ${name}`);
      return;
    } catch (error) {
      if (!BUSY.test(String(error))) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  // Still in use: FORCE ends the sessions left open. An autovacuum worker that happens to be in the
  // database belongs to no role, and ending it needs pg_signal_backend (.ci/run grants it). Without
  // that right, the worker is gone within moments: try again before giving up.
  for (let attempt = 1; ; attempt += 1) {
    try {
      await runOnServer(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      return;
    } catch (error) {
      if (attempt >= 10 || (!/pg_signal_backend/.test(String(error)) && !BUSY.test(String(error)))) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

/** Tries of a plain DROP DATABASE, 25 ms apart, before sessions still open are ended. */
const GENTLE_ATTEMPTS = 40;
const BUSY = /being accessed by other users/;
