import { expect, test } from '@playwright/test';
import { E2E_ADMINS, adminToken } from './support/admin.ts';
import { gotoHydrated } from './support/page.ts';
import { approvedReviews } from './support/reviews.ts';

/**
 * The home page's reviews strip sits on the page grid like its neighbours (its heading starts
 * where "Package details" starts), and shows its arrows only when there is more than fits: with
 * the one approved review this suite makes, none at any width.
 */

/** How many reviews one view shows at a width (ReviewsCarousel's CSS: 1 / 2 / 3 / 4 / 5). */
function perView(width: number): number {
  if (width >= 1500) return 5;
  if (width >= 1200) return 4;
  if (width >= 900) return 3;
  if (width >= 500) return 2;
  return 1;
}

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  await approvedReviews(request, await adminToken(request, E2E_ADMINS.reviewsStrip), 1);
});

for (const width of [390, 1366]) {
  test(`${width} px: the heading is on the grid; arrows only when there is more to scroll to`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await gotoHydrated(page, '/');
    const strip = page.getByTestId('reviews');
    await strip.scrollIntoViewIfNeeded();
    const heading = strip.getByRole('heading', { name: 'What our customers say' });
    const neighbour = page.getByRole('heading', { level: 2, name: 'Package details' });
    const x = async (locator: typeof heading) => Math.round((await locator.boundingBox())!.x);
    expect(await x(heading)).toBe(await x(neighbour));
    // The first card lines up with the heading too.
    const card = strip.getByTestId('review-slide').first().locator('figure');
    expect(await x(card)).toBe(await x(neighbour));

    const slides = await strip.getByTestId('review-slide').count();
    expect(slides).toBeGreaterThanOrEqual(1);
    const arrows = strip.getByRole('button', { name: /^(Previous|Next) reviews$/ });
    const scrollable = await strip
      .getByTestId('reviews-track')
      .evaluate((track) => track.scrollWidth > track.clientWidth + 1);
    expect(scrollable).toBe(slides > perView(width));
    if (slides > perView(width)) await expect(arrows).toHaveCount(2);
    else for (const arrow of await arrows.all()) await expect(arrow).toBeHidden();
    // This suite's own store has exactly one review when run alone: then nothing to scroll, no arrows.
    if (slides === 1) await expect(arrows).toHaveCount(0);
  });
}
