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
      // Past the skip link, every stop is the page's own (no sale bar, header or menu), and each of
      // the picker's choice groups (platform, service, plan, package) is one stop, its selected
      // choice: the four groups, the guarantees' policy links, then Buy Now.
      const guaranteeLinks = await page.getByTestId('guarantees').first().getByRole('link').count();
      expect(stops.length, stops.join(' | ')).toBe(4 + guaranteeLinks + 1);
      expect(stops.length, stops.join(' | ')).toBeLessThanOrEqual(8);
    });

    test('home: each choice group is one radio group; arrow keys, Home and End move and select', async ({ page }) => {
      await gotoHydrated(page, '/');
      const services = page.getByRole('radiogroup', { name: 'Services' });
      const plans = page.getByRole('radiogroup', { name: 'Plans' });
      const packages = page.getByRole('radiogroup', { name: 'Packages' });
      await expect(page.getByRole('radiogroup', { name: 'Categories' })).toBeVisible();
      const price = page.getByTestId('price-block');
      const buyNow = page.getByRole('link', { name: 'Buy Now' });

      // Only the selected choice of a group is a Tab stop.
      const tiers = packages.getByRole('radio');
      await expect(tiers.first()).toHaveAttribute('aria-checked', 'true');
      await expect(packages.locator('[tabindex="0"]')).toHaveCount(1);
      await tiers.first().focus();
      const firstPrice = await price.textContent();
      const firstHref = await buyNow.getAttribute('href');

      await page.keyboard.press('ArrowRight');
      await expect(tiers.nth(1)).toBeFocused();
      await expect(tiers.nth(1)).toHaveAttribute('aria-checked', 'true');
      await expect(tiers.first()).toHaveAttribute('aria-checked', 'false');
      await expect(packages.locator('[tabindex="0"]')).toHaveCount(1);
      await expect(price).not.toHaveText(firstPrice ?? '');
      expect(await buyNow.getAttribute('href')).not.toBe(firstHref);

      await page.keyboard.press('End');
      await expect(tiers.last()).toBeFocused();
      await expect(tiers.last()).toHaveAttribute('aria-checked', 'true');
      await page.keyboard.press('ArrowDown');
      await expect(tiers.first()).toBeFocused();
      await expect(tiers.first()).toHaveAttribute('aria-checked', 'true');
      await expect(price).toHaveText(firstPrice ?? '');
      await page.keyboard.press('ArrowLeft');
      await expect(tiers.last()).toHaveAttribute('aria-checked', 'true');
      await page.keyboard.press('Home');
      await expect(tiers.first()).toHaveAttribute('aria-checked', 'true');

      // Another service and plan by keyboard: the packages and Buy Now follow.
      await services.getByRole('radio').first().focus();
      await page.keyboard.press('ArrowRight');
      await expect(services.getByRole('radio').nth(1)).toHaveAttribute('aria-checked', 'true');
      await expect(services.getByRole('radio').nth(1)).toBeFocused();
      expect(await buyNow.getAttribute('href')).not.toBe(firstHref);
      const serviceHref = await buyNow.getAttribute('href');
      await plans.getByRole('radio', { checked: true }).focus();
      await page.keyboard.press('ArrowRight');
      await expect(plans.getByRole('radio').nth(1)).toHaveAttribute('aria-checked', 'true');
      expect(await buyNow.getAttribute('href')).not.toBe(serviceHref);
    });
  });
}
