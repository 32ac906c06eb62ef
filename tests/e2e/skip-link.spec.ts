import { expect, test } from '@playwright/test';
import { gotoHydrated } from './support/page.ts';

/**
 * Every layout (the store, the blog, the sign-in and console shell) starts with a "Skip to
 * content" link: the first Tab lands on it, it shows itself, and Enter moves focus into the
 * page's main region, so a keyboard reaches the page's own controls without crossing the menus.
 */
for (const width of [390, 1366]) {
  test.describe(`skip link at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    for (const url of ['/', '/blog', '/login', '/client']) {
      test(`${url}: the first Tab focuses it, visibly; Enter moves focus to main`, async ({ page }) => {
        await gotoHydrated(page, url);
        await page.keyboard.press('Tab');
        const skip = page.getByRole('link', { name: 'Skip to content' });
        await expect(skip).toBeFocused();
        await expect(skip).toBeVisible();
        const box = await skip.boundingBox();
        expect(box?.width ?? 0).toBeGreaterThan(40);
        await page.keyboard.press('Enter');
        await expect(page.locator('main#main')).toBeFocused();
      });
    }

    test('home: after the skip link, Tab goes through the page itself to Buy Now', async ({ page }) => {
      await gotoHydrated(page, '/');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      // What each Tab lands on, named in the failure message if Buy Now is too far.
      const stops: string[] = [];
      for (let presses = 0; presses < 30; presses += 1) {
        await page.keyboard.press('Tab');
        const stop = await page.evaluate(() => ({
          label: document.activeElement?.textContent?.trim().slice(0, 30) ?? '',
          inMain: !!document.activeElement?.closest('main'),
        }));
        expect(stop.inMain, `${stop.label} is in main`).toBe(true);
        stops.push(stop.label);
        if (stops.at(-1) === 'Buy Now') break;
      }
      expect(stops.at(-1), stops.join(' | ')).toBe('Buy Now');
      // Past the skip link, every stop is the page's own (no sale bar, header or menu), so Buy Now
      // is only the picker's choices away (each platform, service, plan and package is one stop).
      expect(stops.length, stops.join(' | ')).toBeLessThanOrEqual(24);
    });
  });
}
