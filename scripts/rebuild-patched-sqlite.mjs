// Runs after `patch-package` on every `npm install` (decision 023). better-sqlite3's own install
// script compiled (or downloaded) its addon before patch-package applied
// patches/better-sqlite3+12.11.1.patch. On Node 20 and 22 the unpatched addon behaves the same;
// from Node 23 on, Node's ObjectWrap aborts the process when V8 collects a statement during idle
// garbage collection, so there the addon is rebuilt from the patched source. (The same rule, for
// the store at boot, is db/sqlite-addon.ts; this script runs before TypeScript can be loaded.)
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const addon = path.join(root, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node');
const patched = () => existsSync(addon) && readFileSync(addon).includes('GcSafeObjectWrap');

if (Number(process.versions.node.split('.')[0]) >= 23 && !patched()) {
  console.log(`Node ${process.version}: rebuilding better-sqlite3 from its patched source (decision 023)`);
  // --build-from-source stops prebuild-install from fetching the unpatched binary again.
  const { status } = spawnSync('npm', ['rebuild', 'better-sqlite3', '--build-from-source'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (status !== 0 || !patched()) {
    console.error('better-sqlite3 could not be rebuilt from its patched source: the store would abort on this Node.');
    process.exit(1);
  }
}
