/**
 * The import-graph check (`npm run check:imports`, scripts/support/import-graph.ts): small fixture
 * trees held in memory prove that it catches each kind of finding (a wrong-way import, a cycle, a
 * browser module reaching the database), and the real tree is measured to have none of them.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  COMPILER_OPTIONS,
  type GraphHost,
  type ImportGraph,
  buildImportGraph,
  checkImportGraph,
  clientGraphViolations,
  formatImportReport,
  importCycles,
  importsOfSource,
  sourceFiles,
  wrongWayImports,
} from '../../scripts/support/import-graph.ts';

const root = path.resolve(import.meta.dirname, '../..');
const fixtureRoot = '/fixture';

/** A graph of the given files (repository-relative path → source text), resolved in memory. */
function fixture(files: Record<string, string>): ImportGraph {
  const texts = new Map(Object.entries(files).map(([file, text]) => [path.posix.join(fixtureRoot, file), text]));
  const host: GraphHost = { readFile: (file) => texts.get(file), fileExists: (file) => texts.has(file) };
  return buildImportGraph(fixtureRoot, Object.keys(files), host);
}

/**
 * The graph of core/'s folders (core/orders, core/payments, …; files directly in core/ form
 * 'core'): a cycle here is a cycle between two domains, even when no single file loops.
 */
function coreFolderGraph(graph: ImportGraph): ImportGraph {
  const folderOf = (file: string): string | null => {
    const parts = file.split('/');
    if (parts[0] !== 'core') return null;
    return parts.length > 2 ? `core/${parts[1]}` : 'core';
  };
  const edges = graph.edges.flatMap((edge) => {
    const from = folderOf(edge.from);
    const to = edge.local ? folderOf(edge.to) : null;
    return from && to && from !== to ? [{ ...edge, from, to }] : [];
  });
  const folders = graph.files.map(folderOf).filter((folder) => folder !== null);
  return { files: [...new Set(folders)], edges };
}

const summary = (graph: ImportGraph) => formatImportReport(checkImportGraph(graph), graph).at(-1);

describe('reading imports', () => {
  it('sees every kind of import and nothing in comments or strings', () => {
    const text = [
      "// import { gone } from './commented.ts';",
      'const text = "import { no } from \'./string.ts\'";',
      "import { a } from './a.ts';",
      "import type { B } from './b.ts';",
      "import { type C } from './c.ts';",
      "export { d } from './d.ts';",
      "export type { E } from './e.ts';",
      "export * from './f.ts';",
      "const g = await import('./g.ts');",
      "type H = typeof import('./h.ts');",
      "import './i.css';",
      'export { a, g, text };',
      'export type { H };',
      '',
    ].join('\n');
    expect(importsOfSource('core/x.ts', text).map(({ specifier, typeOnly }) => [specifier, typeOnly])).toEqual([
      ['./a.ts', false],
      ['./b.ts', true],
      // Inline type specifiers only: verbatimModuleSyntax keeps the import for its side effects.
      ['./c.ts', false],
      ['./d.ts', false],
      ['./e.ts', true],
      ['./f.ts', false],
      ['./g.ts', false],
      ['./h.ts', true],
      ['./i.css', false],
    ]);
  });

  it("resolves relative paths and app/'s `~/` alias, and keeps packages by name", () => {
    const graph = fixture({
      'app/routes/home.tsx': "import { Nav } from '~/components/Nav.tsx';\nimport { useState } from 'react';\n",
      'app/components/Nav.tsx': "import { price } from '../../core/pricing.ts';\nexport const Nav = price;\n",
      'core/pricing.ts': 'export const price = 1;\n',
    });
    expect(graph.edges.map(({ from, to, local }) => [from, to, local])).toEqual([
      ['app/routes/home.tsx', 'app/components/Nav.tsx', true],
      ['app/routes/home.tsx', 'react', false],
      ['app/components/Nav.tsx', 'core/pricing.ts', true],
    ]);
    expect(summary(graph)).toBe('import graph: 3 files, 3 imports; wrong-way 0, cycles 0, client-graph 0');
  });
});

describe('(a) wrong-way imports', () => {
  it('finds a lower layer importing a higher one, a type import included', () => {
    const graph = fixture({
      'db/schema.ts': "import type { OrderStatus } from '../core/orders/status.ts';\nexport type S = OrderStatus;\n",
      'core/orders/status.ts': "export type OrderStatus = 'Pending';\n",
      'core/money.ts': "import { loadConfig } from '../server/config.ts';\nexport const m = loadConfig;\n",
      'server/config.ts': "import { bench } from '../scripts/bench.ts';\nexport const loadConfig = bench;\n",
      'scripts/bench.ts': "import { waitFor } from '../tests/support/wait-for.ts';\nexport const bench = waitFor;\n",
      'tests/support/wait-for.ts': 'export const waitFor = 1;\n',
    });
    expect(wrongWayImports(graph).map(({ from, to }) => `${from} → ${to}`)).toEqual([
      'db/schema.ts → core/orders/status.ts',
      'core/money.ts → server/config.ts',
      'server/config.ts → scripts/bench.ts',
      'scripts/bench.ts → tests/support/wait-for.ts',
    ]);
    expect(summary(graph)).toMatch(/wrong-way 4, cycles 0, client-graph 0$/);
  });

  it('lets every layer import the layers below it', () => {
    const graph = fixture({
      'scripts/admin.ts': "import { app } from '../server/app.ts';\nexport const a = app;\n",
      'server/app.ts':
        "import { page } from '../app/page.server.ts';\nimport { db } from '../db/database.ts';\nexport const app = [page, db];\n",
      'app/page.server.ts': "import { rule } from '../core/rule.ts';\nexport const page = rule;\n",
      'core/rule.ts': "import { db } from '../db/database.ts';\nexport const rule = db;\n",
      'db/database.ts': 'export const db = 1;\n',
    });
    expect(wrongWayImports(graph)).toEqual([]);
  });
});

describe('(b) import cycles', () => {
  it('finds a type-only cycle between two files, a longer loop and a file importing itself', () => {
    const graph = fixture({
      'db/schema.ts': "import type { Kind } from '../core/timeline.ts';\nexport type Row = { kind: Kind };\n",
      'core/timeline.ts': "import type { Row } from '../db/schema.ts';\nexport type Kind = Row['kind'] | 'x';\n",
      'core/a.ts': "import { b } from './b.ts';\nexport const a = () => b;\n",
      'core/b.ts': "import { c } from './c.ts';\nexport const b = () => c;\n",
      'core/c.ts': "export const c = async () => (await import('./a.ts')).a;\n",
      'core/self.ts': "export type { Self } from './self.ts';\nexport type Self = 1;\n",
      'core/leaf.ts': "import { a } from './a.ts';\nexport const leaf = a;\n",
    });
    expect(importCycles(graph)).toEqual([
      ['core/a.ts', 'core/b.ts', 'core/c.ts'],
      ['core/self.ts'],
      ['core/timeline.ts', 'db/schema.ts'],
    ]);
    const report = formatImportReport(checkImportGraph(graph), graph);
    expect(report).toContain('cycle: core/timeline.ts, db/schema.ts');
    expect(report).toContain('  db/schema.ts:1 imports the types of ../core/timeline.ts');
    expect(report.at(-1)).toMatch(/cycles 3, client-graph 0$/);
  });

  it('does not call a shared dependency a cycle', () => {
    const graph = fixture({
      'core/a.ts': "import { c } from './c.ts';\nimport { b } from './b.ts';\nexport const a = [b, c];\n",
      'core/b.ts': "import { c } from './c.ts';\nexport const b = c;\n",
      'core/c.ts': 'export const c = 1;\n',
    });
    expect(importCycles(graph)).toEqual([]);
  });
});

describe('cycles between the folders of core/', () => {
  it('finds two domains that import each other through different files', () => {
    const graph = fixture({
      'core/orders/orders.ts': "import { fulfil } from '../fulfilment/fulfil.ts';\nexport const orders = fulfil;\n",
      'core/fulfilment/fulfil.ts': 'export const fulfil = 1;\n',
      'core/fulfilment/refills.ts': "import { status } from '../orders/status.ts';\nexport const refills = status;\n",
      'core/orders/status.ts': 'export const status = 1;\n',
      'core/clock.ts': "import { status } from './orders/status.ts';\nexport const clock = status;\n",
    });
    expect(importCycles(graph)).toEqual([]);
    expect(importCycles(coreFolderGraph(graph))).toEqual([['core/fulfilment', 'core/orders']]);
  });
});

describe('(c) the client graph', () => {
  const tree = {
    'app/routes/admin/dashboard.tsx':
      "import { DASHBOARD_RANGES } from '../../../core/admin/dashboard.ts';\nexport default DASHBOARD_RANGES;\n",
    'core/admin/dashboard.ts':
      "import { sql } from 'kysely';\nimport { money } from '../money.ts';\nexport const DASHBOARD_RANGES = [7, sql, money];\n",
    'core/money.ts': "import { randomUUID } from 'node:crypto';\nexport const money = randomUUID;\n",
    'app/routes/orders.tsx':
      "import type { Orders } from '../../core/orders.ts';\nimport { statuses } from '../../core/status.ts';\nexport type O = Orders;\nexport default statuses;\n",
    'core/orders.ts':
      "import { Kysely } from 'kysely';\nexport type Orders = Kysely<object>;\nexport const k = Kysely;\n",
    'core/status.ts':
      "import { ORDER_STATUSES } from '../db/column-values.ts';\nexport const statuses = ORDER_STATUSES;\n",
    'db/column-values.ts': "export const ORDER_STATUSES = ['Pending'] as const;\n",
    'app/routes/blog/data.server.ts':
      "import { openDatabase } from '../../../db/database.ts';\nimport { readFile } from 'node:fs/promises';\nexport const data = [openDatabase, readFile];\n",
    'app/routes/blog/index.tsx': "import { data } from './data.server.ts';\nexport const loader = () => data;\n",
    'db/database.ts': "import pg from 'pg';\nexport const openDatabase = pg;\n",
  };

  it('finds a browser module that reaches Kysely, Node or the database through value imports', () => {
    const found = clientGraphViolations(fixture(tree)).map(({ edge, via }) => `${edge.to} ← ${via.join(' → ')}`);
    expect(found).toEqual([
      'kysely ← app/routes/admin/dashboard.tsx → core/admin/dashboard.ts',
      'node:crypto ← app/routes/admin/dashboard.tsx → core/admin/dashboard.ts → core/money.ts',
    ]);
    expect(summary(fixture(tree))).toMatch(/client-graph 2$/);
  });

  it('ignores type imports and *.server.* modules, and lets the browser read db/column-values.ts alone', () => {
    const safe = { ...tree, 'core/admin/dashboard.ts': 'export const DASHBOARD_RANGES = [7, 30, 90];\n' };
    expect(clientGraphViolations(fixture(safe))).toEqual([]);
  });

  it('finds an app/ module importing db/ or server/ directly, and db/column-values.ts importing anything', () => {
    const graph = fixture({
      'app/root.tsx':
        "import { openDatabase } from '../db/database.ts';\nimport { c } from '../core/c.ts';\nexport default [openDatabase, c];\n",
      'core/c.ts':
        "import { ORDER_STATUSES } from '../db/column-values.ts';\nimport { config } from '../server/config.ts';\nexport const c = [ORDER_STATUSES, config];\n",
      'db/column-values.ts':
        "import type { Kysely } from 'kysely';\nexport type K = Kysely<object>;\nexport const ORDER_STATUSES = [] as const;\n",
      'db/database.ts': 'export const openDatabase = 1;\n',
      'server/config.ts': 'export const config = 1;\n',
    });
    expect(clientGraphViolations(graph).map(({ edge }) => `${edge.from} → ${edge.to}`)).toEqual([
      'app/root.tsx → db/database.ts',
      'core/c.ts → server/config.ts',
      'db/column-values.ts → kysely',
    ]);
  });
});

describe('the tree', () => {
  it('resolves imports the way tsconfig.json does (its path aliases)', () => {
    const tsconfig = JSON.parse(readFileSync(path.join(root, 'tsconfig.json'), 'utf8')) as {
      compilerOptions: { paths: Record<string, string[]>; moduleResolution: string };
    };
    expect(COMPILER_OPTIONS.paths).toEqual(tsconfig.compilerOptions.paths);
    expect(tsconfig.compilerOptions.moduleResolution).toBe('bundler');
  });

  it('has no wrong-way import, no cycle and no browser module that reaches the database', () => {
    const files = sourceFiles(root);
    expect(files.filter((file) => file.startsWith('db/')).length).toBeGreaterThan(20);
    expect(files).toContain('app/routes/admin/dashboard.tsx');
    // The suites' own files too: a cycle among test helpers is as hard to follow as any other.
    expect(files).toContain('tests/support/app.ts');
    const graph = buildImportGraph(root, files);
    expect(graph.edges.length).toBeGreaterThan(files.length * 2);
    const report = checkImportGraph(graph);
    const lines = formatImportReport(report, graph);
    console.info(lines.at(-1));
    expect(lines.slice(0, -1)).toEqual([]);
    expect([report.wrongWay.length, report.cycles.length, report.clientGraph.length]).toEqual([0, 0, 0]);
  });

  it('has no cycle between the folders of core/', () => {
    const graph = coreFolderGraph(buildImportGraph(root, sourceFiles(root, ['core'])));
    expect(graph.files.length).toBeGreaterThan(10);
    expect(graph.edges.length).toBeGreaterThan(50);
    expect(importCycles(graph)).toEqual([]);
  });
});
