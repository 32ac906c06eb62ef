import { expect, test } from '@playwright/test';
import {
  ClientBuild,
  FIRST_LOAD_BUDGET_BYTES,
  FRAMEWORK_FREE_BUDGET_BYTES,
  frameworkFreeRouteIds,
  kb,
} from '../../scripts/first-load-js.ts';

/**
 * The first-load JavaScript budget (decisions 036, 037 and 050), checked against the production
 * build that `npm test` makes before the browser suites: every public page route of the
 * manifest (every route with a component outside /admin, so a new page is covered the day it is
 * added) loads at most 120 KB of gzip JavaScript on a first visit, and no public route loads the
 * blog editor's Tiptap/ProseMirror code, now or lazily (decision 021). No browser is needed;
 * the build is read when the file loads, so a missing build fails the run instead of skipping.
 */

const build = new ClientBuild(undefined, await frameworkFreeRouteIds());
const pages = build.publicPagePaths();

/** The pages that load no framework JavaScript (app/page-handle.ts); tests/e2e/framework-free.spec.ts checks them in a browser. */
const FRAMEWORK_FREE_ROUTES = [
  'routes/faq',
  'routes/legal/privacy-policy',
  'routes/legal/terms-condition',
  'routes/legal/disclaimer',
  'routes/legal/refund-policy',
  'routes/courses',
  'routes/course',
  'routes/blog/post',
  'routes/blog/instagram-issue',
  'routes/blog/media-update',
  'routes/not-found',
];

/** The spec's public pages (app/routes.ts); the manifest must still have each of them. */
const EXPECTED_PUBLIC_ROUTES = [
  'routes/home',
  'routes/service',
  'routes/order',
  'routes/order-confirm',
  'routes/client',
  'routes/contact',
  'routes/faq',
  'routes/legal/privacy-policy',
  'routes/legal/terms-condition',
  'routes/legal/disclaimer',
  'routes/legal/refund-policy',
  'routes/courses',
  'routes/course',
  'routes/mockups/free-followers',
  'routes/login',
  'routes/blog/index',
  'routes/blog/category',
  'routes/blog/post',
  'routes/blog/instagram-issue',
  'routes/blog/media-update',
  'routes/not-found',
];

test.describe('first-load JavaScript budget', () => {
  test('measures every public page of the route table, and no admin page', () => {
    const measured = pages.map((page) => page.routeId);
    expect(measured).toEqual(expect.arrayContaining(EXPECTED_PUBLIC_ROUTES));
    expect(measured.filter((id) => id.startsWith('routes/admin'))).toEqual([]);
    // Each sample path really lands on its own route (and not on the not-found page).
    for (const page of pages) expect(build.matchedRoutes(page.path).at(-1), page.path).toBe(page.routeId);
  });

  // Every public page fits, with no exception (decision 050: the order page was the last one over).
  for (const page of pages) {
    test(`${page.path} (${page.routeId}) loads at most ${kb(FIRST_LOAD_BUDGET_BYTES)}`, () => {
      const report = build.measure(page.path);
      const largest = report.chunks
        .slice(0, 8)
        .map((chunk) => `${chunk.asset} ${kb(chunk.gzip)}`)
        .join(', ');
      expect(
        report.firstLoad.gzip,
        `${page.path} loads ${kb(report.firstLoad.gzip)} of JavaScript; largest chunks: ${largest}`,
      ).toBeLessThanOrEqual(FIRST_LOAD_BUDGET_BYTES);
    });
  }

  test(`the text pages load no framework chunk, at most ${kb(FRAMEWORK_FREE_BUDGET_BYTES)} in all`, () => {
    for (const page of pages.filter((candidate) => FRAMEWORK_FREE_ROUTES.includes(candidate.routeId))) {
      const report = build.measure(page.path);
      expect(report.frameworkFree, page.path).toBe(true);
      expect(report.firstLoad.files, page.path).toBe(0);
      expect(report.firstLoad.gzip, page.path).toBeLessThanOrEqual(FRAMEWORK_FREE_BUDGET_BYTES);
    }
    // Exactly these: one that keeps the framework by mistake, or loses it, shows here.
    const measured = pages.filter((page) => build.measure(page.path).frameworkFree).map((page) => page.routeId);
    expect(measured.sort()).toEqual([...FRAMEWORK_FREE_ROUTES].sort());
  });

  test('no public route loads Tiptap or ProseMirror, now or lazily', () => {
    expect(build.publicRoutesWithEditorCode()).toEqual([]);
    // The check can see editor code: the admin editor page loads it (lazily).
    expect(build.measure('/admin/blog/add').editorChunks.length).toBeGreaterThan(0);
  });
});
