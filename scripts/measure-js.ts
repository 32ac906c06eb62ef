/**
 * How much JavaScript a page loads, from the production build (`npm run build` first):
 *
 *   node --import tsx scripts/measure-js.ts [--json] [path ...]
 *
 * Without paths it measures one sample path per public page route (every route with a
 * component outside /admin) and the admin blog editor pages. For each path it matches the
 * build's route manifest the way the router does and sums the modules the browser fetches on a
 * first visit (scripts/first-load-js.ts). Sizes are gzip (level 6, what @fastify/compress sends)
 * and raw; chunks imported later with `import()` are reported separately as "+ lazy". A public
 * page over the 120 KB budget is marked "OVER" with its largest chunks. A page without framework
 * JavaScript (app/page-handle.ts) shows its inline plain script only.
 *
 * It also checks the rule of decision 021: no chunk a public (non-admin) route loads, statically
 * or lazily, contains Tiptap or ProseMirror. A violation exits with status 1; so does a public
 * page over budget (tests/e2e/js-budget.spec.ts checks the same in `npm test`, decision 036).
 */
import { ClientBuild, FIRST_LOAD_BUDGET_BYTES, frameworkFreeRouteIds, kb } from './first-load-js.ts';

const ADMIN_SAMPLES = ['/admin/blog', '/admin/blog/add'];

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  const paths = args.filter((arg) => arg !== '--json');
  const build = new ClientBuild(undefined, await frameworkFreeRouteIds());
  const chosen = paths.length > 0 ? paths : [...build.publicPagePaths().map((page) => page.path), ...ADMIN_SAMPLES];
  const reports = chosen.map((pathname) => build.measure(pathname));
  const isPublic = (routes: string[]) => !routes.some((id) => id.startsWith('routes/admin/'));
  const overBudget = reports.filter(
    (report) => isPublic(report.routes) && report.firstLoad.gzip > FIRST_LOAD_BUDGET_BYTES,
  );
  const violations = build.publicRoutesWithEditorCode();

  if (json) {
    console.log(
      JSON.stringify(
        { budgetBytes: FIRST_LOAD_BUDGET_BYTES, pages: reports, publicRoutesWithEditorCode: violations },
        null,
        2,
      ),
    );
  } else {
    console.log(
      `First-load JavaScript per page (gzip level 6; raw in brackets); budget ${kb(FIRST_LOAD_BUDGET_BYTES)}\n`,
    );
    const width = Math.max(...reports.map((report) => report.path.length)) + 2;
    for (const report of reports) {
      const lazy =
        report.lazy.files > 0
          ? `  + lazy ${kb(report.lazy.gzip)} (${kb(report.lazy.raw)}) in ${report.lazy.files}`
          : '';
      const over = overBudget.includes(report) ? '  OVER' : '';
      const what = report.frameworkFree ? 'inline, no framework' : `in ${report.firstLoad.files} files`;
      console.log(
        `${report.path.padEnd(width)} ${kb(report.firstLoad.gzip).padStart(9)} (${kb(report.firstLoad.raw)}) ${what}${lazy}${over}`,
      );
      console.log(`${''.padEnd(width)} routes: ${report.routes.join(' > ')}`);
      if (over) {
        const largest = report.chunks.slice(0, 6).map((chunk) => `${chunk.asset} ${kb(chunk.gzip)}`);
        console.log(`${''.padEnd(width)} largest: ${largest.join(', ')}`);
      }
      if (report.editorChunks.length > 0)
        console.log(`${''.padEnd(width)} editor code in: ${report.editorChunks.join(', ')}`);
    }
    console.log(
      violations.length === 0
        ? '\nNo public route loads Tiptap/ProseMirror, statically or lazily.'
        : `\nPublic routes that load editor code:\n  ${violations.join('\n  ')}`,
    );
    if (overBudget.length > 0) console.log(`Public pages over budget: ${overBudget.map((r) => r.path).join(', ')}`);
  }
  if (violations.length > 0 || overBudget.length > 0) process.exitCode = 1;
}

await main();
