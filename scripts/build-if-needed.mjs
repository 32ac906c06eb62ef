// `npm start` runs this first (and the owner's commands, with `--server`): build what is missing, or
// older than any source it is made of. A fresh clone builds once; later starts skip it.
// - The React Router app (build/): the pages the server renders and the browser's code.
// - The server's own commands (server-build/, scripts/build-server.mjs).
// `--server` builds only the commands, for a CLI that renders no page.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { buildServer, serverSources } from './build-server.mjs';
import { upToDate } from './support/freshness.mjs';

const root = path.resolve(import.meta.dirname, '..');
const appMarker = 'build/server/index.js';
const appSources = ['app', 'core', 'public', 'vite.config.ts', 'react-router.config.ts', 'package.json'];

if (!process.argv.includes('--server') && !upToDate(root, appMarker, appSources)) {
  const built = existsSync(path.join(root, appMarker));
  console.log(built ? 'Sources changed since the last build: rebuilding…' : 'No build yet: building the store…');
  const result = spawnSync('npx', ['react-router', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (!upToDate(root, 'server-build/main.mjs', serverSources)) await buildServer();
