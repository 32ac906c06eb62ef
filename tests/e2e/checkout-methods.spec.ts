import { type Page, expect, test } from '@playwright/test';
import { clientAddress } from './support/admin.ts';
import {
  continueButton,
  enterTarget,
  openOrderForm,
  orderUrl,
  uniqueSuffix,
  verificationIcon,
} from './support/order.ts';

/**
 * Paying with each payment method in the keyless store (the sandbox serves all three): the order
 * page's chooser shows each method's price for the package with its discount or surcharge, the
 * total follows the choice, the test payment window names the method being simulated and charges
 * that total, and the confirmation shows the method, its price change and the same total. The time
 * from Continue to the confirmation page is printed per method (the closing note's figure).
 *
 * And a confirmation page opened before the payment is confirmed (a buyer back from a hosted page)
 * waits for it, asking again every few seconds, and shows the payment once it is in.
 */

const FOLLOWERS_100 = orderUrl('instagram-followers', 100, 'Standard');
const IG_USERNAME = 'Instagram Username';

/** Instagram Followers, 100, Standard is $2.99: +5% and −5% rounded to whole cents. */
const METHODS = [
  { id: 'card', label: 'Card', total: '$2.99', adjustment: null },
  { id: 'card-3ds', label: 'Card, Apple Pay or Google Pay', total: '$3.14', adjustment: '+$0.15' },
  { id: 'crypto', label: 'Crypto', total: '$2.84', adjustment: '−$0.15' },
] as const;

async function fillBuyer(page: Page) {
  const suffix = uniqueSuffix();
  const email = `methods-${suffix}@example.com`;
  await openOrderForm(page, FOLLOWERS_100, IG_USERNAME);
  await enterTarget(page, IG_USERNAME, `methods.${suffix}`.slice(0, 30));
  await expect(verificationIcon(page)).toHaveAttribute('data-state', 'success');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await expect(continueButton(page)).toBeEnabled();
  return email;
}

test.describe('paying with each payment method', () => {
  test('the chooser lists the three methods with their prices, card first and chosen, and says test mode plainly', async ({
    page,
  }) => {
    await openOrderForm(page, FOLLOWERS_100, IG_USERNAME);
    const chooser = page.getByRole('group', { name: 'Payment method' });
    await expect(chooser).toContainText('Test mode: no money moves');
    await expect(chooser.getByRole('radio')).toHaveCount(3);
    await expect(chooser.getByRole('radio', { name: 'Card', exact: true })).toBeChecked();
    for (const method of METHODS) {
      await expect(page.getByTestId(`method-${method.id}-price`)).toHaveText(method.total);
    }
    await expect(page.getByTestId('method-card-badge')).toHaveCount(0);
    await expect(page.getByTestId('method-card-3ds-badge')).toHaveText(/\+5%$/);
    await expect(page.getByTestId('method-crypto-badge')).toHaveText(/−5%$/);
    await expect(page.getByTestId('order-total')).toHaveText('$2.99');
    await expect(page.getByTestId('order-adjustment')).toHaveCount(0);

    // A click anywhere on a card picks its method; the total and the discount line follow.
    await page.getByTestId('method-crypto').click();
    await expect(chooser.getByRole('radio', { name: 'Crypto' })).toBeChecked();
    await expect(page.getByTestId('order-total')).toHaveText('$2.84');
    await expect(page.getByTestId('order-adjustment')).toHaveText('−$0.15');
    // By keyboard: the arrow keys move between the methods.
    await chooser.getByRole('radio', { name: 'Crypto' }).press('ArrowUp');
    await expect(chooser.getByRole('radio', { name: 'Card, Apple Pay or Google Pay' })).toBeChecked();
    await expect(page.getByTestId('order-total')).toHaveText('$3.14');
    await expect(page.getByTestId('order-adjustment')).toHaveText('+$0.15');
  });

  for (const method of METHODS) {
    test(`${method.label}: the test window simulates it, Pay, the confirmation shows the method and ${method.total}`, async ({
      page,
    }) => {
      await page.setExtraHTTPHeaders({ 'x-forwarded-for': clientAddress() });
      await fillBuyer(page);
      await page.getByTestId(`method-${method.id}`).click();
      await expect(page.getByRole('radio', { name: method.label, exact: true })).toBeChecked();
      await expect(page.getByTestId('order-total')).toHaveText(method.total);

      const started = Date.now();
      await continueButton(page).click();
      const dialog = page.getByRole('dialog', { name: 'Sandbox checkout' });
      await expect(dialog).toBeVisible();
      const windowOpenMs = Date.now() - started;
      await expect(dialog.getByTestId('sandbox-method')).toHaveText(method.label);
      await expect(dialog).toContainText('Test mode: no money moves');
      await expect(dialog.getByTestId('sandbox-amount')).toHaveText(method.total);
      if (method.adjustment) await expect(dialog.getByTestId('sandbox-adjustment')).toHaveText(method.adjustment);
      else await expect(dialog.getByTestId('sandbox-adjustment')).toHaveCount(0);
      await dialog.getByRole('button', { name: `Pay ${method.total}` }).click();

      await expect(page).toHaveURL(/\/order-confirm\/[A-Za-z0-9]+$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Thank you');
      await expect(page.getByTestId('order-payment')).toHaveText('Paid');
      const confirmedMs = Date.now() - started;
      await expect(page.getByTestId('order-method')).toHaveText(method.label);
      await expect(page.getByTestId('order-amount')).toHaveText(method.total);
      if (method.adjustment) await expect(page.getByTestId('order-adjustment')).toHaveText(method.adjustment);
      else await expect(page.getByTestId('order-adjustment')).toHaveCount(0);
      await expect(page.getByTestId('awaiting-payment')).toHaveCount(0);
      await expect(page.getByTestId('confirm-test-mode')).toContainText('no money moved');
      console.log(
        `checkout timing, ${method.id}: Continue → payment window ${windowOpenMs} ms, Continue → paid confirmation ${confirmedMs} ms (the window's Pay clicked at once)`,
      );
    });
  }

  test('a closed window, then another method: the same order is paid at the new method’s price', async ({ page }) => {
    await page.setExtraHTTPHeaders({ 'x-forwarded-for': clientAddress() });
    await fillBuyer(page);
    await continueButton(page).click();
    const dialog = page.getByRole('dialog', { name: 'Sandbox checkout' });
    await expect(dialog.getByTestId('sandbox-method')).toHaveText('Card');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toHaveCount(0);

    await page.getByTestId('method-crypto').click();
    await continueButton(page).click();
    await expect(dialog.getByTestId('sandbox-method')).toHaveText('Crypto');
    await expect(dialog.getByTestId('sandbox-amount')).toHaveText('$2.84');
    await dialog.getByRole('button', { name: 'Pay $2.84' }).click();
    await expect(page).toHaveURL(/\/order-confirm\/[A-Za-z0-9]+$/);
    await expect(page.getByTestId('order-method')).toHaveText('Crypto');
    await expect(page.getByTestId('order-amount')).toHaveText('$2.84');
  });
});

test.describe('a confirmation page before the payment is confirmed', () => {
  test('says it is waiting, asks again by itself, and shows the payment once it is in', async ({ page }) => {
    const headers = { 'x-forwarded-for': clientAddress() };
    const suffix = uniqueSuffix();
    const created = await page.request.post('/api/order', {
      headers,
      data: {
        type: 'Standard',
        slug: 'instagram-followers',
        qty: 100,
        name: `waiting.${suffix}`.slice(0, 30),
        email: `waiting-${suffix}@example.com`,
        order_id: String(Math.floor(100_000 + Math.random() * 899_999)),
        paymentMethod: 'crypto',
      },
    });
    expect(created.status(), await created.text()).toBe(200);
    const order = ((await created.json()) as { data: { orderId: string; razorpay_order_id: string } }).data;

    await page.goto(`/order-confirm/${order.orderId}`);
    await expect(page.getByTestId('awaiting-payment')).toHaveText('Waiting for your payment to be confirmed…');
    await expect(page.getByTestId('order-payment')).toHaveText('Unpaid');
    await expect(page.getByTestId('order-method')).toHaveText('Crypto');

    // The payment arrives while the page is open (as a provider's webhook would bring it).
    const paid = await page.request.post('/api/sandbox/pay', {
      headers,
      data: { razorpay_order_id: order.razorpay_order_id },
    });
    expect(paid.status(), await paid.text()).toBe(200);
    const verified = await page.request.post('/api/order/verify-payment', {
      headers,
      data: ((await paid.json()) as { data: Record<string, string> }).data,
    });
    expect(verified.status(), await verified.text()).toBe(200);

    await expect(page.getByTestId('order-payment')).toHaveText('Paid', { timeout: 15_000 });
    await expect(page.getByTestId('awaiting-payment')).toHaveCount(0);
    await expect(page.getByTestId('receipt-note')).toContainText('receipt has been e-mailed');
  });
});
