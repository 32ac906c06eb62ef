import { type Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type OneTimeCodes,
  type OneTimeCodesOptions,
  createOneTimeCodes,
  hashCode,
  loadCodePepper,
} from '../../core/auth/one-time-codes.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import * as oneTimeCodesMigration from '../../db/migrations/004-one-time-codes.ts';
import type { Database } from '../../db/schema.ts';
import { type TestDatabase, dialects, openTestDatabase } from '../support/databases.ts';

/**
 * Migration 004 is not registered in db/migrate.ts yet: apply the registered ones, then 004
 * directly unless migrateToLatest already applied it (once it is registered). Asks Kysely's
 * migration log, which lives in this suite's own database.
 */
async function migrateWithOneTimeCodes(db: Kysely<Database>): Promise<void> {
  await migrateToLatest(db);
  const { rows } = await sql<{
    name: string;
  }>`select name from kysely_migration where name = '004-one-time-codes'`.execute(db);
  if (rows.length === 0) await oneTimeCodesMigration.up(db);
}

const START = Date.parse('2030-03-01T12:00:00.000Z');
const EMAIL = 'alice@example.com';
const PURPOSE = 'order-history';

describe.each(dialects)('one-time codes on %s', (dialect) => {
  let database: TestDatabase;
  let clockMs: number;
  let pepper: string;
  const now = () => new Date(clockMs);
  const advance = (ms: number) => {
    clockMs += ms;
  };
  const codesOn = (db: Kysely<Database>, extra: Partial<OneTimeCodesOptions> = {}): OneTimeCodes =>
    createOneTimeCodes({ db, pepper, now, ...extra });
  const rowsOf = (db: Kysely<Database>) =>
    sql<Record<string, unknown>>`select * from one_time_codes order by id`.execute(db).then((r) => r.rows);

  /** Issues a code and returns it, failing the test if throttled. */
  async function issued(codes: OneTimeCodes, purpose = PURPOSE, subject = EMAIL): Promise<string> {
    const result = await codes.issue(purpose, subject);
    if (!result.ok) throw new Error(`unexpectedly throttled for ${result.retryAfterMs} ms`);
    return result.code;
  }
  /** Any 6-digit code other than `code`. */
  const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  beforeEach(async () => {
    database = await openTestDatabase(dialect);
    await migrateWithOneTimeCodes(database.db);
    pepper = await loadCodePepper(database.db);
    clockMs = START;
  });
  afterEach(async () => {
    await database.dispose();
  });

  it('keeps one install-wide pepper in settings', async () => {
    expect(pepper).toMatch(/^[0-9a-f]{64}$/);
    expect(await loadCodePepper(database.db)).toBe(pepper);
    const row = await database.db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', 'otp.pepper')
      .executeTakeFirstOrThrow();
    expect(row.value).toBe(pepper);
  });

  it('issues a 6-digit code that verifies once; a second verify finds it missing', async () => {
    const codes = codesOn(database.db);
    const result = await codes.issue(PURPOSE, EMAIL);
    expect(result).toEqual({
      ok: true,
      code: expect.stringMatching(/^\d{6}$/),
      expiresAt: new Date(START + 10 * 60_000),
    });
    const code = (result as { code: string }).code;

    expect(await codes.verify(PURPOSE, EMAIL, code)).toEqual({ ok: true });
    // A consumed code is gone: documented as 'missing'.
    expect(await codes.verify(PURPOSE, EMAIL, code)).toEqual({ ok: false, reason: 'missing' });
    expect(await codes.verify(PURPOSE, EMAIL, wrong(code))).toEqual({ ok: false, reason: 'missing' });
  });

  it('normalises the subject and keeps purposes apart', async () => {
    const codes = codesOn(database.db);
    const code = await issued(codes, PURPOSE, '  Alice@Example.COM ');
    expect(await codes.verify('admin-login', EMAIL, code)).toEqual({ ok: false, reason: 'missing' });
    expect(await codes.verify(PURPOSE, 'bob@example.com', code)).toEqual({ ok: false, reason: 'missing' });
    expect(await codes.verify(PURPOSE, 'ALICE@example.com ', code)).toEqual({ ok: true });
    const rows = await rowsOf(database.db);
    expect(rows.map((r) => [r.purpose, r.subject])).toEqual([[PURPOSE, EMAIL]]);
  });

  it('answers missing when no code was issued', async () => {
    expect(await codesOn(database.db).verify(PURPOSE, EMAIL, '123456')).toEqual({ ok: false, reason: 'missing' });
  });

  it('locks after 5 wrong guesses and then refuses the right code', async () => {
    const codes = codesOn(database.db);
    const code = await issued(codes);
    for (let i = 0; i < 4; i++) {
      expect(await codes.verify(PURPOSE, EMAIL, wrong(code))).toEqual({ ok: false, reason: 'invalid' });
    }
    // The guess that uses up the last attempt is already told 'locked'.
    expect(await codes.verify(PURPOSE, EMAIL, wrong(code))).toEqual({ ok: false, reason: 'locked' });
    expect(await codes.verify(PURPOSE, EMAIL, code)).toEqual({ ok: false, reason: 'locked' });
    const [row] = await rowsOf(database.db);
    expect(Number(row.attempts)).toBe(5);
    expect(row.consumed_at).toBeNull();

    // A new code (after the resend interval) starts afresh.
    advance(60_000);
    const next = await issued(codes);
    expect(await codes.verify(PURPOSE, EMAIL, next)).toEqual({ ok: true });
  });

  it('counts junk input as an attempt', async () => {
    const codes = codesOn(database.db, { maxAttempts: 3 });
    const code = await issued(codes);
    expect(await codes.verify(PURPOSE, EMAIL, 'abc')).toEqual({ ok: false, reason: 'invalid' });
    expect(await codes.verify(PURPOSE, EMAIL, '12345')).toEqual({ ok: false, reason: 'invalid' });
    expect(Number((await rowsOf(database.db))[0].attempts)).toBe(2);
    expect(await codes.verify(PURPOSE, EMAIL, '1234567')).toEqual({ ok: false, reason: 'locked' });
    expect(await codes.verify(PURPOSE, EMAIL, code)).toEqual({ ok: false, reason: 'locked' });
  });

  it('accepts the code until it expires, then answers expired', async () => {
    const codes = codesOn(database.db);
    const first = await issued(codes);
    advance(10 * 60_000 - 1);
    expect(await codes.verify(PURPOSE, EMAIL, first)).toEqual({ ok: true });

    advance(60_000);
    const second = await issued(codes);
    advance(10 * 60_000);
    expect(await codes.verify(PURPOSE, EMAIL, second)).toEqual({ ok: false, reason: 'expired' });
    expect(await codes.verify(PURPOSE, EMAIL, wrong(second))).toEqual({ ok: false, reason: 'expired' });
    // Verifying an expired code does not use up attempts.
    expect(Number((await rowsOf(database.db))[0].attempts)).toBe(0);
  });

  it('throttles resends, replaces the old code, and caps sends per hour', async () => {
    let next = 100_000;
    const codes = codesOn(database.db, { random: () => next++ });
    const first = await issued(codes);

    advance(59_000);
    expect(await codes.issue(PURPOSE, EMAIL)).toEqual({ ok: false, reason: 'throttled', retryAfterMs: 1_000 });
    // The throttled request left the first code alone.
    const [kept] = await rowsOf(database.db);
    expect(kept.code_hash).toBe(hashCode(pepper, PURPOSE, EMAIL, first));

    advance(1_000);
    const second = await issued(codes);
    expect(second).not.toBe(first);
    expect(await codes.verify(PURPOSE, EMAIL, first)).toEqual({ ok: false, reason: 'invalid' });
    expect(await codes.verify(PURPOSE, EMAIL, second)).toEqual({ ok: true });

    // Another subject or purpose has its own throttle.
    await issued(codes, PURPOSE, 'bob@example.com');
    await issued(codes, 'admin-login', EMAIL);

    // Sends so far in this hour for (PURPOSE, EMAIL): 2. Three more, then the 6th is refused.
    for (let i = 0; i < 3; i++) {
      advance(60_000);
      await issued(codes);
    }
    advance(60_000);
    const refused = await codes.issue(PURPOSE, EMAIL);
    expect(refused).toEqual({ ok: false, reason: 'throttled', retryAfterMs: START + 60 * 60_000 - clockMs });

    // Once the hour since the first send has passed, a new window opens.
    clockMs = START + 60 * 60_000;
    const again = await issued(codes);
    expect(await codes.verify(PURPOSE, EMAIL, again)).toEqual({ ok: true });
    const row = (await rowsOf(database.db)).find((r) => r.purpose === PURPOSE && r.subject === EMAIL)!;
    expect(Number(row.sends_in_window)).toBe(1);
    expect(row.window_started_at).toBe(new Date(clockMs).toISOString());
  });

  it('resets attempts and consumption when a new code replaces the old one', async () => {
    const codes = codesOn(database.db);
    const first = await issued(codes);
    await codes.verify(PURPOSE, EMAIL, wrong(first));
    await codes.verify(PURPOSE, EMAIL, wrong(first));
    advance(60_000);
    await issued(codes);
    const [row] = await rowsOf(database.db);
    expect(Number(row.attempts)).toBe(0);
    expect(row.consumed_at).toBeNull();
    expect(Number(row.id)).toBe(1);
  });

  it('never counts more than max_attempts for concurrent wrong guesses, and never unlocks', async () => {
    const second = database.openAnother();
    try {
      const a = codesOn(database.db);
      const b = codesOn(second.db);
      const code = await issued(a);
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).verify(PURPOSE, EMAIL, wrong(code))),
      );
      expect(results.every((r) => !r.ok)).toBe(true);
      const reasons = results.map((r) => (r.ok ? 'ok' : r.reason));
      expect(reasons.filter((r) => r === 'invalid')).toHaveLength(4);
      expect(reasons.filter((r) => r === 'locked')).toHaveLength(16);
      const [row] = await rowsOf(database.db);
      expect(Number(row.attempts)).toBe(5);
      expect(await a.verify(PURPOSE, EMAIL, code)).toEqual({ ok: false, reason: 'locked' });
      expect(await b.verify(PURPOSE, EMAIL, code)).toEqual({ ok: false, reason: 'locked' });
    } finally {
      await second.close();
    }
  });

  it('lets exactly one of two concurrent correct verifies succeed', async () => {
    const second = database.openAnother();
    try {
      const a = codesOn(database.db);
      const b = codesOn(second.db);
      for (let round = 0; round < 5; round++) {
        if (round > 0) advance(60 * 60_000);
        const code = await issued(a);
        const results = await Promise.all([a, b, a, b].map((codes) => codes.verify(PURPOSE, EMAIL, code)));
        expect(results.filter((r) => r.ok)).toHaveLength(1);
        expect(results.filter((r) => !r.ok)).toEqual(Array(3).fill({ ok: false, reason: 'missing' }));
      }
    } finally {
      await second.close();
    }
  });

  it('sends at most one code for concurrent issues and resends', async () => {
    const second = database.openAnother();
    try {
      const a = codesOn(database.db);
      const b = codesOn(second.db);
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).issue(PURPOSE, EMAIL)));
      const sent = results.filter((r) => r.ok);
      expect(sent).toHaveLength(1);
      const [row] = await rowsOf(database.db);
      expect(Number(row.sends_in_window)).toBe(1);
      expect(await a.verify(PURPOSE, EMAIL, (sent[0] as { code: string }).code)).toEqual({ ok: true });

      // Concurrent resends of an existing row: still one send, and the code handed out is the stored one.
      advance(60_000);
      const resends = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).issue(PURPOSE, EMAIL)));
      const resent = resends.filter((r) => r.ok);
      expect(resent).toHaveLength(1);
      expect(resends.filter((r) => !r.ok)).toEqual(
        Array(9).fill({ ok: false, reason: 'throttled', retryAfterMs: 60_000 }),
      );
      const [after] = await rowsOf(database.db);
      expect(Number(after.sends_in_window)).toBe(2);
      expect(await b.verify(PURPOSE, EMAIL, (resent[0] as { code: string }).code)).toEqual({ ok: true });
    } finally {
      await second.close();
    }
  });

  it('does not store codes in clear, and a different pepper cannot verify them', async () => {
    const codes = codesOn(database.db, { random: () => 731_905 });
    const code = await issued(codes);
    expect(code).toBe('731905');
    const [row] = await rowsOf(database.db);
    expect(row.code_hash).not.toBe(code);
    expect(String(row.code_hash)).not.toContain(code);
    expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(code);
    expect(row.code_hash).toBe(hashCode(pepper, PURPOSE, EMAIL, code));

    const otherPepper = createOneTimeCodes({ db: database.db, pepper: 'not-the-pepper', now });
    expect(await otherPepper.verify(PURPOSE, EMAIL, code)).toEqual({ ok: false, reason: 'invalid' });
    expect(await codes.verify(PURPOSE, EMAIL, code)).toEqual({ ok: true });
  });

  it('purges rows whose code expired before the given date', async () => {
    const codes = codesOn(database.db);
    await issued(codes, PURPOSE, 'old@example.com'); // expires START + 10 min
    advance(30 * 60_000);
    await issued(codes, PURPOSE, 'new@example.com'); // expires START + 40 min

    expect(await codes.purge(new Date(START + 10 * 60_000))).toBe(0); // not strictly before
    expect(await codes.purge(new Date(START + 20 * 60_000))).toBe(1);
    expect((await rowsOf(database.db)).map((r) => r.subject)).toEqual(['new@example.com']);
    expect(await codes.purge(new Date(START + 365 * 24 * 3_600_000))).toBe(1);
    expect(await rowsOf(database.db)).toEqual([]);
  });
});
