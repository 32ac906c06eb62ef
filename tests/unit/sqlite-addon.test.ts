import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  PATCH_MARKER,
  installedSqliteAddonProblem,
  nodeNeedsPatchedAddon,
  sqliteAddonProblem,
} from '../../db/sqlite-addon.ts';

const packageJson = JSON.parse(readFileSync('package.json', 'utf8')) as {
  dependencies: Record<string, string>;
  scripts: Record<string, string>;
};

describe('the better-sqlite3 addon on Node 24 (decision 023)', () => {
  it('Node 23 and later need the patched addon; Node 20 and 22 do not', () => {
    expect(nodeNeedsPatchedAddon('20.20.2')).toBe(false);
    expect(nodeNeedsPatchedAddon('22.23.2')).toBe(false);
    expect(nodeNeedsPatchedAddon('24.21.0')).toBe(true);
    expect(nodeNeedsPatchedAddon('26.0.0')).toBe(true);
  });

  it('an unpatched addon is refused on Node 24 with what to run, and accepted on Node 20', () => {
    const unpatched = Buffer.from('\u007fELF … Statement … node::ObjectWrap');
    expect(sqliteAddonProblem('24.21.0', unpatched)).toMatch(/npm rebuild better-sqlite3 --build-from-source/);
    expect(sqliteAddonProblem('20.20.2', unpatched)).toBeNull();
    expect(sqliteAddonProblem('24.21.0', Buffer.from(`\u007fELF … 16${PATCH_MARKER} …`))).toBeNull();
  });

  it('the installed addon can run on this Node (on Node 24 this proves npm install rebuilt it)', () => {
    expect(installedSqliteAddonProblem()).toBeNull();
  });

  it('the patch matches the pinned version and adds the marker the checks look for', () => {
    const version = packageJson.dependencies['better-sqlite3'];
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    const patch = readFileSync(`patches/better-sqlite3+${version}.patch`, 'utf8');
    expect(patch).toContain(`+class ${PATCH_MARKER} {`);
    // Every wrapper class moves off node::ObjectWrap.
    expect(patch.match(/^-.*node::ObjectWrap/gm)?.length).toBeGreaterThanOrEqual(9);
    expect(packageJson.scripts.postinstall).toContain('scripts/rebuild-patched-sqlite.mjs');
  });
});
