/**
 * How much JavaScript a page of the production build loads on a first visit, read from the
 * build's route manifest (build/client/assets/manifest-*.js). Used by `scripts/measure-js.ts`
 * (the command-line report) and by the budget test (tests/e2e/js-budget.spec.ts), so the number
 * a developer reads is the number the test checks (decision 036).
 *
 * A page's first load is the client entry, then each matched route's module, its split modules
 * (client loader, client action, hydrate fallback, ...) and everything those import statically.
 * Chunks imported later with `import()` (the lazily loaded blog editor) are counted as "lazy".
 * Sizes are gzip level 6, what @fastify/compress sends, and raw.
 *
 * A page whose route opted out of the framework (app/page-handle.ts) loads none of that: only its
 * inline plain script (app/plain-page-script.server.ts), which is what it is measured at. Which
 * routes opted out is read from the server build (`frameworkFreeRouteIds`), where their handles are.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { type RouteObject, matchRoutes } from 'react-router';
import { documentHydrates } from '../app/page-handle.ts';
import { PLAIN_PAGE_SCRIPT } from '../app/plain-page-script.server.ts';

/** The budget of decision 036: every public page's first load, gzip. */
export const FIRST_LOAD_BUDGET_BYTES = 120 * 1024;

/** A page without framework JavaScript: everything it runs, inline included, gzip. */
export const FRAMEWORK_FREE_BUDGET_BYTES = 30 * 1024;

/**
 * The ids of the routes whose page loads no framework JavaScript, from the production server build
 * (`npm run build` first): each route module's `handle`, judged as app/entry.server.tsx does.
 */
export async function frameworkFreeRouteIds(
  serverBuild: string = path.resolve(process.env.BUILD_SERVER_FILE ?? 'build/server/index.js'),
): Promise<Set<string>> {
  if (!existsSync(serverBuild)) throw new Error(`No server build at ${serverBuild}: run \`npm run build\` first.`);
  const build = (await import(pathToFileURL(serverBuild).href)) as {
    routes: Record<string, { module: { handle?: unknown } }>;
  };
  return new Set(
    Object.entries(build.routes)
      .filter(([, route]) => !documentHydrates([{ handle: route.module.handle }]))
      .map(([id]) => id),
  );
}

/** Text that only the blog editor's libraries put into a chunk (decision 021). */
const EDITOR_MARKERS = /prosemirror|@tiptap|tiptap/i;

interface ManifestRoute {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  module: string;
  imports?: string[];
  hasDefaultExport?: boolean;
  [key: string]: unknown;
}

interface Manifest {
  entry: { module: string; imports: string[] };
  routes: Record<string, ManifestRoute>;
}

export interface Sizes {
  files: number;
  raw: number;
  gzip: number;
}

interface PageReport {
  path: string;
  /** The matched route ids, outermost first. */
  routes: string[];
  /** The page loads no framework JavaScript (app/page-handle.ts), only its inline plain script. */
  frameworkFree: boolean;
  firstLoad: Sizes;
  lazy: Sizes;
  /** The first-load chunks, largest (gzip) first: what to look at when a page is over budget. */
  chunks: { asset: string; gzip: number }[];
  /** Chunks with editor code that this page loads, now or lazily. */
  editorChunks: string[];
}

/**
 * Whether a manifest route belongs to the admin area: the layout at /admin and every route under it,
 * whatever its id (app/routes.ts gives some an id of their own, e.g. `admin-catalogue-service`).
 */
function isAdminRoute(route: ManifestRoute, routes: Readonly<Record<string, ManifestRoute>>): boolean {
  for (
    let current: ManifestRoute | undefined = route;
    current;
    current = current.parentId ? routes[current.parentId] : undefined
  ) {
    if (current.id === 'routes/admin/layout' || current.id.startsWith('routes/admin/')) return true;
  }
  return false;
}

/** The production build's client side, read once: its manifest, its route tree and its chunks. */
export class ClientBuild {
  readonly manifest: Manifest;
  private readonly tree: RouteObject[];
  private readonly texts = new Map<string, string>();
  private readonly gzipSizes = new Map<string, number>();

  /**
   * `frameworkFree`: the routes whose page loads no framework JavaScript (`frameworkFreeRouteIds`);
   * without it every page is measured as a hydrated one.
   */
  constructor(
    readonly clientDir: string = path.resolve(process.env.BUILD_CLIENT_DIR ?? 'build/client'),
    private readonly frameworkFree: ReadonlySet<string> = new Set(),
  ) {
    const assetsDir = path.join(clientDir, 'assets');
    const file = existsSync(assetsDir)
      ? readdirSync(assetsDir).find((name) => /^manifest-[\w-]+\.js$/.test(name))
      : undefined;
    if (!file) throw new Error(`No route manifest in ${assetsDir}: run \`npm run build\` first.`);
    const text = readFileSync(path.join(assetsDir, file), 'utf8');
    this.manifest = JSON.parse(text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1)) as Manifest;
    this.tree = this.routeTree(undefined);
  }

  /** The manifest as router route objects, so `matchRoutes` ranks them like the app does. */
  private routeTree(parentId: string | undefined): RouteObject[] {
    return Object.values(this.manifest.routes)
      .filter((route) => route.parentId === parentId)
      .map((route) =>
        route.index
          ? { id: route.id, index: true }
          : {
              id: route.id,
              ...(route.path !== undefined ? { path: route.path } : {}),
              children: this.routeTree(route.id),
            },
      );
  }

  chunkText(asset: string): string {
    let text = this.texts.get(asset);
    if (text === undefined) {
      text = readFileSync(path.join(this.clientDir, asset), 'utf8');
      this.texts.set(asset, text);
    }
    return text;
  }

  private gzipSize(asset: string): number {
    let size = this.gzipSizes.get(asset);
    if (size === undefined) {
      size = gzipSync(Buffer.from(this.chunkText(asset)), { level: 6 }).length;
      this.gzipSizes.set(asset, size);
    }
    return size;
  }

  private staticImportsOf(asset: string): string[] {
    return [...this.chunkText(asset).matchAll(/(?:from|import)\s*["'`](\.\/[^"'`]+\.js)["'`]/g)].map((match) =>
      assetOf(match[1] ?? ''),
    );
  }

  private dynamicImportsOf(asset: string): string[] {
    return [...this.chunkText(asset).matchAll(/import\(\s*["'`](\.\/[^"'`]+\.js)["'`]\s*\)/g)].map((match) =>
      assetOf(match[1] ?? ''),
    );
  }

  /** The chunks in `roots` and everything they import statically. */
  staticClosure(roots: Iterable<string>): Set<string> {
    const seen = new Set<string>();
    const queue = [...roots];
    for (let asset = queue.shift(); asset !== undefined; asset = queue.shift()) {
      if (seen.has(asset)) continue;
      seen.add(asset);
      queue.push(...this.staticImportsOf(asset));
    }
    return seen;
  }

  /** What `import()` in `loaded` would fetch besides what is already loaded (recursively). */
  lazyClosure(loaded: Set<string>): Set<string> {
    const lazy = new Set<string>();
    let frontier = [...loaded];
    while (frontier.length > 0) {
      const next: string[] = [];
      for (const asset of frontier) {
        for (const target of this.staticClosure(this.dynamicImportsOf(asset))) {
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

  sizesOf(assets: Iterable<string>): Sizes {
    let files = 0;
    let raw = 0;
    let gzip = 0;
    for (const asset of assets) {
      files += 1;
      raw += Buffer.byteLength(this.chunkText(asset));
      gzip += this.gzipSize(asset);
    }
    return { files, raw, gzip };
  }

  /** The route ids the router matches for `pathname`, outermost first. */
  matchedRoutes(pathname: string): string[] {
    return (matchRoutes(this.tree, pathname) ?? []).map((match) => match.route.id ?? '');
  }

  measure(pathname: string): PageReport {
    const routes = this.matchedRoutes(pathname);
    const page = routes.at(-1);
    if (page !== undefined && this.frameworkFree.has(page)) {
      const script = Buffer.from(PLAIN_PAGE_SCRIPT);
      const nothing = { files: 0, raw: 0, gzip: 0 };
      return {
        path: pathname,
        routes,
        frameworkFree: true,
        firstLoad: { files: 0, raw: script.length, gzip: gzipSync(script, { level: 6 }).length },
        lazy: nothing,
        chunks: [],
        editorChunks: [],
      };
    }
    const roots = [this.manifest.entry.module, ...this.manifest.entry.imports];
    for (const id of routes) {
      const route = this.manifest.routes[id];
      if (route) roots.push(...routeModules(route));
    }
    const firstLoad = this.staticClosure(roots);
    const lazy = this.lazyClosure(firstLoad);
    const chunks = [...firstLoad]
      .map((asset) => ({ asset, gzip: this.gzipSize(asset) }))
      .sort((a, b) => b.gzip - a.gzip);
    const editorChunks = [...firstLoad, ...lazy].filter((asset) => EDITOR_MARKERS.test(this.chunkText(asset)));
    return {
      path: pathname,
      routes,
      frameworkFree: false,
      firstLoad: this.sizesOf(firstLoad),
      lazy: this.sizesOf(lazy),
      chunks,
      editorChunks,
    };
  }

  /**
   * One sample path for every public page route (a route with a component, outside /admin):
   * each `:param` filled with a placeholder, optional segments left in, the splat given a path
   * no other route takes. Layout routes are covered through their children.
   */
  publicPagePaths(): { routeId: string; path: string }[] {
    const routes = this.manifest.routes;
    const hasChildren = new Set(Object.values(routes).map((route) => route.parentId));
    const fullPath = (route: ManifestRoute): string => {
      const parent = route.parentId ? routes[route.parentId] : undefined;
      const own = route.path ?? '';
      const prefix = parent ? fullPath(parent) : '';
      return [prefix, own].filter(Boolean).join('/');
    };
    return Object.values(routes)
      .filter((route) => route.hasDefaultExport !== false && !hasChildren.has(route.id) && !isAdminRoute(route, routes))
      .map((route) => {
        const pattern = fullPath(route);
        const sample = pattern
          .split('/')
          .filter(Boolean)
          .map((segment) =>
            segment === '*' ? 'no-such-page-for-the-budget-test' : segment.startsWith(':') ? 'sample' : segment,
          )
          .join('/');
        return { routeId: route.id, path: `/${sample}` };
      });
  }

  /** Every public route (not under the admin layout) whose chunks, loaded now or lazily, contain editor code. */
  publicRoutesWithEditorCode(): string[] {
    const violations: string[] = [];
    for (const route of Object.values(this.manifest.routes)) {
      if (isAdminRoute(route, this.manifest.routes)) continue;
      const loaded = this.staticClosure(routeModules(route));
      for (const asset of [...loaded, ...this.lazyClosure(loaded)]) {
        if (EDITOR_MARKERS.test(this.chunkText(asset))) violations.push(`${route.id} → ${asset}`);
      }
    }
    return violations;
  }
}

/** '/assets/x.js' for a chunk's relative import './x.js'. */
function assetOf(specifier: string): string {
  return `/assets/${specifier.replace(/^\.\//, '')}`;
}

/** A route's module and its split modules (client loader, client action, hydrate fallback, ...). */
function routeModules(route: ManifestRoute): string[] {
  const modules = [route.module, ...(route.imports ?? [])];
  for (const [key, value] of Object.entries(route)) {
    if (key !== 'module' && key.endsWith('Module') && typeof value === 'string') modules.push(value);
  }
  return modules;
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
