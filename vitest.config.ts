import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.{ts,tsx}', 'tests/integration/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One test file per core. Vitest's default (one fewer than the cores) ran the files one at a
    // time on CI's two cores, while the integration suites spend much of their time waiting on
    // PostgreSQL, child processes and timers (decision 043).
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
