/** `npm run admin` as an operator runs it: a child process on a fresh SQLite data directory. */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../core/auth/passwords.ts';
import { openDatabase } from '../../db/database.ts';
import { root } from '../support/app.ts';
import { storeCommandArgs } from '../../scripts/support/store-command.ts';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

const PASSWORD = 'correct horse battery staple';

describe('admin CLI', () => {
  let dataDir: string;

  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'boostly-admin-cli-'));
  });
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  const run = (args: string[], env: Record<string, string> = {}) =>
    new Promise<Run>((resolve) => {
      execFile(
        process.execPath,
        storeCommandArgs('admin', ...args),
        {
          cwd: root,
          // stdin is not a terminal here: without ADMIN_PASSWORD the CLI must not wait for input.
          env: {
            ...process.env,
            DATA_DIR: dataDir,
            DATABASE_URL: '',
            SMTP_URL: '',
            PUBLIC_URL: 'https://shop.example',
            ADMIN_PASSWORD: '',
            ...env,
          },
          timeout: 30_000,
        },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
          resolve({ code, stdout, stderr });
        },
      ).stdin?.end();
    });

  /** The admin's row, read the way the server would (the CLI has closed the store by then). */
  async function storedAdmin(email: string) {
    const handle = openDatabase({ sqlitePath: path.join(dataDir, 'store.db') });
    try {
      return await handle.db.selectFrom('admins').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    } finally {
      await handle.close();
    }
  }

  it('creates an owner by default (the first owner comes from here) and says so, and how to log in', async () => {
    const result = await run(['create', '--email', 'Owner@Example.com'], { ADMIN_PASSWORD: PASSWORD });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(
      'Created admin owner@example.com with the role owner (everything, including the catalogue, suppliers, the blog, admins and the audit log). Log in at https://shop.example/login; the first login e-mails a 6-digit code to verify the account.',
    );

    // Stored unverified, with a scrypt hash of the password.
    const row = await storedAdmin('owner@example.com');
    expect(row.is_verified).toBe(0);
    expect(row.role).toBe('owner');
    expect(row.password_hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(await verifyPassword(PASSWORD, row.password_hash)).toBe(true);
  });

  it('creates a support admin with --role, and refuses an unknown role or --role without create', async () => {
    const result = await run(['create', '--email', 'helper@example.com', '--role', 'Support'], {
      ADMIN_PASSWORD: PASSWORD,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(
      'Created admin helper@example.com with the role support (orders, refills and cancels, contact messages and reviews).',
    );
    expect((await storedAdmin('helper@example.com')).role).toBe('support');

    const unknown = await run(['create', '--email', 'boss@example.com', '--role=admin'], { ADMIN_PASSWORD: PASSWORD });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Unknown role: admin. Roles: owner, support.');
    const misplaced = await run(['list', '--role', 'owner']);
    expect(misplaced.code).toBe(1);
    expect(misplaced.stderr).toContain('--role goes with create only.');
    expect((await run(['list'])).stdout).not.toContain('boss@example.com');
  });

  it('lists admins with their role and second factor', async () => {
    const result = await run(['list']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^email\s+role\s+verified\s+2fa\s+sessions\s+created\s+status$/m);
    expect(result.stdout).toMatch(/^owner@example\.com\s+owner\s+no\s+e-mail code\s+0\s+\S+\s+ok$/m);
    expect(result.stdout).toMatch(/^helper@example\.com\s+support\s+no\s+e-mail code\s+0\s+\S+\s+ok$/m);
  });

  it('refuses a second admin with the same e-mail', async () => {
    const result = await run(['create', '--email=owner@example.com'], { ADMIN_PASSWORD: 'another long password' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('An admin with this e-mail already exists.');
  });

  it('refuses a weak password', async () => {
    const result = await run(['create', '--email', 'weak@example.com'], { ADMIN_PASSWORD: 'short' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('ADMIN_PASSWORD is too weak: The password must be at least 12 characters long.');
    expect((await run(['list'])).stdout).not.toContain('weak@example.com');
  });

  it('asks for ADMIN_PASSWORD when there is no terminal to type it in', async () => {
    const result = await run(['create', '--email', 'nopass@example.com']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Set ADMIN_PASSWORD, or run this in a terminal to type the password.');
  });

  it('resets a password', async () => {
    const result = await run(['reset-password', '--email', 'owner@example.com'], {
      ADMIN_PASSWORD: 'a brand new passphrase',
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Password changed for owner@example.com. 0 sessions were logged out.');
    const missing = await run(['reset-password', '--email', 'ghost@example.com'], {
      ADMIN_PASSWORD: 'a brand new passphrase',
    });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('There is no admin with this e-mail.');
  });

  it('explains its usage on a wrong command or a missing e-mail', async () => {
    const unknown = await run(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Usage:');
    const noEmail = await run(['create'], { ADMIN_PASSWORD: PASSWORD });
    expect(noEmail.code).toBe(1);
    expect(noEmail.stderr).toContain('Missing --email.');
  });
});
