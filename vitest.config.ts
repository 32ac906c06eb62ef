import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.{ts,tsx}', 'tests/integration/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Migrates one template database per dialect; every suite's database is a copy of it. Builds the
    // server and CLI bundles the process suites start, when a source changed.
    globalSetup: ['tests/support/database-templates.ts', 'tests/support/store-commands-setup.ts'],
    // One test file per core. Vitest's default (one fewer than the cores) ran the files one at a
    // time on CI's two cores, while the integration suites spend much of their time waiting on
    // PostgreSQL, child processes and timers (decision 043).
    maxWorkers: Math.max(2, availableParallelism()),
    // The test files of one worker share its process and module cache. Isolated, every file loaded
    // the app, the server build and their libraries again, about 3 s a file: most of the suite's
    // time went to imports (499 s of them against 26 s shared, on SQLite). A file that changes
    // module state another file relies on must set it back (decision 065).
    isolate: false,
  },
});
