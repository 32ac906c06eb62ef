/**
 * The import check, measured on the files themselves rather than through ESLint's configuration
 * (tests/unit/code-rules.test.ts proves the lint rules fire; this proves the tree obeys them):
 *
 * - no file under core/ or db/ imports a higher layer (server/, app/, scripts/) or tests/;
 * - the folders of core/ (core/orders, core/payments, …) import each other without a cycle.
 *
 * Imports are read with TypeScript's own pre-processor (static imports, re-exports, dynamic
 * `import()`, type-only imports too: a type import still ties two folders together), so comments
 * and strings cannot fool it. The counts are printed so a run shows what was measured.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const LOWER_LAYERS = ['core', 'db'] as const;
const FORBIDDEN_TARGETS = ['server', 'app', 'scripts', 'tests'] as const;

interface ImportEdge {
  /** Repository-relative, with '/' separators. */
  from: string;
  to: string;
  specifier: string;
}

function sourceFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) found.push(...sourceFiles(relative));
    else if (/\.(ts|tsx|mts|js|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) found.push(relative);
  }
  return found;
}

/** The relative imports of a file, resolved to repository paths (packages are left out). */
function importsOf(file: string): ImportEdge[] {
  const text = readFileSync(path.join(root, file), 'utf8');
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return importedFiles
    .map((imported) => imported.fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => ({
      from: file,
      to: path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)),
      specifier,
    }));
}

/** 'core/orders/orders.ts' → 'core/orders'; files directly in core/ form the folder 'core'. */
function coreFolderOf(file: string): string | null {
  const parts = file.split('/');
  if (parts[0] !== 'core') return null;
  return parts.length > 2 ? `core/${parts[1]}` : 'core';
}

/** Strongly connected components with more than one folder (Tarjan): each is a cycle. */
function cyclesOf(graph: Map<string, Set<string>>): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];

  const visit = (node: string): void => {
    indexOf.set(node, index);
    lowLink.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indexOf.has(next)) {
        visit(next);
        lowLink.set(node, Math.min(lowLink.get(node) ?? 0, lowLink.get(next) ?? 0));
      } else if (onStack.has(next)) {
        lowLink.set(node, Math.min(lowLink.get(node) ?? 0, indexOf.get(next) ?? 0));
      }
    }
    if (lowLink.get(node) === indexOf.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!indexOf.has(node)) visit(node);
  return components;
}

const files = LOWER_LAYERS.flatMap((layer) => sourceFiles(layer));
const edges = files.flatMap(importsOf);

describe('the import check', () => {
  it('finds the files it measures', () => {
    expect(files.some((file) => file.startsWith('core/'))).toBe(true);
    expect(files.some((file) => file.startsWith('db/'))).toBe(true);
    expect(edges.length).toBeGreaterThan(files.length / 2);
  });

  it('core/ and db/ never import server/, app/, scripts/ or tests/', () => {
    const violations = edges.filter((edge) =>
      FORBIDDEN_TARGETS.some((layer) => edge.to === layer || edge.to.startsWith(`${layer}/`)),
    );
    console.info(
      `import check: ${files.length} files in core/ and db/, ${edges.length} relative imports, ` +
        `${violations.length} into a higher layer`,
    );
    expect(violations.map((edge) => `${edge.from} imports ${edge.specifier} (${edge.to})`)).toEqual([]);
  });

  it('the folders of core/ import each other without a cycle', () => {
    const graph = new Map<string, Set<string>>();
    /** For the report: the imports behind each folder-to-folder edge. */
    const behind = new Map<string, ImportEdge[]>();
    for (const edge of edges) {
      const from = coreFolderOf(edge.from);
      const to = coreFolderOf(edge.to);
      if (!from || !to || from === to) continue;
      if (!graph.has(from)) graph.set(from, new Set());
      graph.get(from)?.add(to);
      behind.set(`${from}→${to}`, [...(behind.get(`${from}→${to}`) ?? []), edge]);
    }
    const folderEdges = [...graph.values()].reduce((sum, targets) => sum + targets.size, 0);
    const cycles = cyclesOf(graph);
    const report = cycles.map((members) => {
      const inside = members.flatMap((from) =>
        [...(graph.get(from) ?? [])]
          .filter((to) => members.includes(to))
          .flatMap((to) => [
            `  ${from} → ${to}:`,
            ...(behind.get(`${from}→${to}`) ?? []).map((edge) => `    ${edge.from} imports ${edge.specifier}`),
          ]),
      );
      return [`cycle between ${members.join(', ')}:`, ...inside].join('\n');
    });
    console.info(
      `import check: ${graph.size} core/ folders import others, ${folderEdges} folder-to-folder edges, ` +
        `${cycles.length} cycle(s)${report.length > 0 ? `\n${report.join('\n')}` : ''}`,
    );
    expect(report).toEqual([]);
  });

  it('would see a cycle and a layer violation (the checker checks)', () => {
    const graph = new Map([
      ['core/a', new Set(['core/b'])],
      ['core/b', new Set(['core/c'])],
      ['core/c', new Set(['core/a'])],
      ['core/d', new Set(['core/a'])],
    ]);
    expect(cyclesOf(graph)).toEqual([['core/a', 'core/b', 'core/c']]);
    expect(coreFolderOf('core/clock.ts')).toBe('core');
    expect(coreFolderOf('core/orders/status.ts')).toBe('core/orders');
    const text = "// import x from '../../server/app.ts';\nimport { y } from '../../server/config.ts';\n";
    const found = ts.preProcessFile(text, true, true).importedFiles.map((imported) => imported.fileName);
    expect(found).toEqual(['../../server/config.ts']);
  });
});
