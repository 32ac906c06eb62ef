import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { upToDate } from '../../scripts/support/freshness.mjs';

/**
 * `npm start`, the owner's CLIs and the test suites run the bundles in server-build/ and the React
 * Router build only after scripts/build-if-needed.mjs has judged them fresh: a build older than any
 * of its sources, however deep in a folder, must be built again, or an edit would not run.
 */
describe('a build is fresh only when no source is newer', () => {
  let root: string;
  const at = (file: string, seconds: number) => {
    const full = path.join(root, file);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, file);
    utimesSync(full, seconds, seconds);
  };

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'boostly-freshness-'));
    at('core/orders/deep/rules.ts', 1_000);
    at('server/main.ts', 1_000);
    at('package.json', 1_000);
    // Folders' own times count too (a deleted file makes its folder newer): old here.
    for (const folder of ['core/orders/deep', 'core/orders', 'core', 'server'])
      utimesSync(path.join(root, folder), 1_000, 1_000);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const sources = ['core', 'server', 'package.json', 'not-there'];

  it('is stale without a build', () => {
    expect(upToDate(root, 'server-build/main.mjs', sources)).toBe(false);
  });

  it('is fresh when the build is newer than every source, and stale once a deep file changes', () => {
    at('server-build/main.mjs', 2_000);
    expect(upToDate(root, 'server-build/main.mjs', sources)).toBe(true);
    utimesSync(path.join(root, 'core/orders/deep/rules.ts'), 3_000, 3_000);
    expect(upToDate(root, 'server-build/main.mjs', sources)).toBe(false);
  });

  it('is stale when a file is added or removed (its folder changes)', () => {
    at('server-build/main.mjs', 2_000);
    utimesSync(path.join(root, 'server'), 3_000, 3_000);
    expect(upToDate(root, 'server-build/main.mjs', sources)).toBe(false);
  });

  it('is stale when a single-file source changes', () => {
    at('server-build/main.mjs', 2_000);
    utimesSync(path.join(root, 'package.json'), 2_500, 2_500);
    expect(upToDate(root, 'server-build/main.mjs', sources)).toBe(false);
  });
});
