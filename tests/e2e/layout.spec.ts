import { expect, test } from '@playwright/test';
import { groups } from './support/catalogue.ts';
import { HELP_LINKS } from '../../app/content/legal/links.ts';
import { expandedState, gotoHydrated } from './support/page.ts';

const WITH_LAYOUT = ['/', '/service/instagram-likes'];
const BARE = [
  '/login',
  '/register',
  '/forgot-password',
  '/blog',
  '/blog/some-post',
  '/instagram-issue',
  '/media-update',
  '/order/instagram-followersGOI100?type=Standard',
];
const ADMIN = ['/admin', '/admin/all-orders'];

test.describe('layout rules (spec section 2)', () => {
  for (const url of WITH_LAYOUT) {
    // The e2e store has no sale configured, so no sale banner either (decision 031); the banner
    // of a configured sale is covered by tests/integration/sale.test.ts.
    test(`${url} shows the footer and no sale banner without a sale`, async ({ page }) => {
      await gotoHydrated(page, url);
      await expect(page.getByTestId('site-footer')).toBeVisible();
      await expect(page.getByTestId('top-bar')).toHaveCount(0);
    });
  }

  for (const url of BARE) {
    test(`${url} hides the top bar and the footer`, async ({ page }) => {
      await gotoHydrated(page, url);
      await expect(page.locator('main')).toBeVisible();
      await expect(page.getByTestId('top-bar')).toHaveCount(0);
      await expect(page.getByTestId('site-footer')).toHaveCount(0);
    });
  }

  // Anonymous visitors are sent on to /login in the browser, so the rule is checked on the
  // server-rendered admin shell. The back office has its own navigation (decision 034):
  // none of the storefront's chrome shows there.
  for (const url of ADMIN) {
    test(`${url} hides the top bar, the storefront header and the footer`, async ({ request }) => {
      const html = await (await request.get(url)).text();
      expect(html).not.toContain('data-testid="top-bar"');
      expect(html).not.toContain('data-testid="site-header"');
      expect(html).not.toContain('data-testid="site-footer"');
    });
  }

  test('the layout follows client-side navigation too', async ({ page }) => {
    await gotoHydrated(page, '/');
    await page.getByRole('link', { name: 'Buy Now' }).click();
    await expect(page).toHaveURL(/\/order\//);
    await expect(page.getByTestId('top-bar')).toHaveCount(0);
    await expect(page.getByTestId('site-footer')).toHaveCount(0);
    await page.goBack();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId('site-footer')).toBeVisible();
  });

  test('the footer links every service of every group to /service/{slug}', async ({ page }) => {
    await gotoHydrated(page, '/');
    const footer = page.getByTestId('site-footer');
    const serviceLinks = footer.locator('a[href^="/service/"]');
    const all = groups.flatMap((g) => g.services);
    await expect(serviceLinks).toHaveCount(all.length);
    await expect(serviceLinks).toHaveText(all.map((s) => s.name));
    for (const s of all) {
      await expect(footer.getByRole('link', { name: s.name, exact: true })).toHaveAttribute(
        'href',
        `/service/${s.slug}`,
      );
    }
    for (const g of groups) {
      await expect(footer.getByRole('heading', { name: g.title, exact: true })).toBeVisible();
    }
  });

  test('a route change scrolls back to the top', async ({ page }) => {
    await gotoHydrated(page, '/');
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(500);

    const target = groups[groups.length - 1].services[groups[groups.length - 1].services.length - 1];
    await page.getByTestId('site-footer').getByRole('link', { name: target.name, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/service/${target.slug}$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(target.name);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });

  test('FAQ accordion: first open, one open at a time, clicking the open one closes it', async ({ page }) => {
    await gotoHydrated(page, '/');
    const faq = page
      .locator('section')
      .filter({ has: page.getByRole('heading', { name: 'Frequently asked questions' }) });
    // Native disclosures (<details name>): the question is the summary, the answer follows it.
    const items = faq.locator('details');
    const buttons = items.locator('summary');
    const count = await buttons.count();
    expect(count).toBeGreaterThan(2);

    const expectOpen = async (open: number | null) => {
      for (let i = 0; i < count; i += 1) {
        const panel = items.nth(i).locator('summary + div');
        await expect(items.nth(i)).toHaveJSProperty('open', i === open);
        if (i === open) await expect(panel).toBeVisible();
        else await expect(panel).toBeHidden();
      }
    };

    await expectOpen(0);
    await buttons.nth(2).click();
    await expectOpen(2);
    await buttons.nth(2).click();
    await expectOpen(null);
    await buttons.nth(1).click();
    await expectOpen(1);
  });
});

test.describe('no layout shift on the order page (its form is in the first HTML)', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('cumulative layout shift from the first paint through hydration stays below 0.02', async ({ page }) => {
    // Counted from the very first paint, as Lighthouse does; shifts right after input do not count.
    await page.addInitScript(() => {
      const store = window as unknown as { __shift: number };
      store.__shift = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
          if (!entry.hadRecentInput) store.__shift += entry.value;
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await gotoHydrated(page, '/order/instagram-followersGOI100?type=Standard');
    await page.waitForLoadState('networkidle');
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    await expect(page.getByLabel('Email', { exact: true })).toBeVisible();
    const shift = await page.evaluate(() => (window as unknown as { __shift: number }).__shift);
    expect(shift).toBeLessThan(0.02);
  });
});

test.describe('storefront header on a 390 px phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('stays one row; the menu button opens the links, Escape and a chosen link close it', async ({ page }) => {
    await gotoHydrated(page, '/');
    const header = page.getByTestId('site-header');
    const menuButton = header.getByRole('button', { name: 'Menu' });
    const menu = page.locator('#site-menu');
    const logo = header.getByRole('link', { name: 'Boostly home' });

    // One row: the logo and the menu button side by side, the bar no taller than its 64 px.
    const logoBox = (await logo.boundingBox())!;
    const buttonBox = (await menuButton.boundingBox())!;
    expect(Math.abs(logoBox.y + logoBox.height / 2 - (buttonBox.y + buttonBox.height / 2))).toBeLessThan(2);
    expect(buttonBox.x + buttonBox.width).toBeLessThanOrEqual(390);
    expect((await header.boundingBox())!.height).toBeLessThanOrEqual(66);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // The menu is a popover its button opens: the browser exposes the expanded state itself.
    const expanded = () => expandedState(page, '[popovertarget="site-menu"]');
    await expect(menu).toBeHidden();
    expect(await expanded()).toBe(false);
    await expect(menuButton).toHaveAttribute('aria-controls', 'site-menu');

    // Keyboard: focus the button, Enter opens the list with every platform and help link.
    await menuButton.focus();
    await page.keyboard.press('Enter');
    await expect(menu).toBeVisible();
    expect(await expanded()).toBe(true);
    const expected = [...groups.map((g) => g.title), ...HELP_LINKS.map((l) => l.label)];
    await expect(menu.getByRole('link')).toHaveText(expected);

    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    expect(await expanded()).toBe(false);
    await expect(menuButton).toBeFocused();

    await menuButton.click();
    await menu.getByRole('link', { name: 'FAQ', exact: true }).click();
    await expect(page).toHaveURL(/\/faq$/);
    await expect(menu).toBeHidden();
    expect(await expanded()).toBe(false);
  });
});

test.describe('storefront header on a laptop', () => {
  test.use({ viewport: { width: 1366, height: 768 } });

  test('shows every link in one row and no menu button', async ({ page }) => {
    await gotoHydrated(page, '/');
    const header = page.getByTestId('site-header');
    await expect(header.getByRole('button', { name: 'Menu' })).toBeHidden();
    const links = header.locator('ul:not(#site-menu)').getByRole('link');
    await expect(links).toHaveText([...groups.map((g) => g.title), ...HELP_LINKS.map((l) => l.label)]);
    const tops = await links.evaluateAll((all) => all.map((a) => Math.round(a.getBoundingClientRect().top)));
    expect(new Set(tops).size, `link tops ${tops.join(', ')}`).toBe(1);
  });
});

test.describe('brand font (decision 032)', () => {
  test('the one latin woff2 is preloaded, served, and declared with font-display: swap', async ({ request }) => {
    const html = await (await request.get('/')).text();
    const preload = /<link[^>]*rel="preload"[^>]*>/g;
    const fontLinks = [...html.matchAll(preload)].map((m) => m[0]).filter((tag) => tag.includes('as="font"'));
    expect(fontLinks).toHaveLength(1);
    const fontHref = /href="([^"]+\.woff2)"/.exec(fontLinks[0])![1];
    expect(fontHref).toMatch(/plus-jakarta-sans-latin-wght-normal/);
    expect(fontLinks[0]).toContain('type="font/woff2"');
    expect(fontLinks[0]).toContain('crossorigin="anonymous"');
    const font = await request.get(fontHref);
    expect(font.status()).toBe(200);
    expect((await font.body()).subarray(0, 4).toString('latin1')).toBe('wOF2');

    const cssHref = /<link[^>]*rel="stylesheet"[^>]*href="([^"]+\.css)"/.exec(html)![1];
    const css = await (await request.get(cssHref)).text();
    // The stylesheet's @font-face names the very file that was preloaded, with swap.
    const face = /@font-face\{[^}]*font-family:\s*"?Plus Jakarta Sans"?[;,][^}]*\}/.exec(css.replace(/\s*\n\s*/g, ''));
    expect(face, 'no @font-face for Plus Jakarta Sans').not.toBeNull();
    expect(face![0]).toMatch(/font-display:\s*swap/);
    expect(face![0]).toContain(fontHref);
    // The metric-adjusted local fallback keeps the swap from moving text.
    expect(css).toMatch(/size-adjust:\s*103\.54%/);
  });

  test('the favicon and the touch icon are served', async ({ request }) => {
    const html = await (await request.get('/')).text();
    expect(html).toMatch(/<link[^>]*rel="icon"[^>]*href="\/favicon\.svg"/);
    expect(html).toMatch(/<link[^>]*rel="apple-touch-icon"[^>]*href="\/apple-touch-icon\.png"/);
    expect((await request.get('/favicon.svg')).status()).toBe(200);
    const touch = await request.get('/apple-touch-icon.png');
    expect(touch.status()).toBe(200);
    expect(touch.headers()['content-type']).toBe('image/png');
  });
});
