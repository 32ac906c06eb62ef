import { createRequire } from 'node:module';
import { expect, test } from '@playwright/test';
import { gotoHydrated } from './support/page.ts';

const require = createRequire(import.meta.url);
const AXE_PATH = require.resolve('axe-core/axe.min.js');

// The pages send a CSP with script nonces, which would block the injected axe script.
test.use({ bypassCSP: true });

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

for (const url of ['/', '/service/instagram-followers']) {
  test(`axe finds no serious or critical violations on ${url}`, async ({ page }) => {
    await gotoHydrated(page, url);
    await page.addScriptTag({ path: AXE_PATH });
    const violations = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: unknown[] }> } }).axe;
      const result = await axe.run(document, { resultTypes: ['violations'] });
      return result.violations;
    }) as AxeViolation[];

    const blocking = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    const report = blocking
      .map(
        (v) =>
          `${v.id} (${v.impact}): ${v.help}\n` +
          v.nodes.map((n) => `    ${JSON.stringify(n.target)}${n.failureSummary ? `\n      ${n.failureSummary.replace(/\n/g, '\n      ')}` : ''}`).join('\n'),
      )
      .join('\n');
    const minor = violations.filter((v) => !blocking.includes(v));
    if (minor.length > 0) {
      // Not failures, but worth seeing in the run's output.
      console.log(
        `axe, minor/moderate on ${url}: ` +
          minor.map((v) => `${v.id} (${v.impact}) ${JSON.stringify(v.nodes.map((n) => n.target))}`).join('; '),
      );
    }
    expect(blocking, `axe violations on ${url}:\n${report}`).toEqual([]);
  });
}
