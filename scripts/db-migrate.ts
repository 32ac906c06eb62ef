/** `npm run db:migrate`: apply pending migrations to the configured database (`.env` included). */
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { ConfigError, loadConfig } from '../server/config.ts';

try {
  const config = loadConfig();
  const handle = openDatabase({ url: config.DATABASE_URL, sqlitePath: config.sqlitePath });
  const applied = await migrateToLatest(handle.db);
  console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.');
  await handle.close();
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
