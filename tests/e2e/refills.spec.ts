import { type Page, expect, test } from '@playwright/test';
import { E2E_ADMINS, logIn } from './support/admin.ts';
import { expectNoSeriousAxeViolations } from './support/axe.ts';
import { codeFor, waitForMail } from './support/mail.ts';
import {
  continueButton,
  enterTarget,
  openOrderForm,
  orderUrl,
  uniqueSuffix,
  verificationIcon,
} from './support/order.ts';
import { gotoHydrated } from './support/page.ts';

// The pages send a CSP with script nonces, which would block the injected axe script.
test.use({ bypassCSP: true });

/**
 * Refills (decision 040) as a customer and an admin see them: a completed order (the simulated
 * panel delivers in seconds here, playwright.config.ts) offers "Request refill" in /client, the
 * request reaches the panel and its state shows in the row; on /admin/orders/:id the "At the
 * supplier" panel offers a refill, answers with a toast and a timeline entry, and names why a
 * cancel is not offered for a finished order.
 */

const IG_USERNAME = 'Instagram Username';

test.beforeEach(async ({ page }) => {
  const octet = () => 1 + Math.floor(Math.random() * 254);
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': `10.${octet()}.${octet()}.${octet()}` });
});

/** Buys 100 followers in the sandbox and waits until the order is complete; returns its ids. */
async function buyCompleted(page: Page, label: string): Promise<{ orderId: string; email: string }> {
  const suffix = uniqueSuffix();
  const email = `${label}-${suffix}@example.com`;
  await openOrderForm(page, orderUrl('instagram-followers', 100, 'Standard'), IG_USERNAME);
  await enterTarget(page, IG_USERNAME, `e2e.${label}.${suffix}`.slice(0, 30));
  await expect(verificationIcon(page)).toHaveAttribute('data-state', 'success');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await continueButton(page).click();
  await page.getByRole('dialog', { name: 'Sandbox checkout' }).getByRole('button', { name: /^Pay / }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Thank you');
  const orderId = new URL(page.url()).pathname.split('/').pop()!;
  await waitForMail(
    (m) => m.to.includes(email) && m.subject.includes(orderId) && /is complete/.test(m.subject),
    40_000,
  );
  return { orderId, email };
}

test('a customer requests a refill of a completed order in /client and sees its state', async ({ page }) => {
  test.setTimeout(120_000);
  const { orderId, email } = await buyCompleted(page, 'refill');

  await gotoHydrated(page, '/client');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Send code', exact: true }).click();
  await page.getByLabel('6-digit code', { exact: true }).fill(await codeFor(email));
  await page.getByRole('button', { name: 'Show my orders', exact: true }).click();

  const row = page.getByTestId('order-row');
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('row-order-id')).toHaveText(orderId);
  const button = row.getByRole('button', { name: 'Request refill' });
  await expect(button).toBeVisible();
  await expectNoSeriousAxeViolations(page, '/client with a refill offered');

  await button.click();
  await expect(row.getByTestId('row-refill-state')).toHaveText(/^Refill: (Pending|In progress|Completed)$/);
  // One open refill per order: no second button while it runs.
  await expect(row.getByRole('button', { name: 'Request refill' })).toHaveCount(0);
  await expectNoSeriousAxeViolations(page, '/client with a refill requested');
});

test('an admin requests a refill from the order detail: toast and timeline; no cancel for a finished order', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { orderId } = await buyCompleted(page, 'adminrefill');
  await logIn(page, E2E_ADMINS.refills);
  await gotoHydrated(page, `/admin/orders/${orderId}`);

  const panel = page.getByTestId('supplier-actions');
  await expect(panel.getByRole('heading', { name: 'At the supplier' })).toBeVisible();
  await expect(panel.getByTestId('supplier-cancel-reason')).toHaveText(/^Cancel: Nothing to cancel/);
  await expect(panel.getByRole('button', { name: 'Cancel at supplier' })).toHaveCount(0);
  const refill = panel.getByRole('button', { name: 'Request refill' });
  await expect(refill).toBeVisible();
  await expectNoSeriousAxeViolations(page, '/admin/orders/:id with the supplier panel');

  // It asks first: "Cancel" sends nothing, the dialog's yes sends the request.
  await refill.click();
  const question = page.getByRole('dialog', { name: 'Ask the supplier for a refill?' });
  await question.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(question).toHaveCount(0);
  await expect(page.getByTestId('timeline-kind').filter({ hasText: /^Refill requested$/ })).toHaveCount(0);
  await refill.click();
  await question.getByRole('button', { name: 'Ask for a refill' }).click();
  await expect(page.getByRole('status').filter({ hasText: /Refill \d+ requested at the supplier/ })).toBeVisible();
  await expect(page.getByTestId('timeline-kind').filter({ hasText: /^Refill requested$/ })).toHaveCount(1);
  await expect(page.getByTestId('timeline-kind').filter({ hasText: /^Refill accepted by the supplier$/ })).toHaveCount(
    1,
  );
  await expect(panel.getByTestId('supplier-refill-state').first()).toHaveText(/^(Pending|In progress|Completed)$/);
  // While it is open the server refuses a second one, so the button is gone and the reason shows.
  await expect(panel.getByRole('button', { name: 'Request refill' })).toHaveCount(0);
});
