/**
 * The store's import graph, read with the TypeScript compiler API, and the three rules it must
 * obey (CONTRIBUTING.md, "Layers"):
 *
 * - wrong-way imports: a layer imports only the layers below it (the same table as ESLint's
 *   `layerZones` in eslint.config.js, which a unit test holds equal to LAYER_RULES);
 * - cycles: no two files import each other, directly or round a loop, type imports included (a
 *   type import still ties the two files' meanings together);
 * - the client graph: nothing the browser may load imports the database, the server or Node.
 *
 * `scripts/import-graph.ts` runs it on the tree (`npm run check:imports`);
 * `tests/unit/import-graph.test.ts` runs it on small fixture graphs and on the tree.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import ts from 'typescript';

export const LAYERS = ['scripts', 'server', 'app', 'core', 'db', 'tests'] as const;
export type Layer = (typeof LAYERS)[number];

/** The folders whose tracked .ts/.tsx files the check reads. */
export const CHECKED_FOLDERS: readonly Layer[] = ['app', 'core', 'db', 'server', 'scripts', 'tests'];

/**
 * For each layer, the layers it must never import. The order is scripts → server → app → core →
 * db; app/ is bundled for the browser, so it never reaches db/ or server/; nothing imports tests/.
 */
export const LAYER_RULES: Readonly<Record<Layer, readonly Layer[]>> = {
  db: ['core', 'server', 'app', 'scripts', 'tests'],
  core: ['server', 'app', 'scripts', 'tests'],
  app: ['db', 'server', 'scripts', 'tests'],
  server: ['scripts', 'tests'],
  scripts: ['tests'],
  tests: [],
};

/**
 * The one db/ module the browser may load: the values a status column may hold (the admin's
 * filters list them). Plain literals, so it must import nothing; the check holds it to that.
 */
export const BROWSER_SAFE_DB_MODULES: readonly string[] = ['db/column-values.ts'];

/** Packages that only run on the server: a browser module importing one drags it into the bundle. */
export const SERVER_ONLY_PACKAGES = ['kysely', 'pg', 'better-sqlite3'] as const;

export interface ImportEdge {
  /** The importing file, repository-relative with '/' separators. */
  from: string;
  /**
   * A repository file (repository-relative) when the specifier resolves to one of ours, otherwise
   * the specifier itself (a package or a Node built-in).
   */
  to: string;
  specifier: string;
  /** True when `to` is one of our files rather than a package. */
  local: boolean;
  /** `import type`, `export type … from` and `import('…')` in a type position: erased from the output. */
  typeOnly: boolean;
  line: number;
}

export interface ImportGraph {
  /** The files read, repository-relative. */
  files: readonly string[];
  edges: readonly ImportEdge[];
}

export interface FoundImport {
  specifier: string;
  typeOnly: boolean;
  line: number;
}

/**
 * Every import of one source text: static imports, `export … from`, `import x = require()`,
 * dynamic `import()` and `import('…')` types. An `import { type A }` with only inline type
 * specifiers stays a value import: `verbatimModuleSyntax` keeps it as a side-effect import.
 */
export function importsOfSource(fileName: string, text: string): FoundImport[] {
  const kind = fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
  const found: FoundImport[] = [];
  const add = (literal: ts.Expression | undefined, typeOnly: boolean): void => {
    if (!literal || !ts.isStringLiteralLike(literal)) return;
    const { line } = source.getLineAndCharacterOfPosition(literal.getStart(source));
    found.push({ specifier: literal.text, typeOnly, line: line + 1 });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      add(node.moduleSpecifier, node.importClause?.isTypeOnly ?? false);
    } else if (ts.isExportDeclaration(node)) {
      add(node.moduleSpecifier, node.isTypeOnly);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression, node.isTypeOnly);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node.arguments[0], false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** What resolving needs from the file system; an in-memory one builds fixture graphs. */
export interface GraphHost {
  readFile(file: string): string | undefined;
  fileExists(file: string): boolean;
}

export const diskHost: GraphHost = {
  readFile: (file) => (existsSync(file) ? readFileSync(file, 'utf8') : undefined),
  fileExists: (file) => existsSync(file),
};

/**
 * The store's module resolution, as tsconfig.json sets it (tests/unit/import-graph.test.ts
 * compares them): bundler-style, `.ts` extensions allowed, `~/` for app/.
 */
export const COMPILER_OPTIONS: ts.CompilerOptions = {
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  allowImportingTsExtensions: true,
  resolveJsonModule: true,
  jsx: ts.JsxEmit.ReactJSX,
  paths: { '~/*': ['./app/*'] },
};

/** Builds the graph of `files` (repository-relative) under `root`. */
export function buildImportGraph(root: string, files: readonly string[], host: GraphHost = diskHost): ImportGraph {
  const options: ts.CompilerOptions = { ...COMPILER_OPTIONS, baseUrl: root };
  const cache = ts.createModuleResolutionCache(root, (name) => name, options);
  const edges: ImportEdge[] = [];
  for (const file of files) {
    const absolute = path.join(root, file);
    const text = host.readFile(absolute);
    if (text === undefined) throw new Error(`import graph: cannot read ${file}`);
    for (const found of importsOfSource(file, text)) {
      const { resolvedModule } = ts.resolveModuleName(found.specifier, absolute, options, host, cache);
      const resolved = resolvedModule?.resolvedFileName;
      const relative = resolved === undefined ? undefined : toPosix(path.relative(root, resolved));
      const isOurs =
        relative !== undefined &&
        !resolvedModule?.isExternalLibraryImport &&
        !relative.startsWith('..') &&
        !relative.split('/').includes('node_modules');
      if (isOurs) {
        edges.push({ from: file, to: relative, specifier: found.specifier, local: true, ...typeAndLine(found) });
      } else if (found.specifier.startsWith('.')) {
        // An asset (`./x.css?url`) or a file that does not exist: its path still says its layer.
        const target = path.posix.normalize(
          path.posix.join(path.posix.dirname(file), found.specifier.split('?')[0] ?? ''),
        );
        edges.push({ from: file, to: target, specifier: found.specifier, local: true, ...typeAndLine(found) });
      } else {
        edges.push({
          from: file,
          to: found.specifier,
          specifier: found.specifier,
          local: false,
          ...typeAndLine(found),
        });
      }
    }
  }
  return { files: [...files], edges };
}

const typeAndLine = (found: FoundImport) => ({ typeOnly: found.typeOnly, line: found.line });
const toPosix = (file: string) => file.split(path.sep).join('/');

/**
 * The .ts/.tsx files of the checked folders that git tracks or would track (new files count
 * before their first commit; ignored ones such as build output do not).
 */
export function sourceFiles(root: string, folders: readonly string[] = CHECKED_FOLDERS): string[] {
  const listed = execFileSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', ...folders],
    {
      cwd: root,
      encoding: 'utf8',
    },
  );
  return listed
    .split('\0')
    .filter((file) => /\.(ts|tsx|mts)$/.test(file) && !file.endsWith('.d.ts') && existsSync(path.join(root, file)))
    .sort();
}

export function layerOf(file: string): Layer | null {
  const top = file.split('/')[0];
  return LAYERS.find((layer) => layer === top) ?? null;
}

/** An edge that points up a layer (or into tests/). */
export function wrongWayImports(graph: ImportGraph): ImportEdge[] {
  return graph.edges.filter((edge) => {
    if (!edge.local) return false;
    const from = layerOf(edge.from);
    const to = layerOf(edge.to);
    return from !== null && to !== null && LAYER_RULES[from].includes(to);
  });
}

/**
 * File-level import cycles, type imports included: the strongly connected components of more than
 * one file (Tarjan's algorithm), and a file importing itself. Each is sorted; the list is sorted.
 */
export function importCycles(graph: ImportGraph): string[][] {
  const known = new Set(graph.files);
  const next = new Map<string, Set<string>>();
  for (const edge of graph.edges) {
    if (!edge.local || !known.has(edge.to)) continue;
    const targets = next.get(edge.from) ?? new Set<string>();
    targets.add(edge.to);
    next.set(edge.from, targets);
  }
  let counter = 0;
  const indexOf = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  // Iterative, so a long chain of imports cannot overflow the call stack.
  for (const start of [...known].sort()) {
    if (indexOf.has(start)) continue;
    const work: { node: string; targets: string[]; position: number }[] = [];
    const enter = (node: string): void => {
      indexOf.set(node, counter);
      lowLink.set(node, counter);
      counter += 1;
      stack.push(node);
      onStack.add(node);
      work.push({ node, targets: [...(next.get(node) ?? [])].sort(), position: 0 });
    };
    enter(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      if (frame === undefined) break;
      const target = frame.targets[frame.position];
      if (target !== undefined) {
        frame.position += 1;
        if (!indexOf.has(target)) enter(target);
        else if (onStack.has(target))
          lowLink.set(frame.node, Math.min(lowLink.get(frame.node) ?? 0, indexOf.get(target) ?? 0));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) lowLink.set(parent.node, Math.min(lowLink.get(parent.node) ?? 0, lowLink.get(frame.node) ?? 0));
      if (lowLink.get(frame.node) !== indexOf.get(frame.node)) continue;
      const component: string[] = [];
      for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
        onStack.delete(member);
        component.push(member);
        if (member === frame.node) break;
      }
      if (component.length > 1 || next.get(frame.node)?.has(frame.node)) components.push(component.sort());
    }
  }
  return components.sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''));
}

/** A file React Router and Vite keep out of the browser bundle by its name. */
export const isServerOnlyModule = (file: string): boolean => /\.server(\.[cm]?[jt]sx?$|\/)/.test(file);

export interface ClientGraphViolation {
  edge: ImportEdge;
  /** How the browser reaches the importing file: an app/ module first, the importing file last. */
  via: string[];
}

/** Whether a browser module may not make this import. */
function forbiddenInBrowser(edge: ImportEdge): boolean {
  if (BROWSER_SAFE_DB_MODULES.includes(edge.from)) return true;
  if (edge.typeOnly) return false;
  if (edge.local) {
    const layer = layerOf(edge.to);
    return (layer === 'db' && !BROWSER_SAFE_DB_MODULES.includes(edge.to)) || layer === 'server';
  }
  const name = edge.to;
  return (
    name.startsWith('node:') ||
    isBuiltin(name) ||
    SERVER_ONLY_PACKAGES.some((server) => name === server || name.startsWith(`${server}/`))
  );
}

/**
 * Imports of the database, the server or Node made by any module the browser side of app/ reaches.
 * Every app/ file not named `*.server.*` counts as browser code (strict: route modules' loaders are
 * stripped from the client build, but their imports are followed here all the same). The walk
 * follows value imports, not into `*.server.*` files; type imports are erased by the build, so
 * they neither carry a module into the bundle nor count here (cycles count them).
 */
export function clientGraphViolations(graph: ImportGraph): ClientGraphViolation[] {
  const known = new Set(graph.files);
  const byFile = new Map<string, ImportEdge[]>();
  for (const edge of graph.edges) byFile.set(edge.from, [...(byFile.get(edge.from) ?? []), edge]);
  const reachedFrom = new Map<string, string | null>();
  const queue = graph.files.filter((file) => layerOf(file) === 'app' && !isServerOnlyModule(file)).sort();
  for (const file of queue) reachedFrom.set(file, null);
  for (let index = 0; index < queue.length; index += 1) {
    const file = queue[index];
    if (file === undefined) break;
    for (const edge of byFile.get(file) ?? []) {
      if (edge.typeOnly || !edge.local || !known.has(edge.to) || reachedFrom.has(edge.to)) continue;
      if (isServerOnlyModule(edge.to)) continue;
      reachedFrom.set(edge.to, file);
      queue.push(edge.to);
    }
  }
  const violations: ClientGraphViolation[] = [];
  for (const file of queue) {
    for (const edge of byFile.get(file) ?? []) {
      if (!forbiddenInBrowser(edge)) continue;
      const via: string[] = [];
      for (let step: string | null | undefined = file; step; step = reachedFrom.get(step)) via.unshift(step);
      violations.push({ edge, via });
    }
  }
  return violations;
}

export interface ImportReport {
  files: number;
  edges: number;
  wrongWay: ImportEdge[];
  cycles: string[][];
  clientGraph: ClientGraphViolation[];
}

export function checkImportGraph(graph: ImportGraph): ImportReport {
  return {
    files: graph.files.length,
    edges: graph.edges.length,
    wrongWay: wrongWayImports(graph),
    cycles: importCycles(graph),
    clientGraph: clientGraphViolations(graph),
  };
}

const describeEdge = (edge: ImportEdge): string =>
  `${edge.from}:${edge.line} ${edge.typeOnly ? 'imports the types of' : 'imports'} ${edge.specifier}`;

/** The findings, one per line, then the one summary line. */
export function formatImportReport(report: ImportReport, graph: ImportGraph): string[] {
  const lines: string[] = [];
  for (const edge of report.wrongWay) {
    lines.push(`wrong way: ${describeEdge(edge)} (${layerOf(edge.from)}/ may not import ${layerOf(edge.to)}/)`);
  }
  for (const cycle of report.cycles) {
    const members = new Set(cycle);
    lines.push(`cycle: ${cycle.join(', ')}`);
    for (const edge of graph.edges) {
      if (edge.local && members.has(edge.from) && members.has(edge.to)) lines.push(`  ${describeEdge(edge)}`);
    }
  }
  for (const { edge, via } of report.clientGraph) {
    lines.push(`client graph: ${describeEdge(edge)} (reached from the browser by ${via.join(' → ')})`);
  }
  lines.push(
    `import graph: ${report.files} files, ${report.edges} imports; wrong-way ${report.wrongWay.length}, ` +
      `cycles ${report.cycles.length}, client-graph ${report.clientGraph.length}`,
  );
  return lines;
}
