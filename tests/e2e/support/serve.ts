/**
 * Playwright's web server for the end-to-end suites (run with `node --import tsx`):
 *
 * 1. starts a real SMTP sink (tests/fakes/smtp.ts) on an ephemeral 127.0.0.1 port;
 * 2. serves what it caught as JSON at `GET http://127.0.0.1:$E2E_MAIL_PORT/messages`
 *    (default 4318, loopback only), so tests in other processes can read the e-mails;
 * 3. creates the admin account the admin suite logs in with (`scripts/admin.ts create`, same
 *    DATA_DIR), failing the start if that fails;
 * 4. starts the real store (server/main.ts) as a child process with the environment Playwright
 *    gives this process plus `SMTP_URL` pointing at the sink.
 *
 * SIGTERM/SIGINT are forwarded to the store; when it has stopped (or if it dies on its own) the
 * mail endpoint and the sink close and this process exits with the store's exit code.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { startSmtpSink } from '../../fakes/smtp.ts';

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

/** The admin the admin suite logs in as (tests/e2e/admin.spec.ts uses the same defaults). */
const E2E_ADMIN_EMAIL = process.env.E2E_ADMIN_EMAIL ?? 'admin@boostly.test';
const E2E_ADMIN_PASSWORD = process.env.E2E_ADMIN_PASSWORD ?? 'correct horse battery staple';

// Before the store opens the database: the CLI migrates it and adds the (unverified) admin.
const admin = spawnSync(
  process.execPath,
  ['--import', 'tsx', 'scripts/admin.ts', 'create', '--email', E2E_ADMIN_EMAIL],
  {
    cwd: root,
    env: { ...process.env, ADMIN_PASSWORD: E2E_ADMIN_PASSWORD },
    stdio: ['ignore', 'ignore', 'inherit'],
    timeout: 60_000,
  },
);
if (admin.status !== 0) {
  console.error(
    `e2e: creating the admin ${E2E_ADMIN_EMAIL} failed (exit ${admin.status ?? admin.signal ?? admin.error?.message})`,
  );
  process.exit(1);
}

const sink = await startSmtpSink();

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

const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
  cwd: root,
  env: { ...process.env, SMTP_URL: sink.url },
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
