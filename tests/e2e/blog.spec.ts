import { type Page, expect, test } from '@playwright/test';
import { expectNoSeriousAxeViolations } from './support/axe.ts';
import { gotoHydrated } from './support/page.ts';

/**
 * The public blog (spec "Public blog"): the list and its Load More, a post, a category,
 * the header's search modal, search results and the empty result. Other suites may add posts
 * while this one runs (the blog suites share the store), so counts are checked as "more than",
 * never as exact numbers.
 */

// The pages send a CSP with script nonces, which would block the injected axe script.
test.use({ bypassCSP: true });

const cards = (page: Page) => page.getByTestId('blog-card');
const heading = (page: Page) => page.getByRole('heading', { level: 1 });
const searchDialog = (page: Page) => page.getByRole('dialog', { name: 'Search the blog' });
const openSearch = (page: Page) => page.getByRole('button', { name: 'Search the blog' });

/** Whether the focus is inside the search dialog. */
const focusInDialog = (page: Page) =>
  page.evaluate(() => !!document.activeElement?.closest('[data-testid="blog-search-dialog"]'));

test('the list appends the next page with Load More, then a post and its category open', async ({ page }) => {
  await gotoHydrated(page, '/blog');
  await expect(heading(page)).toHaveText('#1 Social Media Blog');
  await expect(cards(page)).toHaveCount(4);
  await expect(page.getByTestId('blog-header')).toBeVisible();
  await expect(page.getByTestId('blog-footer')).toBeVisible();
  // The card's date is in the spec's long US format.
  await expect(cards(page).first().locator('time')).toHaveText(/^[A-Z][a-z]+ \d{1,2}, \d{4}$/);

  const loadMore = page.getByTestId('load-more');
  await expect(loadMore).toHaveAttribute('href', '/blog?page=2');
  await loadMore.click();
  await expect.poll(() => cards(page).count()).toBeGreaterThan(4);
  // Appended in place: the address did not change, and the focus moved to the first new card.
  expect(new URL(page.url()).search).toBe('');
  await expect(cards(page).nth(4).getByRole('heading').getByRole('link')).toBeFocused();

  const fifth = cards(page).nth(4);
  const title = (await fifth.getByRole('heading').textContent())!;
  // 'Read more' names its post for screen readers.
  const readMore = fifth.getByRole('link', { name: /^Read more about / });
  await expect(readMore).toHaveAccessibleName(`Read more about ${title}`);
  await readMore.click();
  await expect(heading(page)).toHaveText(title);
  await expect(page).toHaveURL(/\/blog\/[a-z0-9-]+$/);
  await expect(page.getByTestId('post-body')).toBeVisible();
  await expect(page.getByTestId('reading-time')).toHaveText(/^\d+ min read$/);
  await expect(page).toHaveTitle(`${title} | Boostly`);

  const category = page.getByTestId('post-category');
  const categoryName = (await category.textContent())!;
  await category.click();
  await expect(page).toHaveURL(/\/blog\/category\/[a-z0-9-]+$/);
  await expect(heading(page)).toHaveText(categoryName);
  await expect(cards(page).first()).toBeVisible();
  for (const label of await cards(page).locator('a[href^="/blog/category/"]').allTextContents()) {
    expect(label).toBe(categoryName);
  }
});

test('without JavaScript Load More is a link to the next page, which links back', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/blog');
  await page.getByTestId('load-more').click();
  await expect(page).toHaveURL(/\/blog\?page=2$/);
  await expect(cards(page).first()).toBeVisible();
  await page.getByTestId('newer-posts').click();
  await expect(page).toHaveURL(/\/blog$/);
  await expect(cards(page)).toHaveCount(4);
  await context.close();
});

test('the menu leads to the two named category routes', async ({ page }) => {
  await gotoHydrated(page, '/blog');
  const menu = page.getByRole('navigation', { name: 'Blog', exact: true });
  await menu.getByRole('link', { name: 'Instagram Updates' }).click();
  await expect(page).toHaveURL(/\/instagram-issue$/);
  await expect(heading(page)).toHaveText('Instagram Updates');
  await menu.getByRole('link', { name: 'Social Media Updates' }).click();
  await expect(page).toHaveURL(/\/media-update$/);
  await expect(heading(page)).toHaveText('Social Media Updates');
  await expect(cards(page).first()).toBeVisible();
});

test('the search modal traps the focus, closes on Escape, ignores blank text and searches', async ({ page }) => {
  await gotoHydrated(page, '/blog');
  const opener = openSearch(page);
  await opener.click();
  const dialog = searchDialog(page);
  await expect(dialog).toBeVisible();
  const input = dialog.getByRole('textbox', { name: 'Search text' });
  await expect(input).toBeFocused();

  // Tab and Shift+Tab go round inside the dialog (close, input, Search).
  for (let step = 0; step < 5; step += 1) {
    await page.keyboard.press('Tab');
    expect(await focusInDialog(page)).toBe(true);
  }
  for (let step = 0; step < 5; step += 1) {
    await page.keyboard.press('Shift+Tab');
    expect(await focusInDialog(page)).toBe(true);
  }

  // Escape closes it and gives the focus back to the button that opened it.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();

  // Empty or blank text does nothing.
  await opener.click();
  await expect(input).toBeFocused();
  await input.press('Enter');
  await input.fill('   ');
  await dialog.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(dialog).toBeVisible();
  expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/blog');

  await input.fill('  YouTube ');
  await input.press('Enter');
  await expect(page).toHaveURL(/\/blog\?s=YouTube$/);
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('search-banner')).toContainText(/[1-9]\d* results? for “YouTube”/);
  await expect(cards(page).first()).toBeVisible();
});

test('a search that finds nothing shows the spec texts and a search box that trims or clears', async ({ page }) => {
  await gotoHydrated(page, '/blog?s=zzqxv');
  await expect(heading(page)).toHaveText('0 results for “zzqxv”');
  await expect(page.getByRole('heading', { name: 'Nothing Found!' })).toBeVisible();
  await expect(
    page.getByText(
      'Apologies, but no results were found for the requested archive. Try using the search with a relevent phrase to find the post you are looking for.',
    ),
  ).toBeVisible();
  const box = page.getByTestId('nothing-found').getByPlaceholder('Type and hit enter...');
  await box.fill('  instagram  ');
  await box.press('Enter');
  await expect(page).toHaveURL(/\/blog\?s=instagram$/);
  await expect(cards(page).first()).toBeVisible();

  await gotoHydrated(page, '/blog?s=zzqxv');
  await box.fill('   ');
  await box.press('Enter');
  await expect(page).toHaveURL(/\/blog$/);
  await expect(heading(page)).toHaveText('#1 Social Media Blog');
});

test('an unknown post shows the not-found view with status 404', async ({ page }) => {
  const response = await page.goto('/blog/no-such-post');
  expect(response?.status()).toBe(404);
  await expect(page.getByText('The page you are looking for could not be found')).toBeVisible();
});

test('the feed is well-formed XML and the posts carry parseable JSON-LD', async ({ page, request }) => {
  const feed = await request.get('/blog/feed.xml');
  expect(feed.headers()['content-type']).toBe('application/rss+xml; charset=utf-8');
  const xml = await feed.text();
  await gotoHydrated(page, '/blog/grow-instagram-account-safely');
  const parsed = await page.evaluate((source) => {
    const doc = new DOMParser().parseFromString(source, 'application/xml');
    return { error: doc.querySelector('parsererror')?.textContent ?? null, items: doc.querySelectorAll('item').length };
  }, xml);
  expect(parsed.error).toBeNull();
  expect(parsed.items).toBeGreaterThan(0);
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
  const types = blocks.map((block) => (JSON.parse(block) as { '@type'?: unknown })['@type']);
  expect(types).toContain('BlogPosting');
});

for (const url of [
  '/blog',
  '/blog?page=2',
  '/blog/grow-instagram-account-safely',
  '/blog/category/instagram-updates',
  '/instagram-issue',
  '/media-update',
  '/blog?s=instagram',
  '/blog?s=zzqxv',
  '/blog/no-such-post',
]) {
  test(`axe finds no serious or critical violations on ${url}`, async ({ page }) => {
    await gotoHydrated(page, url);
    await expectNoSeriousAxeViolations(page, url);
  });
}

test('axe finds no serious or critical violations in the open search modal', async ({ page }) => {
  await gotoHydrated(page, '/blog');
  await openSearch(page).click();
  await expect(searchDialog(page)).toBeVisible();
  await expectNoSeriousAxeViolations(page, 'the blog search modal');
});
