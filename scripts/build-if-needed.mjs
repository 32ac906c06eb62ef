// `npm start` runs this first: build the React Router app when there is no build yet, or when
// any source it depends on is newer than the build. A fresh clone builds once; later starts skip it.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const marker = path.join(root, 'build/server/index.js');
const sources = ['app', 'core', 'public', 'vite.config.ts', 'react-router.config.ts', 'package.json'];

function newestMtime(entry) {
  const full = path.join(root, entry);
  if (!existsSync(full)) return 0;
  const stat = statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of readdirSync(full)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

const built = existsSync(marker) ? statSync(marker).mtimeMs : 0;
const changed = Math.max(...sources.map(newestMtime));
if (built >= changed) process.exit(0);

console.log(built ? 'Sources changed since the last build: rebuilding…' : 'No build yet: building the store…');
const result = spawnSync('npx', ['react-router', 'build'], { cwd: root, stdio: 'inherit' });
process.exit(result.status ?? 1);
