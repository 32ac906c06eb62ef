/** `npm run db:migrate`: apply pending migrations to the configured database. */
import { openDatabase } from './database.ts';
import { migrateToLatest } from './migrate.ts';
import { ConfigError, loadConfig } from '../server/config.ts';

const command = process.argv[2];
if (command !== 'migrate') {
  console.error('Usage: npm run db:migrate');
  process.exit(2);
}

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
