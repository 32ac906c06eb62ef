import { expect, test } from '@playwright/test';
import { expectNoSeriousAxeViolations } from './support/axe.ts';
import { gotoHydrated } from './support/page.ts';

/**
 * The course catalogue in a browser (decision 027): Load More reveals all eight and
 * moves focus to the first new course (and works without JavaScript), the share control uses the
 * Web Share API when there is one and otherwise copies the link with a visible "Link copied",
 * "Ask about this course" opens the contact form with the course named, and axe finds nothing
 * serious on /courses or a course page.
 */

// The pages send a CSP with script nonces, which would block the injected axe script.
test.use({ bypassCSP: true });

test.describe('courses', () => {
  test('Load More reveals all 8 courses and the keyboard goes on from the first new one', async ({ page }) => {
    await gotoHydrated(page, '/courses');
    await expect(page.getByRole('heading', { level: 1, name: 'Courses' })).toBeVisible();
    const cards = page.getByTestId('course-card');
    await expect(cards).toHaveCount(4);

    await page.getByRole('link', { name: 'Load More' }).click();
    await expect(page).toHaveURL(/\/courses\?all=1#more-courses$/);
    await expect(cards).toHaveCount(8);
    await expect(page.getByRole('link', { name: 'Load More' })).toHaveCount(0);
    // The page has no framework JavaScript: Load More is a link to the first new course, where the
    // browser starts the next Tab (keyboard and screen-reader users go on where the new ones begin).
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'IBM Data Science Certificate Prep' })).toBeFocused();
    await expect(page.getByTestId('course-count')).toHaveText('Showing 8 of 8 courses');

    // The cards lead to the course pages.
    await page.getByRole('link', { name: 'Agile with Jira' }).click();
    await expect(page).toHaveURL(/\/course\/agile-jira$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Agile with Jira' })).toBeVisible();
  });

  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false });
    test('Load More is a plain link that shows all 8', async ({ page }) => {
      await page.goto('/courses');
      await expect(page.getByTestId('course-card')).toHaveCount(4);
      await page.getByRole('link', { name: 'Load More' }).click();
      await expect(page).toHaveURL(/\/courses\?all=1/);
      await expect(page.getByTestId('course-card')).toHaveCount(8);
    });
  });

  test('without the Web Share API, Share copies the course link and says so', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.addInitScript(() => {
      // Desktop Chromium may or may not have navigator.share: take it away to test the fallback.
      Object.defineProperty(Navigator.prototype, 'share', { value: undefined, configurable: true });
    });
    await gotoHydrated(page, '/course/cybersecurity');
    const status = page.getByRole('status').filter({ hasText: /Link copied|Could not copy/ });
    await expect(status).toHaveCount(0);
    await page.getByRole('button', { name: 'Share this course' }).click();
    await expect(page.getByTestId('share-status')).toHaveText('Link copied');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toMatch(/^https?:\/\/[^/]+\/course\/cybersecurity$/);
  });

  test('with the Web Share API, Share opens the share sheet with the course', async ({ page }) => {
    await page.addInitScript(() => {
      const calls: ShareData[] = [];
      (window as unknown as { shareCalls: ShareData[] }).shareCalls = calls;
      Object.defineProperty(Navigator.prototype, 'share', {
        configurable: true,
        value: (data: ShareData) => {
          calls.push(data);
          return Promise.resolve();
        },
      });
    });
    await gotoHydrated(page, '/course/leadership-skills');
    await page.getByRole('button', { name: 'Share this course' }).click();
    const calls = await page.evaluate(() => (window as unknown as { shareCalls: ShareData[] }).shareCalls);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.title).toBe('Leadership Skills');
    expect(calls[0]?.url).toMatch(/\/course\/leadership-skills$/);
    await expect(page.getByTestId('share-status')).toHaveText('');
  });

  test('Ask about this course opens the contact form with the course named', async ({ page }) => {
    await gotoHydrated(page, '/course/ai-for-beginners');
    await expect(page.getByText('Buy Course')).toHaveCount(0);
    await page.getByTestId('ask-about-course').click();
    await expect(page).toHaveURL(/\/contact\?course=ai-for-beginners$/);
    await expect(page.getByLabel('Message', { exact: true })).toHaveValue(
      'I would like to know more about the course "AI for Beginners".',
    );
  });

  test('an unknown course is the not-found page with HTTP 404', async ({ page }) => {
    const response = await page.goto('/course/not-a-course');
    expect(response?.status()).toBe(404);
    await expect(page.getByText('The page you are looking for could not be found')).toBeVisible();
  });

  test('axe: /courses (all 8) and a course page', async ({ page }) => {
    await gotoHydrated(page, '/courses?all=1');
    await expectNoSeriousAxeViolations(page, '/courses?all=1');
    await gotoHydrated(page, '/course/google-cloud-data-engineer');
    await expectNoSeriousAxeViolations(page, '/course/google-cloud-data-engineer');
  });
});
