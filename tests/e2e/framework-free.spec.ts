import { type Browser, expect, test } from '@playwright/test';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { TopBar } from '../../app/components/TopBar.tsx';
import { HELP_LINKS } from '../../app/content/legal/links.ts';
import { groups } from './support/catalogue.ts';
import { expandedState } from './support/page.ts';

/**
 * The pages without framework JavaScript (app/page-handle.ts): each loads no React and no React
 * Router, at most 30 KB of JavaScript in all (inline included), and its interactive parts work
 * with JavaScript disabled (the accordion, the menu, the blog search, Load More) or, for the share
 * button and the sale countdown, with the page's one plain script.
 */

/** The storefront pages (sale bar, header and footer), then the blog's. */
const STORE_PAGES = [
  '/privacy-policy',
  '/terms-condition',
  '/disclaimer',
  '/refund-policy',
  '/faq',
  '/courses',
  '/course/cybersecurity',
  '/no-such-page-here',
];
const BLOG_PAGES = ['/blog/grow-instagram-account-safely', '/instagram-issue', '/media-update'];

const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1366, height: 768 },
] as const;

/** A page in a fresh context with JavaScript off. */
async function openWithoutJs(browser: Browser, viewport: { width: number; height: number }, url: string) {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport });
  const page = await context.newPage();
  await page.goto(url);
  return { page, close: () => context.close() };
}

// The server HTML of each page (no script file or preload, no router context, at most one inline
// script within 30 KB gzip, ordinary links) is checked without a browser, on both dialects, in
// tests/integration/framework-free-pages.test.ts; what only a browser shows is checked here.
test('pages without framework JavaScript request no script and start no framework while they load', async ({
  page,
}) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
  });
  for (const url of [...STORE_PAGES, ...BLOG_PAGES]) {
    const response = await page.goto(url);
    expect(response?.status(), url).toBe(url === '/no-such-page-here' ? 404 : 200);
    await page.waitForLoadState('load');
    // No script file at all, not even one the page's plain script would add.
    expect(scripts, url).toEqual([]);
    expect(await page.evaluate(() => '__reactRouterContext' in window), url).toBe(false);
  }
});

for (const viewport of VIEWPORTS) {
  const phone = viewport.width < 640;

  test.describe(`with JavaScript disabled at ${viewport.width} px`, () => {
    test('the FAQ accordion: first open, one open at a time, clicking the open one closes it', async ({ browser }) => {
      const { page, close } = await openWithoutJs(browser, viewport, '/faq');
      const items = page.getByTestId('faq-accordion').locator('details');
      const count = await items.count();
      expect(count).toBeGreaterThan(2);
      const expectOpen = async (open: number | null) => {
        for (let i = 0; i < count; i += 1) {
          await expect(items.nth(i)).toHaveJSProperty('open', i === open);
          const answer = items.nth(i).locator('summary + div');
          if (i === open) await expect(answer).toBeVisible();
          else await expect(answer).toBeHidden();
        }
      };
      await expectOpen(0);
      await items.nth(2).locator('summary').click();
      await expectOpen(2);
      await items.nth(2).locator('summary').click();
      await expectOpen(null);
      // The keyboard too: Enter on a focused question opens it.
      await items.nth(1).locator('summary').focus();
      await page.keyboard.press('Enter');
      await expectOpen(1);
      await close();
    });

    for (const url of STORE_PAGES) {
      test(`${url}: the header's links work`, async ({ browser }) => {
        const { page, close } = await openWithoutJs(browser, viewport, url);
        const header = page.getByTestId('site-header');
        const menuButton = header.getByRole('button', { name: 'Menu' });
        const menu = page.locator('#site-menu');
        const expected = [...groups.map((g) => g.title), ...HELP_LINKS.map((l) => l.label)];
        if (!phone) {
          await expect(menuButton).toBeHidden();
          await expect(header.locator('ul:not(#site-menu)').getByRole('link')).toHaveText(expected);
          await close();
          return;
        }
        await expect(menu).toBeHidden();
        expect(await expandedState(page, '[popovertarget="site-menu"]')).toBe(false);
        await menuButton.click();
        await expect(menu).toBeVisible();
        expect(await expandedState(page, '[popovertarget="site-menu"]')).toBe(true);
        await expect(menu.getByRole('link')).toHaveText(expected);
        // Under the header, within the screen.
        const headerBox = (await header.boundingBox())!;
        const menuBox = (await menu.boundingBox())!;
        expect(Math.abs(menuBox.y - (headerBox.y + headerBox.height))).toBeLessThan(3);
        expect(menuBox.x).toBeGreaterThanOrEqual(0);
        expect(menuBox.x + menuBox.width).toBeLessThanOrEqual(viewport.width);

        await page.keyboard.press('Escape');
        await expect(menu).toBeHidden();
        expect(await expandedState(page, '[popovertarget="site-menu"]')).toBe(false);

        await menuButton.click();
        const target = url === '/faq' ? 'Contact' : 'FAQ';
        await menu.getByRole('link', { name: target, exact: true }).click();
        await expect(page).toHaveURL(target === 'FAQ' ? /\/faq$/ : /\/contact$/);
        await expect(page.locator('#site-menu')).toBeHidden();
        await close();
      });
    }

    for (const url of BLOG_PAGES) {
      test(`${url}: the blog search opens and searches`, async ({ browser }) => {
        const { page, close } = await openWithoutJs(browser, viewport, url);
        const dialog = page.getByRole('dialog', { name: 'Search the blog' });
        await expect(dialog).toBeHidden();
        await page.getByRole('button', { name: 'Search the blog' }).click();
        await expect(dialog).toBeVisible();
        const input = dialog.getByRole('textbox', { name: 'Search text' });
        await expect(input).toBeFocused();
        // Escape closes it and the focus goes back to the button.
        await page.keyboard.press('Escape');
        await expect(dialog).toBeHidden();
        await expect(page.getByRole('button', { name: 'Search the blog' })).toBeFocused();
        // An empty search goes nowhere; a word searches.
        await page.getByRole('button', { name: 'Search the blog' }).click();
        await dialog.getByRole('button', { name: 'Search', exact: true }).click();
        await expect(dialog).toBeVisible();
        expect(new URL(page.url()).pathname).toBe(url);
        await input.fill('instagram');
        await page.keyboard.press('Enter');
        await expect(page).toHaveURL(/\/blog\?s=instagram$/);
        await expect(page.getByTestId('blog-list')).toBeVisible();
        await close();
      });
    }

    test('Load More on /courses is a link to the next page', async ({ browser }) => {
      const { page, close } = await openWithoutJs(browser, viewport, '/courses');
      await expect(page.getByTestId('course-card')).toHaveCount(4);
      await page.getByRole('link', { name: 'Load More' }).click();
      await expect(page).toHaveURL(/\/courses\?all=1/);
      await expect(page.getByTestId('course-card')).toHaveCount(8);
      await close();
    });

    test('the course page shows no share button it cannot work', async ({ browser }) => {
      const { page, close } = await openWithoutJs(browser, viewport, '/course/cybersecurity');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Share this course' })).toBeHidden();
      await expect(page.getByRole('link', { name: 'Ask about this course' }).first()).toBeVisible();
      await close();
    });
  });

  test.describe(`the plain page script at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('the share button copies the course link and says so', async ({ page, context }) => {
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      await page.addInitScript(() => {
        Object.defineProperty(Navigator.prototype, 'share', { value: undefined, configurable: true });
      });
      await page.goto('/course/leadership-skills');
      await page.getByRole('button', { name: 'Share this course' }).click();
      await expect(page.getByTestId('share-status')).toHaveText('Link copied');
      expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/\/course\/leadership-skills$/);
    });

    test('the sale countdown ticks and the bar goes when the sale ends', async ({ page }) => {
      // The e2e store runs no sale: the real TopBar's markup for a sale ending in 8 s is put into
      // the real /faq document (its own script and CSP untouched), as the server would render it.
      const now = Date.now();
      const bar = renderToStaticMarkup(
        createElement(TopBar, {
          sale: { text: 'Flash sale: 20% OFF', percent: 20, endsAt: now + 8_000, services: 'all', at: now },
          pathname: '/faq',
          renderedAt: now,
        }),
      );
      await page.route('**/faq', async (route) => {
        const response = await route.fetch();
        const html = (await response.text()).replace('<body class="flex min-h-screen flex-col">', (body) => body + bar);
        await route.fulfill({ response, body: html });
      });
      // The page's clock stops at `now` and moves only when the test moves it: the eight seconds
      // pass at once, and a slow load cannot eat into them. An installed clock runs until it is
      // paused, and it can only be paused ahead of itself: installed a minute early, `now` is still
      // ahead of it when pauseAt arrives (installed at `now`, a millisecond's delay made it the past).
      await page.clock.install({ time: now - 60_000 });
      await page.clock.pauseAt(now);
      await page.goto('/faq');
      const countdown = page.getByTestId('countdown');
      await expect(countdown).toHaveText('00 hr 00 min 08 sec');
      await page.clock.runFor(1_000);
      await expect(countdown).toHaveText('00 hr 00 min 07 sec');
      await page.clock.runFor(6_000);
      await expect(countdown).toHaveText('00 hr 00 min 01 sec');
      await expect(page.getByTestId('top-bar')).toBeVisible();
      await page.clock.runFor(1_000);
      await expect(page.getByTestId('top-bar')).toHaveCount(0);
    });
  });
}
