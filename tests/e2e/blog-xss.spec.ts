import { type Page, expect, test } from '@playwright/test';
import { XSS_CORPUS, XSS_HOOK } from '../fixtures/xss-corpus.ts';
import { E2E_ADMINS, adminToken } from './support/admin.ts';
import { waitForHydration } from './support/page.ts';

/**
 * Stored XSS on the public blog (issue 11): every payload of the corpus is posted through the API
 * as a post's body (and its title carries a script too), then the public post, /blog with Load
 * More, the category page and the search results are opened in Chromium with `window.__xss`
 * hooked in every frame and a dialog listener. Nothing may call either. The posts are deleted
 * afterwards, so the other suites see the blog as seeded.
 */

const CATEGORY = 'XSS corpus';
/** The word every title carries, for the search. */
const MARKER = 'xsscheck';

interface CreatedPost {
  id: number;
  slug: string;
  payloadId: string;
}

const created: CreatedPost[] = [];
let token = '';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  test.setTimeout(180_000);
  token = await adminToken(request, E2E_ADMINS.blogXss);
  for (const payload of XSS_CORPUS) {
    const response = await request.post('/api/blog', {
      headers: { authorization: `Bearer ${token}` },
      multipart: {
        title: `${MARKER} ${payload.id} </script><script>window.${XSS_HOOK}('${payload.id}-title')</script><img src=x onerror="window.${XSS_HOOK}('${payload.id}-title')">`,
        slug: `${MARKER}-${payload.id}`,
        category: CATEGORY,
        description: payload.html,
      },
    });
    expect(response.status(), `${payload.id}: ${await response.text()}`).toBe(201);
    const { data } = (await response.json()) as { data: { id: number; slug: string } };
    created.push({ id: data.id, slug: data.slug, payloadId: payload.id });
  }
});

test.afterAll(async ({ request }) => {
  for (const post of created) {
    await request.delete(`/api/blog/${post.id}`, { headers: { authorization: `Bearer ${token}` } });
  }
});

/** What ran: hook calls (from any frame) and dialogs (alert, confirm, prompt). */
async function watch(page: Page): Promise<string[]> {
  const ran: string[] = [];
  await page.exposeBinding('__xssReport', (_source, id: unknown) => {
    ran.push(`hook:${String(id)}`);
  });
  await page.addInitScript((hook) => {
    // The binding is looked up per call: it is installed on every frame, this script too.
    const report = (id: unknown) => (window as unknown as { __xssReport: (id: unknown) => void }).__xssReport(id);
    Object.defineProperty(window, hook, { value: report, writable: false });
  }, XSS_HOOK);
  page.on('dialog', (dialog) => {
    ran.push(`dialog:${dialog.type()}:${dialog.message()}`);
    void dialog.dismiss();
  });
  return ran;
}

/** Opens a page, lets it hydrate and load everything (images error, frames load), and hovers around. */
async function visit(page: Page, url: string): Promise<void> {
  const response = await page.goto(url);
  expect(response?.status(), url).toBe(200);
  await waitForHydration(page);
  await page.waitForLoadState('load');
  // Handlers that need a pointer or the focus: move over and tab through the page.
  await page.mouse.move(200, 300);
  await page.mouse.move(600, 700);
  for (let step = 0; step < 5; step += 1) await page.keyboard.press('Tab');
}

test('the hook and the dialog listener catch a script that does run (the control)', async ({ page }) => {
  const ran = await watch(page);
  await visit(page, '/blog');
  await page.evaluate((hook) => {
    (window as unknown as Record<string, (id: string) => void>)[hook]('control');
    alert('control');
  }, XSS_HOOK);
  await expect.poll(() => ran).toEqual(['hook:control', 'dialog:alert:control']);
});

test('no payload runs on its public post', async ({ page }) => {
  test.setTimeout(240_000);
  const ran = await watch(page);
  for (const post of created) {
    await visit(page, `/blog/${post.slug}`);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(`${MARKER} ${post.payloadId}`);
    expect(ran, `on /blog/${post.slug}`).toEqual([]);
  }
});

test('no payload runs on /blog, through Load More, on the category page or in the search results', async ({ page }) => {
  test.setTimeout(120_000);
  const ran = await watch(page);
  await visit(page, '/blog');
  // Appended cards are rendered in the browser from the API: another path for a payload.
  for (let round = 0; round < 4; round += 1) {
    const before = await page.getByTestId('blog-card').count();
    await page.getByTestId('load-more').click();
    await expect.poll(() => page.getByTestId('blog-card').count()).toBeGreaterThan(before);
  }
  expect(ran, 'on /blog').toEqual([]);

  const category = created[0];
  await visit(page, `/blog/${category.slug}`);
  await page.getByTestId('post-category').click();
  await expect(page).toHaveURL(/\/blog\/category\//);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(CATEGORY);
  await page.waitForLoadState('load');
  expect(ran, 'on the category page').toEqual([]);

  await visit(page, `/blog?s=${MARKER}`);
  await expect(page.getByTestId('search-banner')).toContainText(`for “${MARKER}”`);
  await expect(page.getByTestId('blog-card').first()).toBeVisible();
  expect(ran, 'in the search results').toEqual([]);
});
