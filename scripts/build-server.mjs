// The store's own commands (the server and the owner's CLIs) bundled into server-build/, one plain
// ES module each, so a process starts without compiling TypeScript on the way in: under `node
// --import tsx` every one of the few hundred source modules went through tsx's loader thread, about
// 2.5 s of a server's start and 1 s of every CLI call (decision 075). Libraries stay in
// node_modules (imported as they are); only our TypeScript is bundled. `npm run dev` and the test
// suites that import modules keep running the TypeScript itself.
import { copyFileSync, existsSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
export const serverBuildDir = path.join(root, 'server-build');

/**
 * Output name → TypeScript entry point. The output sits one folder below the project root, as its
 * source does, so `path.resolve(import.meta.dirname, '..')` still names the root in both.
 */
export const serverEntries = {
  main: 'server/main.ts',
  admin: 'scripts/admin.ts',
  'db-migrate': 'scripts/db-migrate.ts',
  'backup-database': 'scripts/backup-database.ts',
  'restore-database': 'scripts/restore-database.ts',
};

/** What the bundles are made of: a change to any of these makes server-build/ stale. */
export const serverSources = ['server', 'core', 'db', 'app', 'scripts', 'package.json', 'tsconfig.json'];

/**
 * The mailer's SMTP thread is a worker started from a file next to its module
 * (`new URL('./smtp-thread.mjs', import.meta.url)`): next to the bundle, that is server-build/.
 */
const besideTheBundles = ['core/mail/smtp-thread.mjs'];

/**
 * Builds into a folder beside server-build/ and swaps it in whole, so a process that starts (or a
 * running server that starts its SMTP thread) meanwhile finds either the old bundles or the new
 * ones, never a half-written folder.
 */
export async function buildServer() {
  const next = `${serverBuildDir}.next`;
  const previous = `${serverBuildDir}.previous`;
  rmSync(next, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: serverEntries,
    outdir: next,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    // Code the commands share is loaded once per process, whichever command it is.
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    packages: 'external',
    // Stack traces name the TypeScript files and lines (the commands run with --enable-source-maps).
    sourcemap: 'linked',
    sourcesContent: false,
    logLevel: 'warning',
  });
  for (const file of besideTheBundles) copyFileSync(path.join(root, file), path.join(next, path.basename(file)));
  rmSync(previous, { recursive: true, force: true });
  if (existsSync(serverBuildDir)) renameSync(serverBuildDir, previous);
  renameSync(next, serverBuildDir);
  rmSync(previous, { recursive: true, force: true });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await buildServer();
}
