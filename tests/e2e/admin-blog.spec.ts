import { type APIRequestContext, type Locator, type Page, expect, test } from '@playwright/test';
import sharp from 'sharp';
import { E2E_ADMINS, TOKEN_KEY, adminToken, clientAddress } from './support/admin.ts';
import { expectNoSeriousAxeViolations } from './support/axe.ts';
import { gotoHydrated } from './support/page.ts';

/**
 * The admin blog (spec "Admin blog list", "Admin blog add and edit forms", sections 4, 8, 9): an admin writes a post in the Tiptap editor (bold, a list, a link, an e-mail link,
 * a pasted YouTube address, an uploaded image), publishes it, finds it on the public blog, by
 * search and in its category, edits it and deletes it; the image check, the empty messages, the
 * unsaved-changes question and axe on the list and the form.
 *
 * Logged in with the blog's own admin account (support/admins.ts): one API login per worker,
 * whose token is put in local storage before the pages load, so the suite asks for one e-mailed
 * code per run (codes per admin are capped at 5 an hour).
 */

let token: string | null = null;

async function tokenFor(request: APIRequestContext): Promise<string> {
  token ??= await adminToken(request, E2E_ADMINS.blog);
  return token;
}

test.beforeEach(async ({ page, request }) => {
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': clientAddress() });
  const value = await tokenFor(request);
  // Before any page script: the admin layout finds the token on its first render.
  await page.addInitScript(([key, stored]) => window.localStorage.setItem(key, stored), [TOKEN_KEY, value] as const);
});

const uniqueWord = () => `zq${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;

async function pngFile(name: string): Promise<{ name: string; mimeType: string; buffer: Buffer }> {
  const buffer = await sharp({ create: { width: 320, height: 200, channels: 3, background: '#7c3aed' } })
    .png()
    .toBuffer();
  return { name, mimeType: 'image/png', buffer };
}

const heading = (page: Page) => page.getByRole('heading', { level: 1 });
const editor = (page: Page) => page.getByTestId('blog-editor');
const formMessage = (page: Page) => page.getByTestId('blog-form-message');
const toolbar = (page: Page) => page.getByRole('toolbar', { name: 'Formatting' });
const tool = (page: Page, name: string) => toolbar(page).getByRole('button', { name, exact: true });
const coverInput = (page: Page) => page.getByLabel('Cover image', { exact: true });
const rows = (page: Page) => page.getByTestId('blog-row');

/** The image preview, loaded (under the page's CSP: a blob: preview would be blocked). */
/** A refused cover image: its message, no preview, and the file input emptied. */
async function expectCoverRefused(page: Page, message: string): Promise<void> {
  await expect(page.getByTestId('image-error')).toHaveText(message);
  await expect(page.getByTestId('image-preview')).toHaveCount(0);
  expect(await coverInput(page).evaluate((input) => (input as HTMLInputElement).files?.length ?? 0)).toBe(0);
}

async function expectPreviewLoaded(page: Page): Promise<void> {
  const preview = page.getByTestId('image-preview');
  await expect(preview).toBeVisible();
  await expect.poll(() => preview.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
}

/** Collects the page's Content-Security-Policy refusals. */
function cspViolations(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) seen.push(message.text());
  });
  return seen;
}

/** Pastes plain text into the editor the way a browser does (a paste event with clipboard data). */
async function pasteText(target: Locator, text: string): Promise<void> {
  await target.evaluate((element, pasted) => {
    const data = new DataTransfer();
    data.setData('text/plain', pasted);
    element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

/** Selects the current line of text in the editor (Shift+Home from its end). */
async function selectLine(page: Page): Promise<void> {
  await page.keyboard.press('End');
  await page.keyboard.press('Shift+Home');
}

async function openAddForm(page: Page): Promise<void> {
  await gotoHydrated(page, '/admin/blog/add');
  await expect(heading(page)).toHaveText('Add blog post');
  await expect(editor(page)).toBeVisible();
}

async function searchAdminList(page: Page, keyword: string): Promise<void> {
  const box = page.getByRole('searchbox', { name: 'Search posts' });
  await box.fill(keyword);
  await box.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/admin/blog\\?keyword=${keyword}$`));
  // The list for this keyword has arrived (the count line names it).
  await expect(page.getByTestId('blog-count')).toContainText(`“${keyword}”`);
}

interface ApiPost {
  id: number;
  slug: string;
  title: string;
  categorySlug: string | null;
  description: string;
}

async function apiPost(request: APIRequestContext, slug: string): Promise<{ status: number; post: ApiPost | null }> {
  const response = await request.get(`/api/blog/${encodeURIComponent(slug)}`);
  if (!response.ok()) return { status: response.status(), post: null };
  const body = (await response.json()) as { data: ApiPost[] };
  return { status: response.status(), post: body.data[0] ?? null };
}

test.describe('admin blog', () => {
  test('an admin writes a post with the editor, publishes it, finds it on the blog, edits it and deletes it', async ({
    page,
    request,
  }) => {
    test.slow();
    const word = uniqueWord();
    const title = `Growing on Instagram ${word}`;
    const category = `Field Notes ${word}`;
    const refused = cspViolations(page);

    await openAddForm(page);

    // Title is required, in the browser before anything is sent.
    await page.getByRole('button', { name: 'Publish post' }).click();
    await expect(page.getByTestId('title-error')).toHaveText('Title is required');

    // The slug follows the title until it is edited.
    await page.getByLabel('Title').fill(title);
    await expect(page.getByLabel('Slug')).toHaveValue(`growing-on-instagram-${word}`);
    await expect(page.getByTestId('title-error')).toHaveCount(0);

    await coverInput(page).setInputFiles(await pngFile('cover.png'));
    await expectPreviewLoaded(page);

    // Category: a new name (the list offers the existing ones).
    await page.getByLabel('Category').fill(category);

    // The body: bold text, a bullet list, a link, an e-mail link, a YouTube player, an image.
    await editor(page).click();
    await page.keyboard.type('Start slowly with ');
    await tool(page, 'Bold').click();
    await expect(tool(page, 'Bold')).toHaveAttribute('aria-pressed', 'true');
    await page.keyboard.type('consistent posting');
    await tool(page, 'Bold').click();
    await expect(tool(page, 'Bold')).toHaveAttribute('aria-pressed', 'false');
    await page.keyboard.type(' every week.');
    await page.keyboard.press('Enter');

    await tool(page, 'Bulleted list').click();
    await expect(tool(page, 'Bulleted list')).toHaveAttribute('aria-pressed', 'true');
    await page.keyboard.type('Post at the same time');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Answer every comment');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await expect(tool(page, 'Bulleted list')).toHaveAttribute('aria-pressed', 'false');

    await page.keyboard.type('Instagram help centre');
    await selectLine(page);
    await tool(page, 'Link').click();
    const linkBox = page.getByLabel('Link address or e-mail');
    await expect(linkBox).toBeFocused();
    await linkBox.fill('javascript:alert(1)');
    await page.getByRole('button', { name: 'Apply link' }).click();
    await expect(page.getByText('Only web addresses (https://…) and e-mail addresses can be linked.')).toBeVisible();
    await linkBox.fill('https://help.instagram.com/');
    await linkBox.press('Enter');
    await expect(editor(page).locator('a[href="https://help.instagram.com/"]')).toHaveText('Instagram help centre');
    // The box gives the focus back to the text (a frame later): keys typed before that would be lost.
    await expect(editor(page)).toBeFocused();

    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('support@boostly.example');
    await selectLine(page);
    await tool(page, 'Link').click();
    // A selected bare e-mail is offered as it is and linked with mailto:.
    await expect(page.getByLabel('Link address or e-mail')).toHaveValue('support@boostly.example');
    await page.getByRole('button', { name: 'Apply link' }).click();
    await expect(editor(page).locator('a[href="mailto:support@boostly.example"]')).toHaveText(
      'support@boostly.example',
    );
    await expect(editor(page)).toBeFocused();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');

    await pasteText(editor(page), 'https://www.youtube.com/watch?v=dQw4w9WgXcQ');
    await expect(editor(page).locator('iframe')).toHaveAttribute(
      'src',
      'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ',
    );

    await tool(page, 'Image').click();
    await page.getByLabel('Image (jpg, png, svg or webp)').setInputFiles(await pngFile('inline.png'));
    await page.getByLabel('Description for screen readers (alt text)').fill('A chart of weekly posts');
    await page.getByRole('button', { name: 'Upload and insert' }).click();
    const inlineImage = editor(page).locator('img[alt="A chart of weekly posts"]');
    await expect(inlineImage).toHaveAttribute('src', /^\/uploads\//);
    // Each insertion leaves the cursor after it: nothing inserted earlier was replaced.
    await expect(editor(page).locator('iframe')).toHaveCount(1);
    await expect(editor(page)).toBeFocused();

    // The video button takes a Vimeo address too.
    await tool(page, 'Video (YouTube or Vimeo)').click();
    await page.getByLabel('YouTube or Vimeo address').fill('https://vimeo.com/76979871');
    await page.getByRole('button', { name: 'Insert video' }).click();
    await expect(editor(page).locator('iframe[src="https://player.vimeo.com/video/76979871"]')).toHaveCount(1);
    await expect(editor(page).locator('img, iframe')).toHaveCount(3);
    await expect.poll(() => inlineImage.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);

    await page.getByRole('button', { name: 'Publish post' }).click();
    await expect(formMessage(page)).toHaveText('Blog added successfully');
    expect(refused, 'CSP refusals on the add page').toEqual([]);
    // The form is reset for the next post.
    await expect(page.getByLabel('Title')).toHaveValue('');
    await expect(page.getByLabel('Category')).toHaveValue('');
    await expect(page.getByTestId('image-preview')).toHaveCount(0);
    await expect(editor(page).locator('a, iframe, img, li')).toHaveCount(0);
    // Messages clear on any edit.
    await page.getByLabel('Title').fill('x');
    await expect(formMessage(page)).toHaveCount(0);
    await page.getByLabel('Title').fill('');

    // Stored as written (sanitised by the server).
    const slug = `growing-on-instagram-${word}`;
    const stored = await apiPost(request, slug);
    expect(stored.post?.title).toBe(title);
    const body = stored.post?.description ?? '';
    // (Chromium may type the space before the bold words inside them: same text either way.)
    expect(body).toMatch(/<strong>\s?consistent posting<\/strong>/);
    expect(body).toMatch(/<li><p>Post at the same time<\/p><\/li>|<li>Post at the same time<\/li>/);
    expect(body).toContain('href="https://help.instagram.com/"');
    expect(body).toContain('href="mailto:support@boostly.example"');
    expect(body).toContain('src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"');
    expect(body).toMatch(/<img[^>]+src="\/uploads\//);
    expect(body).toContain('src="https://player.vimeo.com/video/76979871"');

    // The public blog: newest first on /blog, by search, in its category, and the post itself
    // (pages are cached; a write reaches every instance's cache within about a second).
    const publicPageShows = async (url: string) => {
      await expect(async () => {
        await gotoHydrated(page, url);
        await expect(page.getByRole('link', { name: title }).first()).toBeVisible({ timeout: 1000 });
      }).toPass({ timeout: 15_000 });
    };
    await publicPageShows('/blog');
    await publicPageShows(`/blog?s=${word}`);
    expect(stored.post?.categorySlug).toBeTruthy();
    await publicPageShows(`/blog/category/${stored.post?.categorySlug ?? ''}`);
    await gotoHydrated(page, `/blog/${slug}`);
    const article = page.getByTestId('post-body');
    await expect(article.locator('strong', { hasText: 'consistent posting' })).toBeVisible();
    await expect(article.locator('li', { hasText: 'Answer every comment' })).toBeVisible();
    await expect(article.locator('a[href="mailto:support@boostly.example"]')).toBeVisible();
    await expect(article.locator('iframe[src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"]')).toHaveCount(1);
    await expect(article.locator('img[src^="/uploads/"]')).toHaveCount(1);

    // The admin list: search, then edit.
    await gotoHydrated(page, '/admin/blog');
    await expect(heading(page)).toHaveText('Blog');
    await searchAdminList(page, word);
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).getByTestId('blog-row-title')).toHaveText(title);
    await expect(rows(page).getByTestId('blog-row-category')).toHaveText(category);
    await rows(page)
      .getByRole('link', { name: `Edit “${title}”` })
      .click();
    await expect(page).toHaveURL(new RegExp(`/admin/blog/${slug}$`));
    await expect(heading(page)).toHaveText('Edit blog post');
    await expect(page.getByLabel('Title')).toHaveValue(title);
    await expect(editor(page).locator('strong')).toHaveText('consistent posting');
    await expect(page.getByText('It stays the same when you change the title')).toBeVisible();

    // A new title keeps the published address.
    await page.getByLabel('Title').fill(`${title} (updated)`);
    await expect(page.getByLabel('Slug')).toHaveValue(slug);
    await editor(page).locator('p', { hasText: 'Start slowly' }).click();
    await page.keyboard.press('End');
    await page.keyboard.type(' Edited.');

    // Leaving with unsaved changes asks first.
    await page.getByRole('link', { name: 'All posts' }).click();
    const leave = page.getByTestId('unsaved-dialog');
    await expect(leave).toBeVisible();
    await expect(leave.getByRole('heading')).toHaveText('Leave without saving?');
    await leave.getByRole('button', { name: 'Stay' }).click();
    await expect(leave).toBeHidden();
    await expect(page).toHaveURL(new RegExp(`/admin/blog/${slug}$`));

    await page.getByRole('button', { name: 'Update post' }).click();
    await expect(formMessage(page)).toHaveText('Blog updated successfully');
    const updated = await apiPost(request, slug);
    expect(updated.post?.title).toBe(`${title} (updated)`);
    expect(updated.post?.description).toContain('every week. Edited.');
    // Saved: leaving no longer asks.
    await page.getByRole('link', { name: 'All posts' }).click();
    await expect(page).toHaveURL(/\/admin\/blog$/);

    // Delete with the confirmation; Cancel keeps the post.
    await searchAdminList(page, word);
    await expect(rows(page)).toHaveCount(1);
    const deleteButton = rows(page).getByRole('button', { name: `Delete “${title} (updated)”` });
    await deleteButton.click();
    const dialog = page.getByTestId('delete-dialog');
    await expect(dialog.getByRole('heading')).toHaveText('Are you sure?');
    await expect(dialog).toContainText("You won't be able to revert this!");
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(rows(page)).toHaveCount(1);
    expect((await apiPost(request, slug)).status).toBe(200);

    await deleteButton.click();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByTestId('toast-message').filter({ hasText: 'Deleted!' })).toBeVisible();
    await expect(rows(page)).toHaveCount(0);
    await expect(page.getByTestId('blog-empty')).toContainText('No blogs found.');
    expect((await apiPost(request, slug)).status).toBe(404);
    await expect.poll(async () => (await page.request.get(`/blog/${slug}`)).status(), { timeout: 15_000 }).toBe(404);
  });

  test('the toolbar: italic, underline, a numbered list and clear formatting; leaving asks first', async ({ page }) => {
    await openAddForm(page);
    await editor(page).click();
    await tool(page, 'Italic').click();
    await tool(page, 'Underline').click();
    await page.keyboard.type('slanted and underlined');
    await expect(tool(page, 'Italic')).toHaveAttribute('aria-pressed', 'true');
    await expect(tool(page, 'Underline')).toHaveAttribute('aria-pressed', 'true');
    await expect(editor(page).locator('em u, u em')).toHaveText('slanted and underlined');
    await page.keyboard.press('Enter');
    await tool(page, 'Numbered list').click();
    await page.keyboard.type('first step');
    await expect(editor(page).locator('ol > li')).toHaveText('first step');
    await expect(tool(page, 'Numbered list')).toHaveAttribute('aria-pressed', 'true');

    // Clean formatting: marks and blocks go back to plain paragraphs.
    await page.keyboard.press('ControlOrMeta+a');
    await tool(page, 'Clear formatting').click();
    await expect(editor(page).locator('em, u, ol, li')).toHaveCount(0);
    // (The editor keeps an empty paragraph at the end to type into.)
    await expect(editor(page).locator('p').filter({ hasText: /\S/ })).toHaveText([
      'slanted and underlined',
      'first step',
    ]);

    // Unsaved text: leaving asks, and "Leave" goes.
    await page.getByRole('link', { name: 'All posts' }).click();
    const leave = page.getByTestId('unsaved-dialog');
    await expect(leave).toBeVisible();
    await leave.getByRole('button', { name: 'Leave' }).click();
    await expect(page).toHaveURL(/\/admin\/blog$/);
    await expect(heading(page)).toHaveText('Blog');
  });

  test('an image that is not jpg, png, svg or webp clears the selection and the preview', async ({ page }) => {
    await openAddForm(page);
    await coverInput(page).setInputFiles(await pngFile('cover.png'));
    await expect(page.getByTestId('image-preview')).toBeVisible();

    await coverInput(page).setInputFiles({ name: 'notes.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
    await expectCoverRefused(page, 'Only jpg, png, svg, and webp files are allowed');

    // A good file afterwards clears the message.
    await coverInput(page).setInputFiles(await pngFile('cover.png'));
    await expect(page.getByTestId('image-error')).toHaveCount(0);
    await expectPreviewLoaded(page);
  });

  test('a picked file is checked by its content at once: a text file named .png, an oversized image', async ({
    page,
  }) => {
    await openAddForm(page);
    // Text renamed .png, with the type the browser guesses from the name: refused before any Publish.
    await coverInput(page).setInputFiles({
      name: 'notes.png',
      mimeType: 'image/png',
      buffer: Buffer.from('these are my notes, not a picture\n'.repeat(100)),
    });
    await expectCoverRefused(page, 'Only jpg, png, svg, and webp files are allowed');

    // A real PNG afterwards shows its preview.
    await coverInput(page).setInputFiles(await pngFile('cover.png'));
    await expect(page.getByTestId('image-error')).toHaveCount(0);
    await expectPreviewLoaded(page);

    // Larger than the upload limit (5 MB by default): the size message, at once, and no preview.
    const header = await pngFile('big.png');
    const big = Buffer.concat([header.buffer, Buffer.alloc(5 * 1024 * 1024)]);
    await coverInput(page).setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: big });
    await expectCoverRefused(page, 'The image is too large: the limit is 5 MB.');

    // The body's image panel checks the same way.
    await tool(page, 'Image').click();
    await page.getByLabel('Image (jpg, png, svg or webp)').setInputFiles({
      name: 'inline.png',
      mimeType: 'image/png',
      buffer: Buffer.from('<html><body>not an image</body></html>'),
    });
    await expect(page.getByText('Only jpg, png, svg, and webp files are allowed')).toBeVisible();
    expect(
      await page
        .getByLabel('Image (jpg, png, svg or webp)')
        .evaluate((input) => (input as HTMLInputElement).files?.length ?? 0),
    ).toBe(0);
  });

  test('Save draft keeps a post from visitors; the list says Draft; Publish puts it live', async ({
    page,
    request,
  }) => {
    const word = uniqueWord();
    const title = `Draft notes ${word}`;
    await openAddForm(page);
    await page.getByLabel('Title').fill(title);
    await page.getByRole('button', { name: 'Save draft' }).click();
    await expect(page.getByText('Blog added successfully')).toBeVisible();
    const slug = `draft-notes-${word}`;
    expect((await apiPost(request, slug)).status).toBe(404);

    await gotoHydrated(page, `/admin/blog?keyword=${word}`);
    const row = page.locator(`[data-testid="blog-row"][data-slug="${slug}"]`);
    await expect(row).toContainText('Draft');
    await expect(row.getByRole('link', { name: /View .* on the site/ })).toHaveCount(0);

    await gotoHydrated(page, `/admin/blog/${slug}`);
    await page.getByRole('button', { name: 'Publish post' }).click();
    await expect(page.getByText('Blog updated successfully')).toBeVisible();
    expect((await apiPost(request, slug)).status).toBe(200);
  });

  test('the list says when a search finds nothing and when there are no posts at all; titles are text', async ({
    page,
    request,
  }) => {
    const word = uniqueWord();
    await gotoHydrated(page, '/admin/blog');
    await searchAdminList(page, `${word}nothing`);
    await expect(page.getByTestId('blog-empty')).toContainText('No blogs found.');
    // Clearing the box shows every post again.
    await page.getByRole('searchbox', { name: 'Search posts' }).fill('');
    await expect(page).toHaveURL(/\/admin\/blog$/);
    await expect(rows(page).first()).toBeVisible();

    // A title with markup is shown as the characters typed.
    const title = `Plain <b>text</b> ${word}`;
    const created = await request.post('/api/blog', {
      headers: { authorization: `Bearer ${await tokenFor(request)}` },
      multipart: { title, category: '', description: '<p>Body</p>' },
    });
    expect(created.status(), await created.text()).toBe(201);
    const { data } = (await created.json()) as { data: ApiPost };
    await searchAdminList(page, word);
    await expect(rows(page).getByTestId('blog-row-title')).toHaveText(title);
    await expect(rows(page).locator('b')).toHaveCount(0);
    const removed = await request.delete(`/api/blog/${data.id}`, {
      headers: { authorization: `Bearer ${await tokenFor(request)}` },
    });
    expect(removed.status()).toBe(200);

    // No posts at all: the seed always has some, so this answer stands in for an empty store.
    await page.route(
      (url) => url.pathname === '/api/blog' && !url.searchParams.has('keyword'),
      (route) =>
        route.fulfill({
          json: { isSuccessful: true, message: 'No blogs found.', data: [], totalPages: 0, count: 0, currentPage: 1 },
        }),
    );
    await gotoHydrated(page, '/admin/blog');
    await expect(page.getByTestId('blog-empty')).toContainText('You have no blogs yet.');
    await expect(page.getByRole('link', { name: 'Write the first post' })).toHaveAttribute('href', '/admin/blog/add');
  });

  test('Load More appends the next page of 10, also after a delete shifted the pages', async ({ page, request }) => {
    // 12 posts sharing a word of their own: a search for it lists exactly these.
    const word = uniqueWord();
    const headers = { authorization: `Bearer ${await tokenFor(request)}` };
    const ids: number[] = [];
    try {
      for (let n = 1; n <= 12; n += 1) {
        const created = await request.post('/api/blog', {
          headers,
          multipart: { title: `Paging ${word} ${n}`, category: '', description: `<p>Post ${n} about ${word}</p>` },
        });
        expect(created.status(), await created.text()).toBe(201);
        ids.push(((await created.json()) as { data: ApiPost }).data.id);
      }

      await gotoHydrated(page, '/admin/blog');
      await searchAdminList(page, word);
      await expect(page.getByTestId('blog-count')).toHaveText(`12 posts found for “${word}”`);
      await expect(rows(page)).toHaveCount(10);

      // Deleting one of the first 10 shifts the server's pages by one: nothing may be skipped.
      const first = rows(page).first();
      const firstTitle = (await first.getByTestId('blog-row-title').textContent()) ?? '';
      await first.getByRole('button', { name: /^Delete “/ }).click();
      await page.getByTestId('delete-dialog').getByRole('button', { name: 'Confirm' }).click();
      await expect(rows(page)).toHaveCount(9);

      await page.getByRole('button', { name: 'Load More' }).click();
      await expect(rows(page)).toHaveCount(11);
      await expect(page.getByRole('button', { name: 'Load More' })).toHaveCount(0);
      const titles = await rows(page).getByTestId('blog-row-title').allTextContents();
      expect(new Set(titles).size).toBe(11);
      expect(titles).not.toContain(firstTitle);
      expect(titles.sort()).toEqual(
        Array.from({ length: 12 }, (_, i) => `Paging ${word} ${i + 1}`)
          .filter((title) => title !== firstTitle)
          .sort(),
      );
    } finally {
      for (const id of ids) await request.delete(`/api/blog/${id}`, { headers });
    }
  });

  test('saving shows a spinner; a failed update says so; messages clear on an edit; closing with changes asks', async ({
    page,
    request,
  }) => {
    const word = uniqueWord();
    const headers = { authorization: `Bearer ${await tokenFor(request)}` };
    const created = await request.post('/api/blog', {
      headers,
      multipart: { title: `Saving ${word}`, category: '', description: `<p>About ${word}</p>` },
    });
    expect(created.status(), await created.text()).toBe(201);
    const { data } = (await created.json()) as { data: ApiPost };
    try {
      await gotoHydrated(page, `/admin/blog/${data.slug}`);
      await expect(editor(page)).toBeVisible();
      const save = page.getByRole('button', { name: /^(Update post|Saving…)$/ });

      // A slow save: the button spins and the form is busy until the server answers.
      let releaseSave: () => void = () => undefined;
      const saveHeld = new Promise<void>((resolve) => {
        releaseSave = resolve;
      });
      await page.route(`**/api/blog/${data.slug}`, async (route) => {
        if (route.request().method() !== 'PATCH') return route.continue();
        await saveHeld;
        return route.continue();
      });
      await page.getByLabel('Title').fill(`Saving ${word} again`);
      await save.click();
      await expect(save).toHaveText('Saving…');
      await expect(save).toBeDisabled();
      await expect(page.locator('form[aria-busy="true"]')).toHaveCount(1);
      releaseSave();
      await expect(formMessage(page)).toHaveText('Blog updated successfully');
      await expect(save).toHaveText('Update post');
      await page.unroute(`**/api/blog/${data.slug}`);

      // A failure without the server's envelope (a proxy's 502): the spec's message.
      await page.route(`**/api/blog/${data.slug}`, (route) =>
        route.request().method() === 'PATCH'
          ? route.fulfill({ status: 502, contentType: 'text/html', body: '<h1>Bad gateway</h1>' })
          : route.continue(),
      );
      await page.getByLabel('Title').fill(`Saving ${word} third`);
      await save.click();
      await expect(formMessage(page)).toHaveText('An error occurred while updating.');
      await expect(formMessage(page)).toHaveAttribute('role', 'alert');
      // Any edit clears it.
      await page.getByLabel('Title').press('End');
      await page.keyboard.type('!');
      await expect(formMessage(page)).toHaveCount(0);
      expect((await apiPost(request, data.slug)).post?.title).toBe(`Saving ${word} again`);

      // Closing or reloading the tab with unsaved changes: the browser's own question.
      // Leaving (accept) lets the page close for good; staying (dismiss) left a page whose
      // handler could hold up the context's close at the end of the test.
      const asked = new Promise<string>((resolve) => {
        page.once('dialog', (dialog) => {
          resolve(dialog.type());
          void dialog.accept();
        });
      });
      const closed = page.waitForEvent('close');
      await page.close({ runBeforeUnload: true });
      expect(await asked).toBe('beforeunload');
      await closed;
    } finally {
      await request.delete(`/api/blog/${data.id}`, { headers });
    }
  });

  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1366, height: 900 },
  ]) {
    test.describe(`drafts at ${viewport.width} px`, () => {
      test.use({ viewport });

      test("after a save the editor shows the post's new state: its status words and buttons, with no reload", async ({
        page,
        request,
      }) => {
        const word = uniqueWord();
        const headers = { authorization: `Bearer ${await tokenFor(request)}` };
        const created = await request.post('/api/blog', {
          headers,
          multipart: { title: `Labels ${word}`, category: '', description: `<p>About ${word}</p>`, status: 'draft' },
        });
        expect(created.status(), await created.text()).toBe(201);
        const { data } = (await created.json()) as { data: ApiPost };
        try {
          await gotoHydrated(page, `/admin/blog/${data.slug}`);
          await expect(editor(page)).toBeVisible();
          const status = page.getByTestId('blog-post-status');
          const primary = page.getByRole('button', { name: /^(Publish post|Update post|Schedule post)$/ });
          const secondary = page.getByRole('button', { name: /^(Save draft|Unpublish to draft)$/ });
          await expect(status).toHaveText('This post is a draft.');
          await expect(primary).toHaveText('Publish post');
          await expect(secondary).toHaveText('Save draft');

          await primary.click();
          await expect(formMessage(page)).toHaveText('Blog updated successfully');
          await expect(status).toHaveText(/^Published /);
          await expect(primary).toHaveText('Update post');
          await expect(secondary).toHaveText('Unpublish to draft');

          await secondary.click();
          await expect(formMessage(page)).toHaveText('Blog updated successfully');
          await expect(status).toHaveText('This post is a draft.');
          await expect(primary).toHaveText('Publish post');
          await expect(secondary).toHaveText('Save draft');

          // Scheduled for tomorrow: the field keeps the time, the words say when.
          const tomorrow = new Date(Date.now() + 24 * 60 * 60 * 1000);
          const pad = (n: number) => String(n).padStart(2, '0');
          await page
            .getByLabel(/^Publish at/)
            .fill(
              `${tomorrow.getFullYear()}-${pad(tomorrow.getMonth() + 1)}-${pad(tomorrow.getDate())}T${pad(tomorrow.getHours())}:${pad(tomorrow.getMinutes())}`,
            );
          await expect(primary).toHaveText('Schedule post');
          await primary.click();
          await expect(formMessage(page)).toHaveText('Blog updated successfully');
          await expect(status).toHaveText(/^Scheduled for /);
          await expect(primary).toHaveText('Schedule post');
          await expect(secondary).toHaveText('Save draft');
        } finally {
          await request.delete(`/api/blog/${data.id}`, { headers });
        }
      });

      test('Preview opens a draft as the site will show it, for the signed-in owner only, never indexed', async ({
        page,
        request,
        browser,
      }) => {
        const word = uniqueWord();
        const headers = { authorization: `Bearer ${await tokenFor(request)}` };
        const title = `Preview ${word}`;
        const created = await request.post('/api/blog', {
          headers,
          multipart: { title, category: 'Previews', description: `<p>Draft words ${word}</p>`, status: 'draft' },
        });
        expect(created.status(), await created.text()).toBe(201);
        const { data } = (await created.json()) as { data: ApiPost };
        try {
          await gotoHydrated(page, `/admin/blog/${data.slug}`);
          await expect(editor(page)).toBeVisible();
          const opened = page.context().waitForEvent('page');
          await page.getByRole('link', { name: /^Preview/ }).click();
          const preview = await opened;
          await expect(preview).toHaveURL(new RegExp(`/admin/blog/${data.slug}/preview$`));
          await expect(preview.getByTestId('preview-banner')).toContainText('Preview — not published');
          await expect(preview.getByRole('heading', { level: 1, name: title })).toBeVisible();
          await expect(preview.getByTestId('post-body')).toHaveText(`Draft words ${word}`);
          await expect(preview.getByTestId('post-category')).toHaveText('Previews');
          await expect(preview.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
          expect(await preview.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
            viewport.width,
          );
          const response = await preview.request.get(`/admin/blog/${data.slug}/preview`);
          expect(response.headers()['x-robots-tag']).toBe('noindex, nofollow');
          expect(response.headers()['cache-control']).toBe('private, no-store');
          expect(await response.text()).not.toContain(word);

          // Without the owner's token: the log-in page, and nothing of the draft.
          const stranger = await browser.newContext({ viewport });
          try {
            const anonymous = await stranger.newPage();
            await anonymous.goto(`${new URL(page.url()).origin}/admin/blog/${data.slug}/preview`);
            await expect(anonymous).toHaveURL(/\/login/);
            await expect(anonymous.getByText(word)).toHaveCount(0);
          } finally {
            await stranger.close();
          }
        } finally {
          await request.delete(`/api/blog/${data.id}`, { headers });
        }
      });
    });
  }

  test('a post that cannot be loaded says so', async ({ page }) => {
    await gotoHydrated(page, `/admin/blog/${uniqueWord()}-missing`);
    await expect(page.getByTestId('blog-fetch-error')).toContainText('An error occurred while fetching data.');
  });

  test.describe('accessibility', () => {
    // axe is injected as a script, which the pages' CSP (script nonces) would block. The other
    // tests run under the real CSP: previews, uploaded images and players must load with it.
    test.use({ bypassCSP: true });

    test('axe: the list, the delete question, and the form with the editor and its link box open', async ({ page }) => {
      await gotoHydrated(page, '/admin/blog');
      await expect(rows(page).first()).toBeVisible();
      await expectNoSeriousAxeViolations(page, '/admin/blog');
      await rows(page)
        .first()
        .getByRole('button', { name: /^Delete “/ })
        .click();
      await expect(page.getByTestId('delete-dialog')).toBeVisible();
      await expectNoSeriousAxeViolations(page, '/admin/blog (delete question)');
      await page.getByTestId('delete-dialog').getByRole('button', { name: 'Cancel' }).click();

      await openAddForm(page);
      await page.getByRole('button', { name: 'Publish post' }).click();
      await expect(page.getByTestId('title-error')).toBeVisible();
      await editor(page).click();
      await page.keyboard.type('Some text');
      await tool(page, 'Link').click();
      await expect(page.getByLabel('Link address or e-mail')).toBeVisible();
      await expectNoSeriousAxeViolations(page, '/admin/blog/add (editor, link box)');
    });

    test('axe: the edit form of a seeded post, and its unsaved-changes question', async ({ page }) => {
      await gotoHydrated(page, '/admin/blog/grow-instagram-account-safely');
      await expect(heading(page)).toHaveText('Edit blog post');
      await expect(editor(page).locator('h2').first()).toBeVisible();
      await expect(page.getByTestId('image-preview')).toBeVisible();
      await expectNoSeriousAxeViolations(page, '/admin/blog/{slug}');
      await page.getByLabel('Title').press('End');
      await page.keyboard.type(' (draft)');
      await page.getByRole('link', { name: 'All posts' }).click();
      await expect(page.getByTestId('unsaved-dialog')).toBeVisible();
      await expectNoSeriousAxeViolations(page, '/admin/blog/{slug} (unsaved-changes question)');
      await page.getByTestId('unsaved-dialog').getByRole('button', { name: 'Stay' }).click();
    });
  });
});
