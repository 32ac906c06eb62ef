// `npm start` runs this first (and the owner's commands, with `--server`): build what is missing, or
// older than any source it is made of. A fresh clone builds once; later starts skip it.
// - The React Router app (build/): the pages the server renders and the browser's code.
// - The server's own commands (server-build/, scripts/build-server.mjs).
// `--server` builds only the commands, for a CLI that renders no page.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { buildServer, serverBuildDir, serverSources } from './build-server.mjs';

const root = path.resolve(import.meta.dirname, '..');

function newestMtime(entry) {
  const full = path.join(root, entry);
  if (!existsSync(full)) return 0;
  const stat = statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of readdirSync(full)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

/** 0 when `marker` is missing or older than one of `sources`, else its time. */
function upToDate(marker, sources) {
  const built = existsSync(marker) ? statSync(marker).mtimeMs : 0;
  return built > 0 && built >= Math.max(...sources.map(newestMtime));
}

const serverOnly = process.argv.includes('--server');

if (!serverOnly) {
  const appMarker = path.join(root, 'build/server/index.js');
  const appSources = ['app', 'core', 'public', 'vite.config.ts', 'react-router.config.ts', 'package.json'];
  if (!upToDate(appMarker, appSources)) {
    console.log(
      existsSync(appMarker) ? 'Sources changed since the last build: rebuilding…' : 'No build yet: building the store…',
    );
    const result = spawnSync('npx', ['react-router', 'build'], { cwd: root, stdio: 'inherit' });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
}

if (!upToDate(path.join(serverBuildDir, 'main.mjs'), serverSources)) await buildServer();
