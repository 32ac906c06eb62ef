/**
 * The key of the admins' TOTP secrets comes from the environment (decision 022), on each
 * dialect: one database restarted under different configurations, the way an operator moves
 * from the database's old key to TOTP_ENCRYPTION_KEY and later rotates it, with the login
 * checked over HTTP after every restart; a copy of the database alone opens nothing; production
 * without the key refuses enrolment (the security API says why) and refuses to boot while an
 * admin uses TOTP, also as the real `npm start` process.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminAuth } from '../../core/auth/admins.ts';
import { createAdminSessions } from '../../core/auth/admin-sessions.ts';
import { createOneTimeCodes, loadCodePepper } from '../../core/auth/one-time-codes.ts';
import {
  DATABASE_KEY_SETTING,
  RECOVERY_CODE_KEY_SETTING,
  TOTP_UNAVAILABLE_MESSAGE,
  TotpKeyError,
  prepareTotpKeys,
  totpKeySource,
} from '../../core/auth/totp-keys.ts';
import {
  createDatabaseKeyBox,
  createEnvironmentSealer,
  parseTotpKey,
  totpSecretContext,
} from '../../core/auth/totp.ts';
import { type DatabaseHandle, type DialectName, openDatabase } from '../../db/database.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { type Store, openStore } from '../../server/store.ts';
import { createFreshDatabase } from '../scale/fresh-database.ts';
import { root, startTestApp } from '../support/app.ts';
import { createTestClock } from '../support/clock.ts';
import { type TestDatabase, dialects, openTestDatabase } from '../support/databases.ts';
import { freePort } from '../support/free-port.ts';
import { totpCode } from '../support/totp.ts';
import { waitFor } from '../support/wait-for.ts';
import { storeCommandArgs } from '../../scripts/support/store-command.ts';

const PASSWORD = 'correct horse battery staple';
// Two operator keys, written the two ways the variable accepts.
const KEY_A = 'q0NkJ3m0cHJvZHVjdGlvbi1rZXktQS1mb3ItdGVzdHM=';
const KEY_B = 'b'.repeat(8) + '0123456789abcdef'.repeat(3) + 'c'.repeat(8);
const keyA = parseTotpKey(KEY_A)!;
const keyB = parseTotpKey(KEY_B)!;

function captureLog() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      callback();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

interface Running {
  app: FastifyInstance;
  store: Store;
  logLines: string[];
  close(): Promise<void>;
}

/** The store and its app on `database` under `env` (production unless it says otherwise), as a restart would. */
async function boot(database: DatabaseHandle, env: Record<string, string>, now: () => Date): Promise<Running> {
  const config = loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: path.join(root, '.tmp/unused'),
    LOG_LEVEL: 'silent',
    ...env,
  });
  const { logger, lines } = captureLog();
  const store = await openStore(config, database, { logger, clock: now });
  const app = await buildApp({ config, store, logger: false });
  await app.ready();
  return {
    app,
    store,
    logLines: lines,
    async close() {
      await app.close();
      await store.worker.stop();
      await store.mailer.close();
    },
  };
}

describe.each(dialects)('the TOTP key from the environment on %s', (dialect) => {
  let database: TestDatabase;
  let running: Running | undefined;
  const clock = createTestClock();
  let addresses = 0;
  const nextAddress = () => `10.22.${Math.floor(++addresses / 250)}.${addresses % 250}`;

  beforeAll(async () => {
    database = await openTestDatabase(dialect);
  });
  afterAll(async () => {
    await running?.close();
    await database?.dispose();
  });

  async function restart(env: Record<string, string>): Promise<Running> {
    await running?.close();
    running = undefined;
    running = await boot(database, env, clock.now);
    return running;
  }

  /** A verified admin enrolled in TOTP through the running store: its id, secret and recovery codes. */
  async function enrolledAdmin(label: string) {
    const email = `${label}.${dialect}@example.com`;
    const { store } = running!;
    await store.adminAuth.createAdmin(email, PASSWORD);
    await database.db.updateTable('admins').set({ is_verified: 1 }).where('email', '=', email).execute();
    const { id } = await database.db
      .selectFrom('admins')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    const { secret } = await store.adminAuth.startTotp(id, email);
    const { recoveryCodes } = await store.adminAuth.confirmTotp(id, totpCode(secret, clock.now()));
    return { email, id, secret, recoveryCodes };
  }

  /** The browser's login over HTTP: password (409), the second factor, the password again (200). */
  async function loginWith(email: string, secondFactor: (at: Date) => string): Promise<void> {
    clock.advance(30_000); // a fresh TOTP step: a code is never accepted twice
    const from = nextAddress();
    const { app } = running!;
    const login = () =>
      app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email, password: PASSWORD },
        remoteAddress: from,
      });
    const challenged = await login();
    expect(challenged.statusCode, challenged.body).toBe(409);
    expect(challenged.json()).toMatchObject({ secondFactor: 'totp' });
    const verified = await app.inject({
      method: 'POST',
      url: '/api/auth/verify-otp',
      payload: { email, otp: secondFactor(clock.now()) },
      remoteAddress: from,
    });
    expect(verified.statusCode, verified.body).toBe(200);
    const loggedIn = await login();
    expect(loggedIn.statusCode, loggedIn.body).toBe(200);
  }

  const sealedSecret = async (adminId: number) =>
    (
      await database.db
        .selectFrom('admin_second_factors')
        .select('totp_secret')
        .where('admin_id', '=', adminId)
        .executeTakeFirstOrThrow()
    ).totp_secret!;
  const setting = async (key: string) =>
    (await database.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst())?.value;

  let before: Awaited<ReturnType<typeof enrolledAdmin>>;
  let admin: Awaited<ReturnType<typeof enrolledAdmin>>;

  it('development without the key keeps the database key, with one warning line at boot', async () => {
    const { logLines } = await restart({ NODE_ENV: 'development', LOG_LEVEL: 'info' });
    const warnings = logLines.filter((line) => line.includes('TOTP_ENCRYPTION_KEY'));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0])).toMatchObject({ level: 40 });
    before = await enrolledAdmin('before.022');
    expect(await sealedSecret(before.id)).toMatch(/^v1:/);
    expect(await setting(DATABASE_KEY_SETTING)).toBeDefined();
    await loginWith(before.email, (at) => totpCode(before.secret, at));
  });

  it('with key A: secrets under the database key move to A at boot, the database key is deleted, logins work', async () => {
    const oldSealed = await sealedSecret(before.id);
    await restart({ TOTP_ENCRYPTION_KEY: KEY_A });
    const moved = await sealedSecret(before.id);
    expect(moved).not.toBe(oldSealed);
    expect(createEnvironmentSealer({ current: keyA, previous: null }).isCurrent(moved)).toBe(true);
    expect(await setting(DATABASE_KEY_SETTING)).toBeUndefined();
    // TOTP and the recovery codes issued under the old key both still log in.
    await loginWith(before.email, (at) => totpCode(before.secret, at));
    await loginWith(before.email, () => before.recoveryCodes[0]);

    admin = await enrolledAdmin('key.a');
    expect(createEnvironmentSealer({ current: keyA, previous: null }).isCurrent(await sealedSecret(admin.id))).toBe(
      true,
    );
  });

  it('restarted with key A, TOTP logins work and nothing is re-encrypted', async () => {
    const sealed = await sealedSecret(admin.id);
    await restart({ TOTP_ENCRYPTION_KEY: KEY_A });
    expect(await sealedSecret(admin.id)).toBe(sealed);
    await loginWith(admin.email, (at) => totpCode(admin.secret, at));
  });

  it('restarted with key B and previous A: works, every secret is re-encrypted once, A alone opens none', async () => {
    await running?.close();
    running = undefined;
    const underA = { admin: await sealedSecret(admin.id), before: await sealedSecret(before.id) };
    // Two instances booting at once: the compare-and-set re-encrypts each secret once between them.
    const rotation = totpKeySource({ key: KEY_B, previous: KEY_A, production: true });
    const reports = await Promise.all([prepareTotpKeys(database.db, rotation), prepareTotpKeys(database.db, rotation)]);
    expect(reports.reduce((sum, report) => sum + report.reencrypted, 0)).toBe(2);

    await restart({ TOTP_ENCRYPTION_KEY: KEY_B, TOTP_ENCRYPTION_KEY_PREVIOUS: KEY_A });
    const underB = { admin: await sealedSecret(admin.id), before: await sealedSecret(before.id) };
    expect(underB.admin).not.toBe(underA.admin);
    expect(underB.before).not.toBe(underA.before);
    const onlyA = createEnvironmentSealer({ current: keyA, previous: null });
    for (const [adminId, sealed] of [
      [admin.id, underB.admin],
      [before.id, underB.before],
    ] as const) {
      expect(() => onlyA.open(totpSecretContext(adminId), sealed)).toThrow();
    }
    await loginWith(admin.email, (at) => totpCode(admin.secret, at));
    await loginWith(before.email, () => before.recoveryCodes[1]);
  });

  it('restarted with key B alone after the rotation, logins and recovery codes work; key A alone cannot boot', async () => {
    await restart({ TOTP_ENCRYPTION_KEY: KEY_B });
    await loginWith(admin.email, (at) => totpCode(admin.secret, at));
    await loginWith(admin.email, () => admin.recoveryCodes[0]);
    await loginWith(before.email, (at) => totpCode(before.secret, at));

    await running?.close();
    running = undefined;
    await expect(boot(database, { TOTP_ENCRYPTION_KEY: KEY_A }, clock.now)).rejects.toThrow(TotpKeyError);
    await restart({ TOTP_ENCRYPTION_KEY: KEY_B });
  });

  it('a copy of the database (the rows and the settings table) holds nothing that opens a secret', async () => {
    const rows = await database.db.selectFrom('admin_second_factors').selectAll().execute();
    const settings = await database.db.selectFrom('settings').selectAll().execute();
    const dump = JSON.stringify({ rows, settings });
    expect(dump).not.toContain(admin.secret);
    expect(dump).not.toContain(before.secret);
    expect(settings.map((row) => row.key)).not.toContain(DATABASE_KEY_SETTING);
    const sealed = await sealedSecret(admin.id);
    for (const { value } of settings) {
      // Every stored value tried as the old install secret, and as an environment key.
      expect(() => createDatabaseKeyBox(value).open(sealed)).toThrow();
      for (const key of [parseTotpKey(value), Buffer.from(value, 'utf8').subarray(0, 32)]) {
        if (key?.length !== 32) continue;
        expect(() =>
          createEnvironmentSealer({ current: key, previous: null }).open(totpSecretContext(admin.id), sealed),
        ).toThrow();
      }
    }
    // The recovery codes' HMAC key is there only sealed under the environment key.
    expect(await setting(RECOVERY_CODE_KEY_SETTING)).toMatch(/^v2:/);
    // The admin's id is bound in: a ciphertext copied onto another admin's row does not open.
    const sealer = createEnvironmentSealer({ current: keyB, previous: null });
    expect(sealer.open(totpSecretContext(admin.id), sealed).toString('utf8')).toBe(admin.secret);
    expect(() => sealer.open(totpSecretContext(before.id), sealed)).toThrow();
  });

  it('production without the key refuses to boot while an admin uses TOTP, naming the variable', async () => {
    await running?.close();
    running = undefined;
    const refused = boot(database, {}, clock.now);
    await expect(refused).rejects.toThrow(TotpKeyError);
    await expect(refused).rejects.toThrow(
      /^TOTP_ENCRYPTION_KEY is not set, but 2 admins log in with an authenticator app/,
    );
    await expect(refused).rejects.toThrow(/openssl rand -base64 32/);
    // Development without the key cannot read secrets sealed under it either: it says so too.
    await expect(boot(database, { NODE_ENV: 'development' }, clock.now)).rejects.toThrow(
      /TOTP_ENCRYPTION_KEY is not set, but 2 admins' TOTP secrets are encrypted under it/,
    );
  });

  it('with the key lost, resetting the TOTP admins to e-mailed codes lets the store start under a new key', async () => {
    const lostKeyReplacement = { TOTP_ENCRYPTION_KEY: randomBytes(32).toString('base64') };
    await expect(boot(database, lostKeyReplacement, clock.now)).rejects.toThrow(TotpKeyError);
    // What `npm run admin -- reset-2fa` does, which needs no key.
    const offline = await boot(database, { TOTP_ENCRYPTION_KEY: KEY_B }, clock.now);
    for (const email of [admin.email, before.email]) await offline.store.adminAuth.resetSecondFactor(email);
    await offline.close();
    running = await boot(database, lostKeyReplacement, clock.now);
    expect(await running.store.adminAuth.secondFactorStatus(admin.id)).toMatchObject({ method: 'email' });
    const again = await enrolledAdmin('after.loss');
    await loginWith(again.email, (at) => totpCode(again.secret, at));
    await loginWith(again.email, () => again.recoveryCodes[0]);
  });
});

describe.each(dialects)('production without TOTP_ENCRYPTION_KEY on %s', (dialect) => {
  it('the security API says TOTP cannot be set up, and why; the set-up is refused', async () => {
    const t = await startTestApp(dialect, { env: { TOTP_ENCRYPTION_KEY: '' } });
    try {
      const email = `no.key.${dialect}@example.com`;
      const created = await t.store.adminAuth.createAdmin(email, PASSWORD);
      await t.database.db.updateTable('admins').set({ is_verified: 1 }).where('email', '=', email).execute();
      const { token } = await createAdminSessions({ db: t.database.db, now: () => new Date() }).issue(
        created.id,
        new Date(),
      );
      const headers = { authorization: `Bearer ${token}` };
      const status = await t.app.inject({ method: 'GET', url: '/api/auth/second-factor', headers });
      expect(status.json().data).toEqual({
        method: 'email',
        recoveryCodesLeft: 0,
        totpEnabledAt: null,
        totpSetup: { available: false, reason: TOTP_UNAVAILABLE_MESSAGE },
      });
      expect(TOTP_UNAVAILABLE_MESSAGE).toContain('TOTP_ENCRYPTION_KEY');
      const setup = await t.app.inject({ method: 'POST', url: '/api/auth/totp/setup', headers, payload: {} });
      expect(setup.statusCode).toBe(409);
      expect(setup.json()).toMatchObject({ isSuccessful: false, message: TOTP_UNAVAILABLE_MESSAGE });
      const row = await t.database.db
        .selectFrom('admin_second_factors')
        .select('totp_pending_secret')
        .where('admin_id', '=', created.id)
        .executeTakeFirst();
      expect(row?.totp_pending_secret ?? null).toBeNull();
    } finally {
      await t.close();
    }
  });
});

/** `npm start` as the operator runs it, on a database where an admin already uses TOTP. */
describe.each(dialects)('the server process on %s with an admin using TOTP', (dialect: DialectName) => {
  let dataDir: string;
  let databaseUrl = '';
  let drop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'boostly-totp-'));
    if (dialect === 'postgres') {
      const fresh = await createFreshDatabase(process.env.TEST_DATABASE_URL ?? '', 'boostly_totp');
      databaseUrl = fresh.url;
      drop = () => fresh.drop();
    }
    // Enrolled before decision 022: the secret sealed under the database's key.
    const handle = openDatabase(databaseUrl ? { url: databaseUrl } : { sqlitePath: path.join(dataDir, 'store.db') });
    try {
      await migrateToLatest(handle.db);
      const auth = createAdminAuth({
        db: handle.db,
        codes: createOneTimeCodes({ db: handle.db, pepper: await loadCodePepper(handle.db) }),
        publicUrl: 'http://localhost',
      });
      const created = await auth.createAdmin('process.totp@example.com', PASSWORD);
      const { secret } = await auth.startTotp(created.id, created.email);
      await auth.confirmTotp(created.id, totpCode(secret, new Date()));
    } finally {
      await handle.close();
    }
  }, 60_000);
  afterAll(async () => {
    await drop?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  function startServer(env: Record<string, string>) {
    const child = spawn(process.execPath, storeCommandArgs('main'), {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        LOG_LEVEL: 'warn',
        TOTP_ENCRYPTION_KEY: '',
        TOTP_ENCRYPTION_KEY_PREVIOUS: '',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    return { child, exited, output: () => output };
  }

  async function waitForReady(port: number, child: ChildProcess): Promise<void> {
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error('server exited early');
        try {
          return (await fetch(`http://127.0.0.1:${port}/readyz`)).ok;
        } catch {
          return false; // not listening yet
        }
      },
      { timeout: 30_000, interval: 100, message: 'the server to answer /readyz' },
    );
  }

  it('refuses to boot without TOTP_ENCRYPTION_KEY in one line naming it; boots once it is set', async () => {
    const refused = startServer({});
    expect(await refused.exited).toBe(1);
    const lines = refused.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^Boostly cannot start: TOTP_ENCRYPTION_KEY is not set, but 1 admin logs in with an authenticator app .*openssl rand -base64 32/,
    );

    const port = await freePort();
    const server = startServer({ PORT: String(port), TOTP_ENCRYPTION_KEY: KEY_A });
    await waitForReady(port, server.child);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.output()).not.toContain(KEY_A);
    // That boot moved the secret to the key and deleted the database's copy of the old one.
    const handle = openDatabase(databaseUrl ? { url: databaseUrl } : { sqlitePath: path.join(dataDir, 'store.db') });
    try {
      const row = await handle.db.selectFrom('admin_second_factors').select('totp_secret').executeTakeFirstOrThrow();
      expect(createEnvironmentSealer({ current: keyA, previous: null }).isCurrent(row.totp_secret ?? '')).toBe(true);
      const oldKey = await handle.db
        .selectFrom('settings')
        .select('value')
        .where('key', '=', DATABASE_KEY_SETTING)
        .executeTakeFirst();
      expect(oldKey).toBeUndefined();
    } finally {
      await handle.close();
    }
  }, 90_000);
});
