/**
 * axe-core in the page (the @axe-core/playwright wrapper needs Node 22). Pages send a CSP with
 * script nonces, so suites that use this set `test.use({ bypassCSP: true })`.
 */
import { createRequire } from 'node:module';
import { type Page, expect } from '@playwright/test';

const require = createRequire(import.meta.url);
const AXE_PATH = require.resolve('axe-core/axe.min.js');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/** Fails on serious or critical violations, listing them; prints minor and moderate ones. */
export async function expectNoSeriousAxeViolations(page: Page, label: string): Promise<void> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE_PATH });
  const violations = (await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: unknown[] }> } }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations;
  })) as AxeViolation[];
  const blocking = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const minor = violations.filter((v) => !blocking.includes(v));
  if (minor.length > 0) {
    console.log(
      `axe, minor/moderate on ${label}: ${minor.map((v) => `${v.id} (${v.impact}) ${JSON.stringify(v.nodes.map((n) => n.target))}`).join('; ')}`,
    );
  }
  const report = blocking
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `    ${JSON.stringify(n.target)}\n      ${n.failureSummary ?? ''}`).join('\n')}`,
    )
    .join('\n');
  expect(blocking, `axe violations on ${label}:\n${report}`).toEqual([]);
}
