/**
 * The lint configuration is itself code that can rot: a renamed plugin option or a dropped zone
 * would let layer violations and floating promises through while `npm run lint` stays
 * green. Each case lints a small text as if it were a file in the tree and expects the rule.
 */
import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { LAYERS, LAYER_RULES, type Layer } from '../../scripts/support/import-graph.ts';

const root = path.resolve(import.meta.dirname, '../..');
let eslint: ESLint;

async function rulesFor(filePath: string, text: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath: path.join(root, filePath) });
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

describe('lint rules that encode our layers and habits', () => {
  // The first lint builds the TypeScript program for the type-aware rules: tens of seconds on a
  // busy 2-core machine. Done once here, with room, so no single case carries that cost.
  beforeAll(async () => {
    eslint = new ESLint({ cwd: root });
    await eslint.lintText('export {};\n', { filePath: path.join(root, 'core/money/money.ts') });
  }, 180_000);

  /** A file of each layer that imports, and a module of each layer to import with one of its names. */
  const importer: Record<Layer, string> = {
    db: 'db/database.ts',
    core: 'core/money/money.ts',
    app: 'app/selection.ts',
    server: 'server/security.ts',
    scripts: 'scripts/bench.ts',
    tests: 'tests/support/wait-for.ts',
  };
  const imported: Record<Layer, { file: string; name: string }> = {
    db: { file: 'db/database.ts', name: 'openDatabase' },
    core: { file: 'core/money/money.ts', name: 'formatAmountE4' },
    app: { file: 'app/selection.ts', name: 'selectService' },
    server: { file: 'server/config.ts', name: 'loadConfig' },
    scripts: { file: 'scripts/support/child-process.ts', name: 'freePort' },
    tests: { file: 'tests/support/wait-for.ts', name: 'waitFor' },
  };
  const importText = (from: string, to: Layer): string => {
    const { file, name } = imported[to];
    const specifier = path.posix.relative(path.posix.dirname(from), file);
    return `import { ${name} } from '${specifier.startsWith('.') ? specifier : `./${specifier}`}';\nexport const x = ${name};\n`;
  };
  // Every zone and every layer it forbids, from the same table the import-graph check uses.
  const forbidden = LAYERS.flatMap((layer) => LAYER_RULES[layer].map((from) => [layer, from] as const));

  it('has a case for every forbidden pair, db/ importing core/ among them', () => {
    expect(forbidden).toContainEqual(['db', 'core']);
    expect(forbidden).toHaveLength(16);
  });

  it.each(forbidden)('%s/ may not import %s/', async (layer, from) => {
    expect(await rulesFor(importer[layer], importText(importer[layer], from))).toContain(
      'import-x/no-restricted-paths',
    );
  });

  it("says exactly what the import-graph check's layer table says", async () => {
    const config = (await eslint.calculateConfigForFile(path.join(root, 'core/money/money.ts'))) as {
      rules: Record<string, [unknown, { zones: { target: string; from: string[] }[] }]>;
    };
    const zones = config.rules['import-x/no-restricted-paths']?.[1].zones ?? [];
    const fromZones = Object.fromEntries(
      zones.map((zone) => [zone.target.replace('./', ''), zone.from.map((from) => from.replace('./', '')).sort()]),
    );
    const fromTable = Object.fromEntries(
      LAYERS.filter((layer) => LAYER_RULES[layer].length > 0).map((layer) => [layer, [...LAYER_RULES[layer]].sort()]),
    );
    expect(fromZones).toEqual(fromTable);
  });

  it('allows the downward imports: app/ uses core/, core/ uses db/, server/ uses everything below it', async () => {
    expect(await rulesFor(importer.core, importText(importer.core, 'db'))).not.toContain(
      'import-x/no-restricted-paths',
    );
    expect(
      await rulesFor(
        'app/selection.ts',
        "import { orderPath } from '../core/catalogue/order-path.ts';\nexport const o = orderPath;\n",
      ),
    ).not.toContain('import-x/no-restricted-paths');
    expect(
      await rulesFor(
        'server/security.ts',
        "import { openDatabase } from '../db/database.ts';\nexport const o = openDatabase;\n",
      ),
    ).not.toContain('import-x/no-restricted-paths');
  });

  it('flags a promise nobody awaits and an async callback where a void one is expected', async () => {
    const text = [
      'async function save(): Promise<void> {}',
      'export function handler(): void {',
      '  save();',
      '  [1, 2].forEach(async () => { await save(); });',
      '}',
      '',
    ].join('\n');
    const rules = await rulesFor('core/money/money.ts', text);
    expect(rules).toContain('@typescript-eslint/no-floating-promises');
    expect(rules).toContain('@typescript-eslint/no-misused-promises');
  });

  it('flags a switch over a union that misses a case', async () => {
    const text = [
      "type Status = 'paid' | 'unpaid' | 'refunded';",
      'export function label(status: Status): string {',
      '  switch (status) {',
      "    case 'paid': return 'Paid';",
      "    case 'unpaid': return 'Unpaid';",
      '  }',
      "  return '';",
      '}',
      '',
    ].join('\n');
    expect(await rulesFor('core/money/money.ts', text)).toContain('@typescript-eslint/switch-exhaustiveness-check');
  });

  it('refuses a disable comment that gives no reason', async () => {
    const text = [
      '// eslint-disable-next-line eqeqeq',
      'export const same = (a: number, b: number) => a == b;',
      '',
    ].join('\n');
    expect(await rulesFor('core/money/money.ts', text)).toContain(
      '@eslint-community/eslint-comments/require-description',
    );
  });

  it('holds components to the hooks rules and accessibility', async () => {
    const text = [
      "import { useState } from 'react';",
      'export function Widget({ show }: { show: boolean }) {',
      '  if (show) {',
      '    const [open] = useState(false);',
      '    return <img src="/x.png" data-open={open} />;',
      '  }',
      '  return null;',
      '}',
      '',
    ].join('\n');
    const rules = await rulesFor('app/components/Spinner.tsx', text);
    expect(rules).toContain('react-hooks/rules-of-hooks');
    expect(rules).toContain('jsx-a11y/alt-text');
  });
});
