/**
 * `npm run admin -- <command>`: manage admin accounts from the server's shell.
 *
 *   create --email you@example.com [--role owner|support]
 *                                           a new admin, an owner unless --role says otherwise (verified by
 *                                           an e-mailed code at first login); how a store gets its first owner
 *   reset-password --email you@example.com  a new password; ends a lockout, logs out every session
 *   reset-2fa --email you@example.com       a lost authenticator: back to e-mailed codes, logs out every session
 *   list                                    every admin: role, verified or not, second factor, locked or not
 *
 * The password comes from ADMIN_PASSWORD, or is asked for twice (hidden) in a terminal. It uses
 * the same configuration as the server (environment, then `.env`), migrating the database first.
 */
import path from 'node:path';
import readline from 'node:readline';
import { Writable } from 'node:stream';
import { AdminAuthError, createAdminAuth } from '../core/auth/admins.ts';
import { createOneTimeCodes, loadCodePepper } from '../core/auth/one-time-codes.ts';
import { passwordProblem } from '../core/auth/passwords.ts';
import { ADMIN_ROLES, type AdminRole, isAdminRole } from '../core/auth/roles.ts';
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { ConfigError, loadConfig } from '../server/config.ts';

const USAGE = `Usage:
  npm run admin -- create --email you@example.com [--role owner|support]
  npm run admin -- reset-password --email you@example.com
  npm run admin -- reset-2fa --email you@example.com
  npm run admin -- list

create makes an owner (everything) unless --role support (orders, messages and reviews only);
more admins are usually invited by an owner from the console (Admins page).
The password is read from ADMIN_PASSWORD, or asked for (twice, hidden) in a terminal.
It must be at least 12 characters long. Every login asks for a second factor: a code
e-mailed to the admin, or the authenticator app's once the admin turns it on (Security page);
reset-2fa turns the app off for an admin who lost it.`;

class UsageError extends Error {}

interface Args {
  command: string | undefined;
  email: string | undefined;
  role: string | undefined;
}

function parseArgs(argv: string[]): Args {
  const [command, ...rest] = argv;
  const flags = rest.values();
  const args: Args = { command, email: undefined, role: undefined };
  for (const arg of flags) {
    if (arg === '--email' || arg === '--role') {
      // The flag's value is the next argument (none when the flag comes last).
      args[arg === '--email' ? 'email' : 'role'] = flags.next().value;
    } else if (arg.startsWith('--email=')) {
      args.email = arg.slice('--email='.length);
    } else if (arg.startsWith('--role=')) {
      args.role = arg.slice('--role='.length);
    } else if (arg === '--help' || arg === '-h') {
      return { ...args, command: 'help' };
    } else {
      throw new UsageError(`Unknown argument: ${arg}`);
    }
  }
  return args;
}

/** What each role may do, as `create` and `list` say it. */
const ROLE_SCOPE: Record<AdminRole, string> = {
  owner: 'everything, including the catalogue, suppliers, the blog, admins and the audit log',
  support: 'orders, refills and cancels, contact messages and reviews',
};

/** `--role` for create: owner when absent (the CLI is how a store gets its first owner). */
function roleArg(command: string, role: string | undefined): AdminRole {
  if (role === undefined) return 'owner';
  if (command !== 'create') throw new UsageError('--role goes with create only.');
  const normalised = role.trim().toLowerCase();
  if (!isAdminRole(normalised)) throw new UsageError(`Unknown role: ${role}. Roles: ${ADMIN_ROLES.join(', ')}.`);
  return normalised;
}

/** Reads a line without echoing it. */
function askHidden(question: string): Promise<string> {
  const silent = new Writable({
    write(_chunk, _encoding, callback) {
      callback();
    },
  });
  process.stdout.write(question);
  const rl = readline.createInterface({ input: process.stdin, output: silent, terminal: true });
  return new Promise((resolve, reject) => {
    rl.on('SIGINT', () => {
      rl.close();
      process.stdout.write('\n');
      reject(new UsageError('Cancelled.'));
    });
    rl.question('', (answer) => {
      rl.close();
      process.stdout.write('\n');
      resolve(answer);
    });
  });
}

async function readPassword(): Promise<string> {
  const fromEnv = process.env.ADMIN_PASSWORD;
  if (fromEnv) {
    const problem = passwordProblem(fromEnv);
    if (problem) throw new UsageError(`ADMIN_PASSWORD is too weak: ${problem}`);
    return fromEnv;
  }
  if (!process.stdin.isTTY) throw new UsageError('Set ADMIN_PASSWORD, or run this in a terminal to type the password.');
  for (;;) {
    const password = await askHidden('Password (at least 12 characters): ');
    const problem = passwordProblem(password);
    if (problem) {
      console.error(problem);
      continue;
    }
    const again = await askHidden('Password again: ');
    if (again !== password) {
      console.error('The passwords do not match. Try again.');
      continue;
    }
    return password;
  }
}

function requireEmailArg(email: string | undefined): string {
  if (!email || !email.trim()) throw new UsageError('Missing --email.');
  return email;
}

async function main(): Promise<number> {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { command, email } = args;
  if (command === 'help') {
    console.log(USAGE);
    return 0;
  }
  if (command !== 'create' && command !== 'reset-password' && command !== 'reset-2fa' && command !== 'list') {
    console.error(command ? `Unknown command: ${command}\n\n${USAGE}` : USAGE);
    return 2;
  }

  // Check the arguments and the password before touching the database.
  const role = roleArg(command, args.role);
  const adminEmail = command === 'list' ? '' : requireEmailArg(email);
  const password = command === 'list' || command === 'reset-2fa' ? '' : await readPassword();

  const config = loadConfig();
  const handle = openDatabase({ url: config.DATABASE_URL, sqlitePath: config.sqlitePath });
  try {
    await migrateToLatest(handle.db);
    const codes = createOneTimeCodes({ db: handle.db, pepper: await loadCodePepper(handle.db) });
    const auth = createAdminAuth({ db: handle.db, codes, publicUrl: config.PUBLIC_URL });

    if (command === 'create') {
      const admin = await auth.createAdmin(adminEmail, password, role);
      const loginUrl = `${config.PUBLIC_URL.replace(/\/+$/, '')}/login`;
      console.log(
        `Created admin ${admin.email} with the role ${admin.role} (${ROLE_SCOPE[admin.role]}). Log in at ${loginUrl}; the first login e-mails a 6-digit code to verify the account.`,
      );
      if (!config.SMTP_URL) {
        console.log(
          `SMTP_URL is not set: e-mails (the code too) are written as .eml files under ${path.join(config.dataDir, 'mail')}.`,
        );
      }
    } else if (command === 'reset-password') {
      const result = await auth.resetPassword(adminEmail, password);
      const sessions = result.revokedTokens === 1 ? '1 session was' : `${result.revokedTokens} sessions were`;
      console.log(`Password changed for ${result.email}. ${sessions} logged out.`);
    } else if (command === 'reset-2fa') {
      const result = await auth.resetSecondFactor(adminEmail);
      const sessions = result.revokedTokens === 1 ? '1 session was' : `${result.revokedTokens} sessions were`;
      console.log(`${result.email} logs in with e-mailed codes again. ${sessions} logged out.`);
    } else {
      const admins = await auth.listAdmins();
      if (!admins.length) {
        console.log('No admins yet. Create one with: npm run admin -- create --email you@example.com');
      } else {
        const width = Math.max(5, ...admins.map((a) => a.email.length));
        console.log(
          `${'email'.padEnd(width)}  role     verified  2fa           sessions  created                   status`,
        );
        for (const admin of admins) {
          const status = admin.lockedUntil ? `an address locked out until ${admin.lockedUntil}` : 'ok';
          const secondFactor = admin.secondFactor === 'totp' ? 'app' : 'e-mail code';
          console.log(
            [
              admin.email.padEnd(width),
              admin.role.padEnd(7),
              (admin.isVerified ? 'yes' : 'no').padEnd(8),
              secondFactor.padEnd(12),
              String(admin.activeTokens).padEnd(8),
              admin.createdAt.padEnd(24),
              status,
            ].join('  '),
          );
        }
      }
    }
    return 0;
  } finally {
    await handle.close();
  }
}

try {
  process.exitCode = await main();
} catch (error) {
  if (error instanceof UsageError || error instanceof AdminAuthError || error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exitCode = 1;
}
