import { type MigrationDb, sql } from './helpers.ts';

/**
 * Wrong authenticator or recovery codes counted per account, whatever address they come from:
 * per challenge (a right password opens one; five wrong codes close it) and per window of
 * fifteen minutes across challenges (ten guesses, then the second factor waits out the window).
 */
export async function up(db: MigrationDb): Promise<void> {
  await sql`alter table admin_second_factors add column challenge_guesses integer not null default 0`.execute(db);
  await sql`alter table admin_second_factors add column guess_window_started text`.execute(db);
  await sql`alter table admin_second_factors add column guess_window_count integer not null default 0`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await sql`alter table admin_second_factors drop column guess_window_count`.execute(db);
  await sql`alter table admin_second_factors drop column guess_window_started`.execute(db);
  await sql`alter table admin_second_factors drop column challenge_guesses`.execute(db);
}
