import { expect, test } from '@playwright/test';
import { E2E_ADMINS, logIn } from './support/admin.ts';
import { expectNoSeriousAxeViolations } from './support/axe.ts';
import { waitForMail } from './support/mail.ts';
import { paidFollowersOrder, uniqueSuffix } from './support/order.ts';
import { gotoHydrated } from './support/page.ts';

// The pages send a CSP with script nonces, which would block the injected axe script.
test.use({ bypassCSP: true });

/**
 * The owner refunds part of a delivered order from its detail page: the dialog opens with what is
 * left, asks before any money moves, a double click on the confirmation is one refund, and the
 * page then lists the refund in words and what is left. The customer is e-mailed.
 */
test('the owner refunds part of an order once, after confirming', async ({ page, request }) => {
  test.setTimeout(120_000);
  const email = `refund-${uniqueSuffix()}@example.com`;
  const orderId = await paidFollowersOrder(request, email);
  // Delivered first (the simulated panel completes in seconds): a running order offers the cancel first.
  await waitForMail(
    (m) => m.to.includes(email) && m.subject.includes(orderId) && /is complete/.test(m.subject),
    40_000,
  );

  await logIn(page, E2E_ADMINS.refunds);
  await gotoHydrated(page, `/admin/orders/${orderId}`);
  const money = page.getByTestId('order-money');
  await expect(money.getByTestId('order-payment-role')).toHaveText('Paid this order');
  const leftBefore = (await money.getByTestId('order-payment-left').textContent()) ?? '';
  const paidCents = Math.round(Number(leftBefore.replace(/[^0-9.]/g, '')) * 100);
  expect(paidCents).toBeGreaterThan(100);

  await money.getByRole('button', { name: 'Refund', exact: true }).click();
  const dialog = page.getByTestId('refund-dialog');
  await expect(dialog.getByRole('heading', { name: 'Refund' })).toBeVisible();
  const amount = dialog.getByLabel(/^Amount/);
  await expect(amount).toHaveValue((paidCents / 100).toFixed(2));
  await expectNoSeriousAxeViolations(page, '/admin/orders/:id with the refund dialog');

  // More than is left, and no reason: said at each field, nothing sent.
  await amount.fill(((paidCents + 1) / 100).toFixed(2));
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog.getByText(/^At most \$/)).toBeVisible();
  await expect(dialog.getByText('Say why you are refunding: the customer reads it')).toBeVisible();

  await amount.fill('1.00');
  await dialog.getByLabel('Reason').fill('Sorry for the slow start');
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog.getByTestId('refund-question')).toHaveText(
    "Refund $1.00 to the buyer's card through Test payments?",
  );
  await dialog.getByTestId('refund-confirm').dblclick();
  await expect(
    page.getByRole('status').filter({ hasText: 'Refunded $1.00 to the buyer through Test payments.' }),
  ).toBeVisible();
  await expect(dialog).toHaveCount(0);

  const refunds = money.getByTestId('order-refund');
  await expect(refunds).toHaveCount(1);
  await expect(refunds.getByTestId('order-refund-state')).toHaveText('Refunded');
  await expect(refunds).toContainText('Sorry for the slow start');
  await expect(refunds).toContainText(`by ${E2E_ADMINS.refunds}`);
  await expect(money.getByTestId('order-payment-left')).toHaveText(`$${((paidCents - 100) / 100).toFixed(2)}`);

  const mail = await waitForMail((m) => m.to.includes(email) && /\$1\.00 refunded/.test(m.subject), 30_000);
  expect(mail.text).toContain('Sorry for the slow start');
});

test('a spent or unknown refund link says so and points to support', async ({ page }) => {
  await gotoHydrated(page, '/refund/not-a-refund-link-0123456789');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('This refund link does not work');
  await expect(page.getByRole('link', { name: 'write to our support team' })).toHaveAttribute('href', '/contact');
  expect(await page.locator('meta[name="robots"]').getAttribute('content')).toContain('noindex');
});
