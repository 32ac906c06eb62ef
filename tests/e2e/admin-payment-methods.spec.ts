import { expect, test } from '@playwright/test';
import { E2E_ADMINS, adminToken, storeToken } from './support/admin.ts';
import { expectNoSeriousAxeViolations } from './support/axe.ts';
import { gotoHydrated } from './support/page.ts';

/**
 * The owner's payment methods page: reached from the admin navigation, it lists the sandbox's
 * three methods in test mode with their price changes; typing a change shows what a $10.00
 * package then costs; a discount over 20% asks first, and Cancel saves nothing; a saved change
 * is there after a reload. The default is put back at the end: other suites check out by crypto
 * at its default discount.
 */

// The pages send a CSP with script nonces, which would block the injected axe script.
test.use({ bypassCSP: true });

test('the owner sets a payment method’s price change, with a preview and a question before a deep discount', async ({
  page,
  request,
}) => {
  const token = await adminToken(request, E2E_ADMINS.paymentMethods);
  await storeToken(page, token);
  await page.setViewportSize({ width: 1366, height: 900 });
  await gotoHydrated(page, '/admin/all-orders');
  await page.getByRole('navigation', { name: /admin/i }).getByRole('link', { name: 'Payment methods' }).click();
  await expect(page).toHaveURL(/\/admin\/payment-methods$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Payment methods' })).toBeVisible();

  const methods = page.getByTestId('payment-method');
  await expect(methods).toHaveCount(3);
  const crypto = page.locator('[data-testid="payment-method"][data-method="crypto"]');
  await expect(crypto.getByRole('heading', { name: 'Crypto' })).toBeVisible();
  await expect(crypto.getByTestId('payment-method-mode')).toHaveText('Test mode: payments are simulated');
  await expect(crypto.getByText('Test payments')).toBeVisible();
  const percent = crypto.getByLabel('Price change (%)');
  await expect(percent).toHaveValue('-5');
  await expect(crypto.getByTestId('payment-method-preview')).toContainText('A $10.00 package costs $9.50.');
  await expectNoSeriousAxeViolations(page, '/admin/payment-methods');

  // Out of bounds: said at the field, and nothing to save.
  await percent.fill('-60');
  await expect(crypto.getByText('Enter a percent from -50 to 50.')).toBeVisible();
  await expect(page.getByTestId('payment-methods-save')).toBeDisabled();

  // A deep discount asks first; Cancel leaves it unsaved.
  await percent.fill('-25');
  await expect(crypto.getByTestId('payment-method-preview')).toContainText('A $10.00 package costs $7.50.');
  await page.getByTestId('payment-methods-save').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('a $10.00 package would sell for $7.50');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  const saved = async () =>
    (
      await (await request.get('/api/admin/payment-methods', { headers: { authorization: `Bearer ${token}` } })).json()
    ).data.methods.find((m: { id: string }) => m.id === 'crypto').adjustmentPercent;
  expect(await saved()).toBe(-5);

  await page.getByTestId('payment-methods-save').click();
  await dialog.getByRole('button', { name: 'Save the discount' }).click();
  await expect(page.getByText('Payment method prices saved')).toBeVisible();
  expect(await saved()).toBe(-25);
  await page.reload();
  await expect(page.locator('[data-method="crypto"]').getByLabel('Price change (%)')).toHaveValue('-25');

  // Back to the default (a small change: no question).
  await page.locator('[data-method="crypto"]').getByLabel('Price change (%)').fill('-5');
  await page.getByTestId('payment-methods-save').click();
  await expect(page.getByText('Payment method prices saved')).toBeVisible();
  expect(await saved()).toBe(-5);
});
