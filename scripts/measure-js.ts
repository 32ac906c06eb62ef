/**
 * How much JavaScript a page loads, from the production build (`npm run build` first):
 *
 *   node --import tsx scripts/measure-js.ts [--json] [path ...]
 *
 * For each path (default: /, /blog, /blog/a-post, /admin/blog, /admin/blog/add) it matches the
 * build's route manifest (build/client/assets/manifest-*.js) the way the router does and sums the
 * modules the browser fetches on a first visit: the client entry, then each matched route's
 * module, its split modules (client loader, hydrate fallback, ...) and their static imports.
 * Sizes are gzip (level 6, what @fastify/compress sends) and raw. Chunks imported later with
 * `import()` (e.g. the lazily loaded blog editor) are reported separately as "+ lazy".
 *
 * It also checks the rule of decision 021: no chunk a public (non-admin) route loads, statically
 * or lazily, contains Tiptap or ProseMirror. A violation exits with status 1.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { type RouteObject, matchRoutes } from 'react-router';

interface ManifestRoute {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  module: string;
  imports?: string[];
  [key: string]: unknown;
}

interface Manifest {
  entry: { module: string; imports: string[] };
  routes: Record<string, ManifestRoute>;
}

const CLIENT_DIR = path.resolve(process.env.BUILD_CLIENT_DIR ?? 'build/client');
const ASSETS_DIR = path.join(CLIENT_DIR, 'assets');
const DEFAULT_PATHS = ['/', '/blog', '/blog/a-post', '/admin/blog', '/admin/blog/add'];
/** Text that only the editor's libraries put into a chunk. */
const EDITOR_MARKERS = /prosemirror|@tiptap|tiptap/i;

function readManifest(): Manifest {
  const file = existsSync(ASSETS_DIR)
    ? readdirSync(ASSETS_DIR).find((name) => /^manifest-[\w-]+\.js$/.test(name))
    : undefined;
  if (!file) throw new Error(`No route manifest in ${ASSETS_DIR}: run \`npm run build\` first.`);
  const text = readFileSync(path.join(ASSETS_DIR, file), 'utf8');
  return JSON.parse(text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1)) as Manifest;
}

/** The manifest as router route objects, so `matchRoutes` ranks them like the app does. */
function routeTree(manifest: Manifest): RouteObject[] {
  const byParent = new Map<string | undefined, ManifestRoute[]>();
  for (const route of Object.values(manifest.routes)) {
    const siblings = byParent.get(route.parentId) ?? [];
    siblings.push(route);
    byParent.set(route.parentId, siblings);
  }
  const build = (parentId: string | undefined): RouteObject[] =>
    (byParent.get(parentId) ?? []).map((route) =>
      route.index
        ? { id: route.id, index: true }
        : { id: route.id, ...(route.path !== undefined ? { path: route.path } : {}), children: build(route.id) },
    );
  return build(undefined);
}

const fileCache = new Map<string, string>();
function chunkText(asset: string): string {
  let text = fileCache.get(asset);
  if (text === undefined) {
    text = readFileSync(path.join(CLIENT_DIR, asset), 'utf8');
    fileCache.set(asset, text);
  }
  return text;
}

/** '/assets/x.js' for a chunk's relative import './x.js'. */
function assetOf(specifier: string): string {
  return `/assets/${specifier.replace(/^\.\//, '')}`;
}

function staticImportsOf(asset: string): string[] {
  const text = chunkText(asset);
  return [...text.matchAll(/(?:from|import)\s*["'`](\.\/[^"'`]+\.js)["'`]/g)].map((match) => assetOf(match[1] ?? ''));
}

function dynamicImportsOf(asset: string): string[] {
  const text = chunkText(asset);
  return [...text.matchAll(/import\(\s*["'`](\.\/[^"'`]+\.js)["'`]\s*\)/g)].map((match) => assetOf(match[1] ?? ''));
}

/** The chunks in `roots` and everything they import statically. */
function staticClosure(roots: Iterable<string>): Set<string> {
  const seen = new Set<string>();
  const queue = [...roots];
  for (let asset = queue.shift(); asset !== undefined; asset = queue.shift()) {
    if (seen.has(asset)) continue;
    seen.add(asset);
    queue.push(...staticImportsOf(asset));
  }
  return seen;
}

/** What `import()` in `loaded` would fetch besides what is already loaded (recursively). */
function lazyClosure(loaded: Set<string>): Set<string> {
  const lazy = new Set<string>();
  let frontier = [...loaded];
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const asset of frontier) {
      for (const target of staticClosure(dynamicImportsOf(asset))) {
        if (!loaded.has(target) && !lazy.has(target)) {
          lazy.add(target);
          next.push(target);
        }
      }
    }
    frontier = next;
  }
  return lazy;
}

function routeModules(route: ManifestRoute): string[] {
  const modules = [route.module, ...(route.imports ?? [])];
  for (const [key, value] of Object.entries(route)) {
    if (key !== 'module' && key.endsWith('Module') && typeof value === 'string') modules.push(value);
  }
  return modules;
}

interface Sizes {
  files: number;
  raw: number;
  gzip: number;
}

function sizesOf(assets: Iterable<string>): Sizes {
  let files = 0;
  let raw = 0;
  let gzip = 0;
  for (const asset of assets) {
    const bytes = Buffer.from(chunkText(asset));
    files += 1;
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 6 }).length;
  }
  return { files, raw, gzip };
}

interface PageReport {
  path: string;
  routes: string[];
  firstLoad: Sizes;
  lazy: Sizes;
  editorChunks: string[];
}

function measure(manifest: Manifest, tree: RouteObject[], pathname: string): PageReport {
  const matches = matchRoutes(tree, pathname) ?? [];
  const routeIds = matches.map((match) => match.route.id ?? '');
  const roots = [manifest.entry.module, ...manifest.entry.imports];
  for (const id of routeIds) {
    const route = manifest.routes[id];
    if (route) roots.push(...routeModules(route));
  }
  const firstLoad = staticClosure(roots);
  const lazy = lazyClosure(firstLoad);
  const editorChunks = [...firstLoad, ...lazy].filter((asset) => EDITOR_MARKERS.test(chunkText(asset)));
  return { path: pathname, routes: routeIds, firstLoad: sizesOf(firstLoad), lazy: sizesOf(lazy), editorChunks };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

function main(): void {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  const paths = args.filter((arg) => arg !== '--json');
  const manifest = readManifest();
  const tree = routeTree(manifest);
  const reports = (paths.length > 0 ? paths : DEFAULT_PATHS).map((pathname) => measure(manifest, tree, pathname));

  // Every public route (not under the admin layout) and every chunk it can load.
  const violations: string[] = [];
  for (const route of Object.values(manifest.routes)) {
    if (route.id.startsWith('routes/admin/')) continue;
    const loaded = staticClosure(routeModules(route));
    for (const asset of [...loaded, ...lazyClosure(loaded)]) {
      if (EDITOR_MARKERS.test(chunkText(asset))) violations.push(`${route.id} → ${asset}`);
    }
  }

  if (json) {
    console.log(JSON.stringify({ pages: reports, publicRoutesWithEditorCode: violations }, null, 2));
  } else {
    console.log('First-load JavaScript per page (gzip level 6; raw in brackets)\n');
    const width = Math.max(...reports.map((report) => report.path.length)) + 2;
    for (const report of reports) {
      const lazy =
        report.lazy.files > 0
          ? `  + lazy ${kb(report.lazy.gzip)} (${kb(report.lazy.raw)}) in ${report.lazy.files}`
          : '';
      console.log(
        `${report.path.padEnd(width)} ${kb(report.firstLoad.gzip).padStart(9)} (${kb(report.firstLoad.raw)}) in ${report.firstLoad.files} files${lazy}`,
      );
      console.log(`${''.padEnd(width)} routes: ${report.routes.join(' > ')}`);
      if (report.editorChunks.length > 0)
        console.log(`${''.padEnd(width)} editor code in: ${report.editorChunks.join(', ')}`);
    }
    console.log(
      violations.length === 0
        ? '\nNo public route loads Tiptap/ProseMirror, statically or lazily.'
        : `\nPublic routes that load editor code:\n  ${violations.join('\n  ')}`,
    );
  }
  if (violations.length > 0) process.exitCode = 1;
}

main();
