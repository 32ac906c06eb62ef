/**
 * Whether the compiled better-sqlite3 addon is safe on the running Node (decision 023). From Node
 * 23 on, an addon built from the unpatched source aborts the whole process when V8 collects a
 * prepared statement during idle garbage collection; `npm install` rebuilds it from the patched
 * source (scripts/rebuild-patched-sqlite.mjs), and the store refuses SQLite rather than crash at a
 * random moment later when that rebuild did not happen.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** A class name the patch adds (patches/better-sqlite3+12.11.1.patch); built addons carry it in their type information. */
export const PATCH_MARKER = 'GcSafeObjectWrap';

export function nodeNeedsPatchedAddon(nodeVersion: string): boolean {
  return Number(nodeVersion.split('.')[0]) >= 23;
}

/** Why this addon cannot run on `nodeVersion`, or null when it can. */
export function sqliteAddonProblem(nodeVersion: string, addon: Buffer | null): string | null {
  if (!nodeNeedsPatchedAddon(nodeVersion) || addon === null || addon.includes(PATCH_MARKER)) return null;
  return (
    `better-sqlite3 was built without the store's patch, and on Node ${nodeVersion} it would abort the process ` +
    'during garbage collection: run `npm rebuild better-sqlite3 --build-from-source` (docs/decisions/023-node-24-sqlite-addon.md).'
  );
}

let checked: string | null | undefined;

/** `sqliteAddonProblem` for the running Node and the installed addon, read once per process. */
export function installedSqliteAddonProblem(): string | null {
  if (checked !== undefined) return checked;
  let addon: Buffer | null = null;
  if (nodeNeedsPatchedAddon(process.versions.node)) {
    const packageDir = path.dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json'));
    const file = path.join(packageDir, 'build/Release/better_sqlite3.node');
    // A missing file is better-sqlite3's own error to report when it loads.
    addon = existsSync(file) ? readFileSync(file) : null;
  }
  checked = sqliteAddonProblem(process.versions.node, addon);
  return checked;
}
