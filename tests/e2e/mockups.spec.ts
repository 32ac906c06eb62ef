import { expect, test } from '@playwright/test';
import { expectNoSeriousAxeViolations } from './support/axe.ts';
import { gotoHydrated } from './support/page.ts';

/**
 * The mock-up page (docs/decisions/028-mock-up-pages.md): /free-followers validates and answers a
 * valid submit with the honest preview notice; axe on it. (The payment mock-up's addresses now
 * redirect home: tests/integration/mockup-pages.test.ts.)
 */

// The pages send a CSP with script nonces, which would block the injected axe script.
test.use({ bypassCSP: true });

test.describe('free followers preview', () => {
  test('validates, fills the quantity from a package, and answers honestly', async ({ page }) => {
    await gotoHydrated(page, '/free-followers');
    await expect(page.getByRole('heading', { level: 1, name: 'Free Instagram Followers' })).toBeVisible();
    await expect(page.getByTestId('preview-banner')).toContainText('free trials are not offered yet');
    await expect(page.getByRole('button', { name: 'Get Free Followers' })).toHaveCount(3);
    await expect(page.getByLabel('Followers Quantity')).toHaveAttribute('placeholder', '10-350000');

    await page.getByTestId('get-free-followers-top').click();
    await expect(page.getByTestId('username-error')).toHaveText('Username is required');
    await expect(page.getByTestId('quantity-error')).toHaveText('Followers quantity is required');
    await expect(page.getByLabel('Username')).toBeFocused();
    await expect(page.getByTestId('free-followers-errors')).toHaveText('Check the 2 highlighted fields.');

    await page.getByLabel('Username').fill('bad..name');
    await page.getByLabel('Followers Quantity').fill('9');
    await page.getByTestId('get-free-followers-form').click();
    await expect(page.getByTestId('username-error')).toContainText('Enter an Instagram username');
    await expect(page.getByTestId('quantity-error')).toHaveText('Enter between 10 and 350,000 followers');
    await page.getByLabel('Followers Quantity').fill('12.5');
    await expect(page.getByTestId('quantity-error')).toHaveText(
      'Enter the number of followers as a whole number, e.g. 500',
    );

    await page.getByRole('button', { name: /^2,500 Followers/ }).click();
    await expect(page.getByLabel('Followers Quantity')).toHaveValue('2500');
    await expect(page.getByRole('button', { name: /^2,500 Followers/ })).toHaveAttribute('aria-pressed', 'true');
    // The package's quantity is checked again at once: its message goes without typing.
    await expect(page.getByTestId('quantity-error')).toBeHidden();
    await expect(page.getByTestId('username-error')).toContainText('Enter an Instagram username');
    await page.getByLabel('Username').fill('@good.name');
    await page.getByTestId('get-free-followers-packages').click();

    const notice = page.getByTestId('free-followers-notice');
    await expect(notice).toContainText('Free trials are not offered yet.');
    await expect(notice).toContainText('@good.name will not receive 2,500 free followers');
    await expect(notice).toBeFocused();
    await expect(page.getByTestId('free-followers-real-service')).toHaveAttribute(
      'href',
      '/service/instagram-followers',
    );
    await expectNoSeriousAxeViolations(page, '/free-followers (notice shown)');
  });
});
