import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

// E2E_PORT and E2E_MAIL_PORT let two checkouts run their suites side by side on one machine.
const PORT = Number(process.env.E2E_PORT ?? 4317);
const BASE_URL = `http://127.0.0.1:${PORT}`;
/** Where tests/e2e/support/serve.ts shows the e-mails its SMTP sink caught (GET /messages). */
const MAIL_PORT = (process.env.E2E_MAIL_PORT ??= '4318');

/**
 * A fresh, empty data directory per run, so the server seeds the catalogue from
 * core/catalogue/seed/catalogue-seed.ts. Playwright loads this file in the runner and again in every
 * worker; the environment variable makes them all agree on one directory.
 */
const dataDir = (process.env.BOOSTLY_E2E_DATA_DIR ??= mkdtempSync(path.join(os.tmpdir(), 'boostly-e2e-')));

/**
 * Chromium's headless shell when it is installed (Debian's chromium-headless-shell, the build
 * Playwright itself runs headless tests in), else the full browser in its headless mode, which
 * also draws a browser window's own interface for every test's context: the whole browser suite
 * took 960 s in it against 568 s in the shell, on this machine (decision 073). CHROMIUM_PATH names
 * another binary. `npm test` relies on this choice and on its errors.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const FULL_CHROMIUM = '/usr/bin/chromium';
const executablePath =
  process.env.CHROMIUM_PATH ?? [HEADLESS_SHELL, FULL_CHROMIUM].find((file) => existsSync(file)) ?? HEADLESS_SHELL;
if (!existsSync(executablePath)) {
  throw new Error(
    `Chromium not found at ${executablePath}: install it with \`apt-get install -y chromium-headless-shell\` to run the browser suites.`,
  );
}
// Said once, by the runner: every worker loads this file too, with TEST_WORKER_INDEX set.
if (executablePath === FULL_CHROMIUM && !process.env.CHROMIUM_PATH && !process.env.TEST_WORKER_INDEX) {
  console.log(
    'The browser suites run in the full Chromium: `apt-get install -y chromium-headless-shell` makes them about 40% faster.',
  );
}
const headlessShell = path.basename(executablePath) === 'chromium-headless-shell';

const launchOptions = {
  executablePath,
  args: [
    // The shell has only one headless mode; the full browser is told which of its two to use.
    ...(headlessShell ? [] : ['--headless=new']),
    '--no-sandbox',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
  ],
};

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: !!process.env.CI,
  reporter: [['list']],
  globalTeardown: './tests/e2e/support/global-teardown.ts',
  use: {
    baseURL: BASE_URL,
    launchOptions,
  },
  projects: [
    {
      name: 'chromium',
      // The device preset sets a browser channel/viewport; keep the system Chromium binary.
      use: { ...devices['Desktop Chrome'], launchOptions },
    },
  ],
  webServer: {
    // The build must already exist (the test script runs `react-router build` first). The
    // wrapper starts an SMTP sink, then server/main.ts with SMTP_URL pointing at it.
    command: 'node --import tsx tests/e2e/support/serve.ts',
    url: `${BASE_URL}/readyz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    // SIGTERM lets the wrapper stop the store cleanly and close the sink.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    env: {
      NODE_ENV: 'production',
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      E2E_MAIL_PORT: MAIL_PORT,
      // The simulated supplier delivers within seconds and never fails, so a purchase can be
      // watched all the way to Completed; statuses are synced every second.
      SIMULATED_PANEL_DELIVERY_SECONDS: '4',
      SIMULATED_PANEL_FAILURE_RATE: '0',
      SUPPLIER_SYNC_SECONDS: '1',
      // Queued work (every e-mail, a login code included, and each step of an order) waits for the
      // job worker's next poll: a tenth of a second instead of the default second, in every test
      // that waits for a job's result.
      JOB_POLL_MS: '100',
      // Tests stand in for many customers by sending their own X-Forwarded-For, as a proxy would.
      TRUST_PROXY: 'true',
    },
  },
});
