import { type Page, expect, test } from '@playwright/test';
import { XSS_CORPUS, XSS_HOOK, type XssPayload } from '../fixtures/xss-corpus.ts';
import { E2E_ADMINS, TOKEN_KEY, adminToken, clientAddress } from './support/admin.ts';
import { gotoHydrated, waitForHydration } from './support/page.ts';

/**
 * Stored XSS on the blog (decision 019). Two ways in, every way out:
 *
 * - Through the API: every payload of the corpus is posted as a post's body (one post each, so an
 *   unclosed payload cannot hide the next), with a title that carries scripts too.
 * - Through the admin editor, as an admin pasting HTML does it: each payload is pasted into the
 *   Tiptap editor on /admin/blog/add as `text/html` (a real `paste` event), 12 payloads a post,
 *   with payloads in the title and in a new category's name, and saved through the form.
 *
 * Then the public post, /blog (with Load More, whose cards the browser renders from the API), the
 * category page, the search results, the admin list (titles and categories, Load More) and the
 * admin edit form are opened in Chromium. Detection: `window.__xss` (every payload calls it with
 * its own id, from any frame), a dialog listener, uncaught page errors and console errors. The
 * failure message names each payload that ran, with its kind and its HTML.
 *
 * The pages' Content-Security-Policy would block an injected handler or script that got through
 * and hide the sanitiser's failure (the refusal only shows as a console error), so this suite runs
 * without it: what is tested is the sanitiser and the rendering, the first line of defence. The
 * posts are deleted afterwards, so the other suites see the blog as seeded.
 */

// See above: the CSP is the second line of defence, not the one under test here.
test.use({ bypassCSP: true });

const CATEGORY = 'XSS corpus';
/** The word every API post's title carries, for the search. */
const MARKER = 'xsscheck';
/** The word of the editor's posts, unique per run (a retry must not meet the first try's slugs). */
const EDITOR_MARKER = `xssedit${Date.now().toString(36)}`;
/** Payloads pasted into one post through the editor. */
const PER_EDITOR_POST = 12;
/** Tabs that open the public posts side by side. */
const PUBLIC_POST_TABS = 6;

interface CreatedPost {
  id: number;
  slug: string;
  payloadId: string;
}

interface EditorPost {
  slug: string;
  title: string;
  category: string;
  categorySlug: string;
  payloadIds: string[];
}

const created: CreatedPost[] = [];
const editorPosts: EditorPost[] = [];
let token = '';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  test.setTimeout(180_000);
  token = await adminToken(request, E2E_ADMINS.blogXss);
  // A few posts at a time (the server writes them one by one either way, but each request's round
  // trip and rendering of the answer no longer wait on the previous one); kept in corpus order.
  const posted = await inBatches(XSS_CORPUS, async (payload) => {
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
    return { id: data.id, slug: data.slug, payloadId: payload.id };
  });
  created.push(...posted);
});

test.afterAll(async ({ request }) => {
  const headers = { authorization: `Bearer ${token}` };
  await inBatches(created, (post) => request.delete(`/api/blog/${post.id}`, { headers }));
  await inBatches(editorPosts, (post) => request.delete(`/api/blog/${encodeURIComponent(post.slug)}`, { headers }));
});

/** Requests in flight at once in the setup, the cleanup and the server HTML checks. */
const REQUESTS_AT_ONCE = 6;

/** Runs `task` on every item, REQUESTS_AT_ONCE at a time, and gives the results in the items' order. */
async function inBatches<Item, Result>(
  items: readonly Item[],
  task: (item: Item) => Promise<Result>,
): Promise<Result[]> {
  const results: Result[] = [];
  for (let start = 0; start < items.length; start += REQUESTS_AT_ONCE) {
    results.push(...(await Promise.all(items.slice(start, start + REQUESTS_AT_ONCE).map(task))));
  }
  return results;
}

const PAYLOADS = new Map<string, XssPayload>(XSS_CORPUS.map((payload) => [payload.id, payload]));

/** What ran or went wrong on the watched page: hook calls, dialogs, page errors, console errors. */
interface Watch {
  events: string[];
}

/** One line per event; a hook call names its payload's kind and HTML, so a failure says which one ran. */
function explained(watch: Watch): string[] {
  return watch.events.map((event) => {
    // A body payload reports its bare id; titles and categories report ids of their own.
    const id = /^(?:hook|dialog:\w+):(xss-\d{3})$/.exec(event)?.[1];
    const payload = id ? PAYLOADS.get(id) : undefined;
    return payload ? `${event} ← ${payload.kind}: ${payload.html}` : event;
  });
}

function expectNothingRan(watch: Watch, where: string): void {
  expect(explained(watch), `something ran ${where}`).toEqual([]);
}

/**
 * Watches a page before its first navigation: `window.__xss` defined in every frame (reporting
 * through a binding), dialogs (alert, confirm, prompt), uncaught errors, and console errors other
 * than failed resource loads (payload images such as `src=x` that the sanitiser let through as
 * harmless addresses would 404; a handler or script that ran and failed would not be one of those).
 */
async function watch(page: Page): Promise<Watch> {
  const seen: Watch = { events: [] };
  await page.exposeBinding('__xssReport', (_source, id: unknown) => {
    seen.events.push(`hook:${String(id)}`);
  });
  await page.addInitScript((hook) => {
    // The binding is looked up per call: it is installed on every frame, this script too.
    const report = (id: unknown) => (window as unknown as { __xssReport: (id: unknown) => void }).__xssReport(id);
    Object.defineProperty(window, hook, { value: report, writable: false });
  }, XSS_HOOK);
  page.on('dialog', (dialog) => {
    seen.events.push(`dialog:${dialog.type()}:${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('pageerror', (error) => seen.events.push(`pageerror:${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      seen.events.push(`console:${message.text()}`);
    }
  });
  return seen;
}

/** Lets the page load everything (images error, frames load), then hovers and tabs around. */
async function poke(page: Page): Promise<void> {
  await page.waitForLoadState('load');
  // Content rendered after the load (a form reached inside the app) has its images settled too.
  await page.waitForFunction(() => [...document.images].every((image) => image.complete));
  // Handlers that need a pointer or the focus: move over and tab through the page.
  await page.mouse.move(200, 300);
  await page.mouse.move(600, 700);
  for (let step = 0; step < 5; step += 1) await page.keyboard.press('Tab');
}

/** Opens a page, lets it hydrate and load everything, and pokes it. */
async function visit(page: Page, url: string): Promise<void> {
  const response = await page.goto(url);
  expect(response?.status(), url).toBe(200);
  await waitForHydration(page);
  await poke(page);
}

/** Logs the page in as the suite's admin: the token in local storage before any page script runs. */
async function asAdmin(page: Page): Promise<void> {
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': clientAddress() });
  // Top frame only: a player's frame (another origin, or its error page offline) has no access.
  await page.addInitScript(
    ([key, stored]) => {
      if (window === window.top) window.localStorage.setItem(key, stored);
    },
    [TOKEN_KEY, token] as const,
  );
}

const editor = (page: Page) => page.getByTestId('blog-editor');
const adminRows = (page: Page) => page.getByTestId('blog-row');

/** Pastes HTML into the editor the way a browser does when an admin pastes copied web content. */
async function pasteHtml(page: Page, html: string): Promise<void> {
  await editor(page).evaluate((element, pasted) => {
    const data = new DataTransfer();
    data.setData('text/html', pasted);
    element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, html);
}

/** Payloads for a title (≤ 200 characters with the words around them): tag, attribute and `<title>` break-outs. */
function titlePayloads(tag: string): string {
  const call = (suffix: string) => `window.${XSS_HOOK}('${tag}${suffix}')`;
  return `"><svg onload=${call('a')}></title><script>${call('b')}</script><img src=x onerror=${call('c')}>`;
}

/** A category name with a payload (names are at most 60 characters). */
function categoryPayload(tag: string): string {
  const name = `"><img src=x onerror=window.${XSS_HOOK}('${tag}')> ${tag}`;
  expect(name.length, name).toBeLessThanOrEqual(60);
  return name;
}

test('the hook, the dialog listener and the error checks catch a script that does run (the control)', async ({
  page,
}) => {
  const seen = await watch(page);
  await visit(page, '/blog');
  await page.evaluate((hook) => {
    (window as unknown as Record<string, (id: string) => void>)[hook]('control');
    alert('control');
    setTimeout(() => {
      throw new Error('control');
    }, 0);
  }, XSS_HOOK);
  await expect
    .poll(() => seen.events)
    .toEqual(['hook:control', 'dialog:alert:control', expect.stringMatching(/^pageerror:.*control/)]);
});

test('no payload runs on its public post', async ({ context }) => {
  test.setTimeout(240_000);
  // Every post is a full load of its own (server HTML, then hydration), as a visitor arriving from
  // a link gets it; the loads go side by side in a few tabs, each watched like the only one, since
  // a tab spends most of a load waiting on the server and the other tabs' rendering.
  const lanes = Array.from({ length: PUBLIC_POST_TABS }, (_, lane) =>
    created.filter((_post, index) => index % PUBLIC_POST_TABS === lane),
  );
  await Promise.all(
    lanes.map(async (posts) => {
      const page = await context.newPage();
      const seen = await watch(page);
      for (const post of posts) {
        await visit(page, `/blog/${post.slug}`);
        await expect(page.getByRole('heading', { level: 1 })).toContainText(`${MARKER} ${post.payloadId}`);
        expectNothingRan(seen, `on /blog/${post.slug}`);
      }
    }),
  );
});

test('no payload runs on /blog, through Load More, on the category page or in the search results', async ({ page }) => {
  test.setTimeout(120_000);
  const seen = await watch(page);
  await visit(page, '/blog');
  // Appended cards are rendered in the browser from the API: another path for a payload.
  for (let round = 0; round < 4; round += 1) {
    const before = await page.getByTestId('blog-card').count();
    await page.getByTestId('load-more').click();
    await expect.poll(() => page.getByTestId('blog-card').count()).toBeGreaterThan(before);
  }
  expectNothingRan(seen, 'on /blog');

  const first = created[0];
  expect(first, 'the corpus was posted').toBeDefined();
  await visit(page, `/blog/${first?.slug ?? ''}`);
  await page.getByTestId('post-category').click();
  await expect(page).toHaveURL(/\/blog\/category\//);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(CATEGORY);
  await poke(page);
  expectNothingRan(seen, 'on the category page');

  await visit(page, `/blog?s=${MARKER}`);
  await expect(page.getByTestId('search-banner')).toContainText(`for “${MARKER}”`);
  await expect(page.getByTestId('blog-card').first()).toBeVisible();
  expectNothingRan(seen, 'in the search results');
});

test('no payload posted through the API runs in the admin edit form', async ({ page }) => {
  test.setTimeout(300_000);
  await asAdmin(page);
  const seen = await watch(page);
  // The edit form is rendered in the browser only: the server sends a placeholder and the route's
  // client loader fetches the post through the API, whether the form is loaded or reached inside
  // the admin. So after one full load the suite moves from post to post inside the app (the
  // editor's code is loaded once, not once a post), and the form renders each post exactly as a
  // fresh load would. Checked, so this stays true: no server HTML of the form carries its post.
  await inBatches(created, async (post) => {
    const html = await (await page.request.get(`/admin/blog/${post.slug}`)).text();
    expect(html, `the server renders no post into /admin/blog/${post.slug}`).not.toContain(post.payloadId);
  });
  for (const [index, post] of created.entries()) {
    const address = `/admin/blog/${post.slug}`;
    if (index === 0) {
      await visit(page, address);
    } else {
      await page.evaluate((to) => {
        const router = (window as unknown as { __reactRouterDataRouter: { navigate: (to: string) => Promise<void> } })
          .__reactRouterDataRouter;
        return router.navigate(to);
      }, address);
      await expect(page).toHaveURL(new RegExp(`${address}$`));
    }
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Edit blog post');
    await expect(page.getByLabel('Title')).toHaveValue(new RegExp(`^${MARKER} ${post.payloadId} `));
    await expect(editor(page)).toBeVisible();
    await poke(page);
    expectNothingRan(seen, `in the edit form ${address}`);
  }
});

test('pasted into the admin editor, no payload runs there, in the saved public post or in its edit form', async ({
  page,
  request,
}) => {
  test.setTimeout(420_000);
  await asAdmin(page);
  const seen = await watch(page);
  const groups: XssPayload[][] = [];
  for (let start = 0; start < XSS_CORPUS.length; start += PER_EDITOR_POST) {
    groups.push(XSS_CORPUS.slice(start, start + PER_EDITOR_POST));
  }

  for (const [index, group] of groups.entries()) {
    const tag = `g${String(index + 1).padStart(2, '0')}`;
    const title = `${EDITOR_MARKER} ${tag} ${titlePayloads(`${tag}-title-`)}`;
    const category = categoryPayload(`${tag}-cat`);
    const slug = `${EDITOR_MARKER}-${tag}`;

    await gotoHydrated(page, '/admin/blog/add');
    await expect(editor(page)).toBeVisible();
    await page.getByLabel('Title').fill(title);
    await page.getByLabel('Slug').fill(slug);
    await page.getByLabel('Category').fill(category);
    for (const payload of group) {
      // Each payload in a paste of its own, after a paragraph naming it: an unclosed payload
      // (<plaintext>, <!--, <textarea>…) cannot swallow the next one.
      // Focused without a click (a click could select an image or a player, and the paste
      // would replace it), then the cursor to the end.
      await editor(page).focus();
      await page.keyboard.press('ControlOrMeta+End');
      await pasteHtml(page, `<p>payload ${payload.id}</p>${payload.html}`);
      await expect(editor(page).getByText(`payload ${payload.id}`), payload.id).toHaveCount(1);
    }
    // Every pasted payload is still there (none replaced another).
    for (const payload of group) await expect(editor(page).getByText(`payload ${payload.id}`)).toHaveCount(1);
    await poke(page);
    expectNothingRan(seen, `in the editor on /admin/blog/add (${tag})`);

    await page.getByRole('button', { name: 'Publish post' }).click();
    await expect(page.getByTestId('blog-form-message')).toHaveText('Blog added successfully');
    expectNothingRan(seen, `on /admin/blog/add after saving ${tag}`);

    const stored = await request.get(`/api/blog/${slug}`);
    expect(stored.status(), `${slug}: ${await stored.text()}`).toBe(200);
    const post = ((await stored.json()) as { data: { title: string; category: string; categorySlug: string }[] })
      .data[0];
    expect(post?.title).toBe(title);
    expect(post?.category).toBe(category);
    editorPosts.push({
      slug,
      title,
      category,
      categorySlug: post?.categorySlug ?? '',
      payloadIds: group.map((payload) => payload.id),
    });

    await visit(page, `/blog/${slug}`);
    expectNothingRan(seen, `on /blog/${slug}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    for (const payload of group) await expect(page.getByTestId('post-body')).toContainText(`payload ${payload.id}`);
    expectNothingRan(seen, `on /blog/${slug}`);

    await visit(page, `/admin/blog/${slug}`);
    await expect(page.getByLabel('Title')).toHaveValue(title);
    await expect(page.getByLabel('Category')).toHaveValue(category);
    await expect(editor(page)).toContainText(`payload ${group[0]?.id ?? ''}`);
    await poke(page);
    expectNothingRan(seen, `in the edit form /admin/blog/${slug}`);
  }
  expect(editorPosts.flatMap((post) => post.payloadIds)).toHaveLength(XSS_CORPUS.length);
});

test('no title or category payload runs in the admin list, on /blog, or on a category page', async ({ page }) => {
  test.setTimeout(180_000);
  expect(editorPosts.length, 'the editor test saved its posts').toBeGreaterThan(0);
  await asAdmin(page);
  const seen = await watch(page);

  // The admin list: every editor post by its word (titles and categories with payloads), as text.
  await visit(page, `/admin/blog?keyword=${EDITOR_MARKER}`);
  await expect(page.getByTestId('blog-count')).toContainText(`${editorPosts.length} posts found`);
  while ((await adminRows(page).count()) < editorPosts.length) {
    const before = await adminRows(page).count();
    await page.getByRole('button', { name: 'Load More' }).click();
    await expect.poll(() => adminRows(page).count()).toBeGreaterThan(before);
  }
  // Shown as the characters typed (search ranks them, so the order is not checked).
  const titles = await adminRows(page).getByTestId('blog-row-title').allTextContents();
  expect(titles.sort()).toEqual(editorPosts.map((post) => post.title).sort());
  const categories = await adminRows(page).getByTestId('blog-row-category').allTextContents();
  expect(categories.sort()).toEqual(editorPosts.map((post) => post.category).sort());
  await poke(page);
  expectNothingRan(seen, 'in the admin list of the editor posts');

  // The admin list as it opens (the newest posts), and the API posts' titles through Load More.
  await visit(page, '/admin/blog');
  await expect(adminRows(page).first()).toBeVisible();
  await visit(page, `/admin/blog?keyword=${MARKER}`);
  for (let round = 0; round < 3; round += 1) {
    const before = await adminRows(page).count();
    await page.getByRole('button', { name: 'Load More' }).click();
    await expect.poll(() => adminRows(page).count()).toBeGreaterThan(before);
  }
  await poke(page);
  expectNothingRan(seen, 'in the admin list of the API posts');

  // The add form offers every category by name (a datalist holding the payload names).
  await visit(page, '/admin/blog/add');
  await expect(editor(page)).toBeVisible();
  expectNothingRan(seen, 'on /admin/blog/add with the payload categories');

  // The public list: the editor posts are the newest; Load More renders the next ones in the browser.
  await visit(page, '/blog');
  for (let round = 0; round < 3; round += 1) {
    const before = await page.getByTestId('blog-card').count();
    await page.getByTestId('load-more').click();
    await expect.poll(() => page.getByTestId('blog-card').count()).toBeGreaterThan(before);
  }
  await expect(page.getByTestId('blog-card').filter({ hasText: EDITOR_MARKER }).first()).toBeVisible();
  await poke(page);
  expectNothingRan(seen, 'on /blog with the editor posts');

  for (const post of editorPosts.slice(0, 3)) {
    await visit(page, `/blog/category/${post.categorySlug}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(post.category);
    expectNothingRan(seen, `on /blog/category/${post.categorySlug}`);
  }
  await visit(page, `/blog?s=${EDITOR_MARKER}`);
  await expect(page.getByTestId('blog-card').first()).toBeVisible();
  expectNothingRan(seen, 'in the search results of the editor posts');
});
