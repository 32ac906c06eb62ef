/**
 * Playwright's web server for the end-to-end suites (run with `node --import tsx`):
 *
 * 1. starts a real SMTP sink (tests/fakes/smtp.ts) on an ephemeral 127.0.0.1 port;
 * 2. serves what it caught as JSON at `GET http://127.0.0.1:$E2E_MAIL_PORT/messages`
 *    (default 4318, loopback only), so tests in other processes can read the e-mails;
 *    The sink refuses (550, a permanent failure) the addresses a test lists with
 *    `PUT /refused/<address>` until `DELETE /refused/<address>` (see mail.ts), so a test can make
 *    one e-mail fail for good without disturbing the others' mail;
 * 3. creates the admin accounts of the suites (support/admins.ts: one per test that logs in) with
 *    the first one through the CLI (`scripts/admin.ts create`, same DATA_DIR) and the rest through
 *    the same core call in this process, failing the start if any fails;
 * 4. starts the real store (server/main.ts) as a child process with the environment Playwright
 *    gives this process plus `SMTP_URL` pointing at the sink (and a TOTP key for the run when
 *    none is set, so the security suite can turn the authenticator app on in production mode).
 *
 * SIGTERM/SIGINT are forwarded to the store; when it has stopped (or if it dies on its own) the
 * mail endpoint and the sink close and this process exits with the store's exit code.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import { createAdminAuth } from '../../../core/auth/admins.ts';
import { createOneTimeCodes, loadCodePepper } from '../../../core/auth/one-time-codes.ts';
import { openDatabase } from '../../../db/database.ts';
import { migrateToLatest } from '../../../db/migrate.ts';
import { loadConfig } from '../../../server/config.ts';
import { startSmtpSink } from '../../fakes/smtp.ts';
import { E2E_ADMINS, E2E_ADMIN_PASSWORD } from './admins.ts';
import { buildIfNeeded, storeCommandArgs } from '../../../scripts/support/store-command.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const mailPort = Number(process.env.E2E_MAIL_PORT ?? 4318);
/** How long the store gets to shut down cleanly before it is killed. */
const STOP_GRACE_MS = 10_000;

export interface CapturedMail {
  to: string;
  from: string;
  subject: string;
  html: string;
  text: string;
}

const [cliAdmin, ...otherAdmins] = Object.values(E2E_ADMINS);

// The server and the CLI run from their bundles, as `npm start` runs them: built if a source changed.
buildIfNeeded({ serverOnly: true });

// Before the store opens the database: the CLI migrates it and adds the first (unverified) admin,
// so the e2e run also proves the documented way of making one works.
const admin = spawnSync(process.execPath, storeCommandArgs('admin', 'create', '--email', cliAdmin), {
  cwd: root,
  env: { ...process.env, ADMIN_PASSWORD: E2E_ADMIN_PASSWORD },
  stdio: ['ignore', 'ignore', 'inherit'],
  timeout: 60_000,
});
if (admin.status !== 0) {
  console.error(
    `e2e: creating the admin ${cliAdmin} failed (exit ${admin.status ?? admin.signal ?? admin.error?.message})`,
  );
  process.exit(1);
}

// The others with the call the CLI makes, in this process: one CLI start per account would cost
// seconds each on a loaded machine.
{
  const config = loadConfig();
  const handle = openDatabase({ url: config.DATABASE_URL, sqlitePath: config.sqlitePath });
  try {
    await migrateToLatest(handle.db);
    const codes = createOneTimeCodes({ db: handle.db, pepper: await loadCodePepper(handle.db) });
    const auth = createAdminAuth({ db: handle.db, codes, publicUrl: config.PUBLIC_URL });
    for (const email of otherAdmins)
      await auth.createAdmin(email, E2E_ADMIN_PASSWORD, email === E2E_ADMINS.catalogueSupport ? 'support' : 'owner');
  } catch (error) {
    console.error('e2e: creating the admin accounts failed', error);
    process.exit(1);
  } finally {
    await handle.close();
  }
}

/** Recipients the sink refuses for now (lower case), set by the tests over HTTP. */
const refusedRecipients = new Set<string>();

const sink = await startSmtpSink({
  rejectRecipient: (address) => refusedRecipients.has(address.toLowerCase()),
});

const mailServer = http.createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  if (request.method === 'GET' && url.pathname === '/messages') {
    const messages: CapturedMail[] = sink.messages.map(({ to, from, subject, html, text }) => ({
      to,
      from,
      subject,
      html,
      text,
    }));
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
    response.end(JSON.stringify(messages));
    return;
  }
  const refused = /^\/refused\/([^/]+)$/.exec(url.pathname);
  if (refused && (request.method === 'PUT' || request.method === 'DELETE')) {
    const address = decodeURIComponent(refused[1] ?? '').toLowerCase();
    if (request.method === 'PUT') refusedRecipients.add(address);
    else refusedRecipients.delete(address);
    response.writeHead(204);
    response.end();
    return;
  }
  response.writeHead(404, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify({ error: 'not found' }));
});

await new Promise<void>((resolve, reject) => {
  mailServer.once('error', reject);
  mailServer.listen(mailPort, '127.0.0.1', () => {
    mailServer.off('error', reject);
    resolve();
  });
});
console.log(`e2e: SMTP sink at ${sink.url}; captured mail at http://127.0.0.1:${mailPort}/messages`);

const child: ChildProcess = spawn(process.execPath, storeCommandArgs('main'), {
  cwd: root,
  env: {
    // A key for the run (32 random bytes) unless one is given: production mode refuses to turn
    // the authenticator app on without one.
    TOTP_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    // The same for the API keys of supplier panels added on /admin/suppliers (decision 045).
    SUPPLIER_KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    // The suites' fake supplier panels listen on this host: allowed as an operator allows their own network.
    SUPPLIER_PANEL_ALLOW_PRIVATE: '127.0.0.1',
    ...process.env,
    SMTP_URL: sink.url,
  },
  stdio: 'inherit',
});

let stopping = false;

async function closeSideServices(): Promise<void> {
  await Promise.allSettled([
    new Promise<void>((resolve) => {
      mailServer.closeAllConnections();
      mailServer.close(() => resolve());
    }),
    sink.close(),
  ]);
}

const childExited = new Promise<number>((resolve) => {
  child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
});

childExited
  .then(async (code) => {
    if (!stopping) console.error(`e2e: the store exited on its own (code ${code})`);
    stopping = true;
    await closeSideServices();
    process.exit(code);
  })
  // Whatever goes wrong while closing, this process must still end or Playwright waits on it.
  .catch((error: unknown) => {
    console.error('e2e: closing the side services failed', error);
    process.exit(1);
  });

function forward(signal: NodeJS.Signals): void {
  if (stopping) return;
  stopping = true;
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  const force = setTimeout(() => {
    console.error(`e2e: the store did not stop within ${STOP_GRACE_MS} ms; killing it`);
    child.kill('SIGKILL');
  }, STOP_GRACE_MS);
  force.unref();
}

process.on('SIGTERM', () => forward('SIGTERM'));
process.on('SIGINT', () => forward('SIGINT'));
