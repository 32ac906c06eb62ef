/**
 * The lint configuration is itself code that can rot: a renamed plugin option or a dropped zone
 * would let layer violations, cycles and floating promises through while `npm run lint` stays
 * green. Each case lints a small text as if it were a file in the tree and expects the rule.
 */
import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

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

  it.each([
    [
      'core/',
      'core/money/money.ts',
      "import { loadConfig } from '../../server/config.ts';\nexport const c = loadConfig;\n",
    ],
    [
      'core/',
      'core/money/money.ts',
      "import { selectService } from '../../app/selection.ts';\nexport const s = selectService;\n",
    ],
    ['db/', 'db/database.ts', "import { loadConfig } from '../server/config.ts';\nexport const c = loadConfig;\n"],
    ['app/', 'app/selection.ts', "import { openDatabase } from '../db/database.ts';\nexport const o = openDatabase;\n"],
    ['app/', 'app/selection.ts', "import { buildApp } from '../server/app.ts';\nexport const b = buildApp;\n"],
    ['server/', 'server/security.ts', "import { x } from '../scripts/bench.ts';\nexport const y = x;\n"],
  ])('%s may not import a higher layer (%s)', async (_layer, filePath, text) => {
    expect(await rulesFor(filePath, text)).toContain('import-x/no-restricted-paths');
  });

  it('allows the downward imports: app/ uses core/, server/ uses everything below it', async () => {
    expect(
      await rulesFor(
        'app/selection.ts',
        "import { orderPath } from '../core/catalog/order-path.ts';\nexport const o = orderPath;\n",
      ),
    ).not.toContain('import-x/no-restricted-paths');
    expect(
      await rulesFor(
        'server/security.ts',
        "import { openDatabase } from '../db/database.ts';\nexport const o = openDatabase;\n",
      ),
    ).not.toContain('import-x/no-restricted-paths');
  });

  it('finds an import cycle', async () => {
    // core/catalog/pricing.ts imports core/money/money.ts; importing it back closes the loop.
    const text = "import { formatHomePrice } from '../catalog/pricing.ts';\nexport const f = formatHomePrice;\n";
    expect(await rulesFor('core/money/money.ts', text)).toContain('import-x/no-cycle');
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
