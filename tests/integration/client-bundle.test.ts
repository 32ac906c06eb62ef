/**
 * The browser bundle carries no database code: no Kysely, no PostgreSQL driver, none of db/.
 * The import-graph check (tests/unit/import-graph.test.ts) proves it of the sources; this proves
 * it of what the build actually wrote to build/client, which also covers what the bundler adds
 * on its own. `npm test` builds before Vitest (scripts/build-if-needed.mjs), so the build is here.
 *
 * Minifiers rename identifiers but keep string literals, so each library is recognised by strings
 * its own code is made of: Kysely by the `kind` of every node of its query tree ('RawNode' for
 * the smallest `sql` fragment, 'SelectQueryNode', …), read from the installed package itself;
 * pg by its SCRAM error text; db/ by its migrations' names and SQLite's pragmas.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { build } from 'vite';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const clientDir = path.join(root, process.env.BOOSTLY_BUILD_DIR ?? 'build', 'client');

function filesUnder(dir: string, pattern: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && pattern.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** `kind: 'SelectQueryNode'` and the like, from Kysely's own query-tree nodes. */
function kyselyMarkers(): string[] {
  const nodes = path.join(root, 'node_modules/kysely/dist/esm/operation-node');
  const kinds = filesUnder(nodes, /\.js$/).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/kind: '([A-Za-z]+Node)'/g)].map((match) => match[1] ?? ''),
  );
  return [...new Set(kinds)].sort();
}

/** The names db/migrate.ts lists its migrations under, and the pragmas db/database.ts sets. */
function dbMarkers(): string[] {
  const migrate = readFileSync(path.join(root, 'db/migrate.ts'), 'utf8');
  const names = [...migrate.matchAll(/'(\d{3}-[a-z-]+)':/g)].map((match) => match[1] ?? '');
  const database = readFileSync(path.join(root, 'db/database.ts'), 'utf8');
  const pragmas = [...database.matchAll(/pragma\('([^']+)'\)/g)].map((match) => match[1] ?? '');
  return [...names, ...pragmas];
}

const PG_MARKER = 'SCRAM-SERVER-FIRST-MESSAGE';

/**
 * The markers a text contains: Kysely's node kinds only as quoted strings (the minifier turns
 * quotes into backticks), the others anywhere.
 */
function markersIn(text: string, kysely: readonly string[], others: readonly string[]): string[] {
  const quotedKinds = kysely.filter((kind) =>
    ['"', "'", '`'].some((quote) => text.includes(`${quote}${kind}${quote}`)),
  );
  return [...quotedKinds, ...others.filter((marker) => text.includes(marker))];
}

describe('the client build', () => {
  const kysely = kyselyMarkers();
  const others = [...dbMarkers(), PG_MARKER];

  it('knows what database code looks like', () => {
    expect(kysely.length).toBeGreaterThan(50);
    expect(kysely).toEqual(expect.arrayContaining(['RawNode', 'SelectQueryNode', 'ValueNode']));
    expect(dbMarkers()).toEqual(expect.arrayContaining(['001-catalogue', 'journal_mode = WAL']));
    const pgSources = filesUnder(path.join(root, 'node_modules/pg/lib'), /\.js$/);
    expect(pgSources.some((file) => readFileSync(file, 'utf8').includes(PG_MARKER))).toBe(true);
    expect(markersIn('let m={"001-catalogue":c};', kysely, others)).toEqual(['001-catalogue']);
  });

  it('would find Kysely in a chunk that Vite built and minified the way it builds the store', async () => {
    // The smallest use there is: one `sql` fragment, bundled for the browser by Vite's own build.
    const entry = 'import { sql } from "kysely";\nconsole.log(sql`select 1`);\n';
    const result = await build({
      configFile: false,
      logLevel: 'silent',
      root,
      plugins: [
        {
          name: 'kysely-probe',
          resolveId: (id) => (id === 'kysely-probe' ? '\0kysely-probe' : null),
          load: (id) => (id === '\0kysely-probe' ? entry : null),
        },
      ],
      build: { write: false, minify: true, rollupOptions: { input: 'kysely-probe' } },
    });
    const outputs = (Array.isArray(result) ? result : [result]).flatMap((one) => ('output' in one ? one.output : []));
    const code = outputs.map((chunk) => (chunk.type === 'chunk' ? chunk.code : '')).join('\n');
    expect(markersIn(code, kysely, others)).toContain('RawNode');
  });

  it('has no Kysely, pg or db/ code in any browser asset', () => {
    expect(existsSync(clientDir), `no client build at ${clientDir}: run npx react-router build`).toBe(true);
    const assets = filesUnder(clientDir, /\.(js|mjs)$/);
    expect(assets.length).toBeGreaterThan(10);
    const found = assets.flatMap((file) =>
      markersIn(readFileSync(file, 'utf8'), kysely, others).map(
        (marker) => `${path.relative(clientDir, file)}: ${marker}`,
      ),
    );
    expect(found).toEqual([]);
  });
});
