import { type Page, expect, test } from '@playwright/test';
import { E2E_ADMINS, adminToken } from './support/admin.ts';
import { gotoHydrated } from './support/page.ts';
import { approvedReviews } from './support/reviews.ts';

/** Indexes of the slides whose box lies wholly inside the track's box (1 px tolerance). */
async function fullyVisibleSlides(page: Page): Promise<number[]> {
  return page.getByTestId('reviews-track').evaluate((track) => {
    const box = track.getBoundingClientRect();
    const slides = Array.from(track.querySelectorAll('[data-testid="review-slide"]'));
    return slides.flatMap((slide, index) => {
      const r = slide.getBoundingClientRect();
      const inside =
        r.width > 0 &&
        r.left >= box.left - 1 &&
        r.right <= box.right + 1 &&
        r.top >= box.top - 1 &&
        r.bottom <= box.bottom + 1;
      return inside ? [index] : [];
    });
  });
}

// Spec section 9: 5 slides at wide widths; 4 below 1500, 3 below 1200, 2 below 900, 1 below 500.
const CASES: [width: number, visible: number][] = [
  [1600, 5],
  [1300, 4],
  [1000, 3],
  [700, 2],
  [400, 1],
];

test.describe('reviews carousel', () => {
  // The carousel shows customers' approved reviews only (decision 039): six real ones, made the
  // way customers and an admin make them, so every width has more than it shows at once.
  test.beforeAll(async ({ request }) => {
    test.setTimeout(120_000);
    await approvedReviews(request, await adminToken(request, E2E_ADMINS.carousel), 6);
  });

  for (const [width, visible] of CASES) {
    test(`shows ${visible} whole review(s) at ${width}px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await gotoHydrated(page, '/');
      const track = page.getByTestId('reviews-track');
      await track.scrollIntoViewIfNeeded();
      expect(await page.getByTestId('review-slide').count()).toBeGreaterThan(visible);
      const widths = await page
        .getByTestId('review-slide')
        .evaluateAll((slides) => slides.map((el) => Math.round(el.getBoundingClientRect().width * 10) / 10));
      const trackWidth = await page.getByTestId('reviews-track').evaluate((el) => el.getBoundingClientRect().width);
      expect(
        await fullyVisibleSlides(page),
        `fully visible slides at ${width}px (track ${trackWidth}px wide, slide widths ${widths.join(', ')})`,
      ).toEqual(Array.from({ length: visible }, (_, i) => i));
    });
  }

  test('"Next reviews" scrolls the track by one slide and "Previous reviews" back', async ({ page }) => {
    // 1300px: four equal slides, so this test checks the buttons and not the slide sizing.
    await page.setViewportSize({ width: 1300, height: 900 });
    await gotoHydrated(page, '/');
    const track = page.getByTestId('reviews-track');
    await track.scrollIntoViewIfNeeded();
    const scrollLeft = () => track.evaluate((el) => el.scrollLeft);
    /** How far slide `index`'s left edge is from the track's content edge (snap-start with scroll padding aligns them). */
    const offset = (index: number) =>
      track.evaluate(
        (el, i) =>
          el.children[i].getBoundingClientRect().left -
          el.getBoundingClientRect().left -
          Number.parseFloat(getComputedStyle(el).paddingLeft),
        index,
      );

    expect(Math.abs(await offset(0))).toBeLessThanOrEqual(1);
    expect(await fullyVisibleSlides(page)).toEqual([0, 1, 2, 3]);
    const start = await scrollLeft();

    await page.getByRole('button', { name: 'Next reviews' }).click();
    await expect.poll(scrollLeft).toBeGreaterThan(start);
    // Smooth scrolling settles with the second slide at the track's left edge.
    await expect.poll(async () => Math.abs(await offset(1))).toBeLessThanOrEqual(1);
    expect(await fullyVisibleSlides(page)).toEqual([1, 2, 3, 4]);

    await page.getByRole('button', { name: 'Next reviews' }).click();
    await expect.poll(async () => Math.abs(await offset(2))).toBeLessThanOrEqual(1);
    expect(await fullyVisibleSlides(page)).toEqual([2, 3, 4, 5]);

    await page.getByRole('button', { name: 'Previous reviews' }).click();
    await expect.poll(async () => Math.abs(await offset(1))).toBeLessThanOrEqual(1);
    expect(await fullyVisibleSlides(page)).toEqual([1, 2, 3, 4]);
  });
});
