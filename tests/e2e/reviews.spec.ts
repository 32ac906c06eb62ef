import { type Page, expect, test } from '@playwright/test';
import { E2E_ADMINS, adminToken, clientAddress, storeToken } from './support/admin.ts';
import { expectNoSeriousAxeViolations } from './support/axe.ts';
import { gotoHydrated } from './support/page.ts';
import { paidFollowersOrder, uniqueSuffix } from './support/order.ts';
import { reviewPathFromMail } from './support/reviews.ts';

/**
 * Real reviews end to end (decision 039): a sandbox purchase the simulated panel
 * completes → the completion e-mail's link → the review page (its checks, the stars, the
 * submit) → the link is spent → the review waits in /admin/reviews → approved → it is on the home
 * page and its service page's JSON-LD has an AggregateRating. axe on both new pages.
 */

test.use({ bypassCSP: true });

test.beforeEach(async ({ page }) => {
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': clientAddress() });
});

/** The Product block of a page's JSON-LD. */
async function productJsonLd(page: Page): Promise<Record<string, unknown> | undefined> {
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
  return blocks
    .map((text) => JSON.parse(text) as unknown)
    .flatMap((block) => (Array.isArray(block) ? block : [block]) as Record<string, unknown>[])
    .find((block) => block['@type'] === 'Product');
}

test('complete an order → review from the e-mail link → approve → on the home page and in the JSON-LD', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const suffix = uniqueSuffix();
  const email = `reviewer-${suffix}@example.com`;
  const orderId = await paidFollowersOrder(request, email);
  const reviewPath = await reviewPathFromMail(email);

  await gotoHydrated(page, reviewPath);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Review your order');
  const facts = page.getByTestId('reviewed-order');
  await expect(facts).toContainText('Instagram Followers');
  await expect(page.locator('body')).not.toContainText(email);
  await expectNoSeriousAxeViolations(page, 'review page');

  // The browser's check, with the API's words, before anything is sent.
  await page.getByRole('button', { name: 'Send review' }).click();
  await expect(page.getByTestId('rating-error')).toHaveText('Choose a rating from 1 to 5 stars');
  await expect(page.getByTestId('text-error')).toHaveText('Please write a few words about your order');
  await expect(page.getByTestId('name-error')).toBeVisible();
  await expectNoSeriousAxeViolations(page, 'review page with errors');

  // The stars are a radio group: keyboard and name work.
  await page.getByRole('radio', { name: '4 stars' }).check();
  await expect(page.getByRole('radio', { name: '4 stars' })).toBeChecked();
  const text = `Followers arrived steadily within two days. Review ${suffix}.`;
  await page.getByLabel('Your review').fill(text);
  await page.getByLabel('Your first name or a nickname').fill('Priya');
  await page.getByRole('button', { name: 'Send review' }).click();
  await expect(page.getByTestId('review-sent')).toContainText('Thank you');

  // The link is spent: opened again, it says so and points to support.
  await gotoHydrated(page, reviewPath);
  await expect(page.getByTestId('review-link-problem')).toHaveAttribute('data-problem', 'used');
  await expect(page.getByRole('link', { name: 'write to our support team' })).toHaveAttribute('href', '/contact');
  await expectNoSeriousAxeViolations(page, 'review page, link used');

  // Moderation: pending first, with its order; approve.
  await storeToken(page, await adminToken(request, E2E_ADMINS.reviews));
  await gotoHydrated(page, '/admin/reviews');
  await expect(page.getByRole('heading', { level: 1, name: 'Reviews' })).toBeVisible();
  await expect(page.getByTestId('pending-reviews-count')).toBeVisible();
  const row = page.getByTestId('review-row').filter({ hasText: text });
  await expect(row).toHaveAttribute('data-state', 'pending');
  await expect(row.getByTestId('review-order-link')).toHaveAttribute('href', `/admin/orders/${orderId}`);
  await expectNoSeriousAxeViolations(page, 'admin reviews');
  await row.getByRole('button', { name: /^Approve/ }).click();
  await expect(row).toHaveAttribute('data-state', 'approved');
  await expect(page.getByRole('status').filter({ hasText: 'Review approved' })).toBeVisible();

  // Public: the home page's carousel and the service page's AggregateRating.
  await gotoHydrated(page, '/');
  await expect(page.getByTestId('reviews').getByText(text)).toBeAttached();
  await gotoHydrated(page, '/service/instagram-followers');
  const product = await productJsonLd(page);
  expect(product?.aggregateRating).toMatchObject({ '@type': 'AggregateRating', bestRating: 5, worstRating: 1 });
  expect((product?.aggregateRating as { reviewCount: number }).reviewCount).toBeGreaterThanOrEqual(1);
});

test('an unknown review link explains itself and points to support', async ({ page }) => {
  await gotoHydrated(page, `/review/${'x'.repeat(43)}`);
  await expect(page.getByTestId('review-link-problem')).toHaveAttribute('data-problem', 'unknown');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('This review link does not work');
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex, nofollow');
  await expectNoSeriousAxeViolations(page, 'review page, unknown link');
});
