import { expect, test } from '@playwright/test';
import { codeFor, waitForMail } from './support/mail.ts';
import {
  continueButton,
  enterTarget,
  openOrderForm,
  orderUrl,
  uniqueSuffix,
  verificationIcon,
} from './support/order.ts';

/**
 * A purchase followed all the way: sandbox payment → the simulated supplier panel delivers
 * (within seconds in this suite, see playwright.config.ts) → the customer's order history,
 * opened with the code read from the SMTP server, shows "completed".
 */

const IG_USERNAME = 'Instagram Username';

test.beforeEach(async ({ page }) => {
  const octet = () => 1 + Math.floor(Math.random() * 254);
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': `10.${octet()}.${octet()}.${octet()}` });
});

test('buy in the sandbox → the simulated panel completes the order → /client shows "completed"', async ({ page }) => {
  test.setTimeout(90_000);
  const suffix = uniqueSuffix();
  const email = `delivered-${suffix}@example.com`;

  await openOrderForm(page, orderUrl('instagram-followers', 100, 'Standard'), IG_USERNAME);
  await enterTarget(page, IG_USERNAME, `e2e.delivered.${suffix}`.slice(0, 30));
  await expect(verificationIcon(page)).toHaveAttribute('data-state', 'success');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await continueButton(page).click();
  await page.getByRole('dialog', { name: 'Sandbox checkout' }).getByRole('button', { name: /^Pay / }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Thank you');
  const orderId = new URL(page.url()).pathname.split('/').pop()!;

  // The supplier's progress reaches the customer's inbox: delivery started, then complete.
  await waitForMail(
    (m) => m.to.includes(email) && m.subject.includes(orderId) && /is on its way/.test(m.subject),
    40_000,
  );
  await waitForMail(
    (m) => m.to.includes(email) && m.subject.includes(orderId) && /is complete/.test(m.subject),
    40_000,
  );

  await page.getByRole('link', { name: 'View all orders' }).click();
  await expect(page).toHaveURL(/\/client$/);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Send code', exact: true }).click();
  await page.getByLabel('6-digit code', { exact: true }).fill(await codeFor(email));
  await page.getByRole('button', { name: 'Show my orders', exact: true }).click();

  const row = page.getByTestId('order-row');
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('row-order-id')).toHaveText(orderId);
  await expect(row.getByTestId('row-status')).toHaveText('completed');
  await expect(row.getByTestId('row-payment')).toHaveText('Paid');
});
