import { expect, test } from '@playwright/test';
import { waitForHydration } from './support/page.ts';

/**
 * Pages are rendered and cached without ads' tracking parameters (server/tracking-params.ts); the
 * browser keeps the address it was given, so the page's own scripts (and any analytics) still
 * read them, and hydrating the trimmed HTML at the full address raises no error.
 */
for (const path of [
  '/',
  '/service/instagram-followers',
  '/blog?s=likes',
  '/order/instagram-followersGOI100?type=Standard',
]) {
  test(`${path} with tracking parameters hydrates cleanly and keeps them in the address`, async ({ page }) => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    const tracking = `utm_source=ig&utm_campaign=spring&gclid=${Date.now()}`;
    const address = `${path}${path.includes('?') ? '&' : '?'}${tracking}`;
    const response = await page.goto(address);
    expect(response?.status()).toBe(200);
    await waitForHydration(page);
    expect(await page.evaluate(() => window.location.search)).toContain(tracking);
    // Pages that are not indexed (the order page) have no canonical link at all.
    const canonical = await page.evaluate(() => document.querySelector('link[rel="canonical"]')?.getAttribute('href'));
    expect(canonical ?? '').not.toMatch(/utm_|gclid/);
    expect(errors).toEqual([]);
  });
}
