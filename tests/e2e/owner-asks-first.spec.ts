import { type Page, expect } from '@playwright/test';
import { E2E_ADMINS, storeToken } from './support/admin.ts';
import { expectNoSeriousAxeViolations } from './support/axe.ts';
import { paidFollowersOrder, uniqueSuffix } from './support/order.ts';
import { testOnOwnStore } from './support/own-store.ts';
import { gotoHydrated } from './support/page.ts';

/**
 * Risky one-click actions ask first, and an owner follows one customer, at a phone's width and a
 * laptop's: a price of $0.01 opens a dialog naming the tier (Cancel keeps the old price live,
 * "Save anyway" makes the new one live); "Reorder" asks and its Cancel sends nothing; from an
 * order to all orders of its customer with their totals and back; an internal note kept across a
 * reload. Its price changes would show on the shared store, so it has a store of its own.
 */
const test = testOnOwnStore('owner-asks');

test.use({ bypassCSP: true });

const WIDTHS = [390, 1366] as const;

async function livePrice(page: Page, slug: string): Promise<number | undefined> {
  const reply = await page.request.get(`/api/services/${slug}`);
  const body = (await reply.json()) as {
    data: { services: { slug: string; plans: { list: { price: number }[] }[] }[] };
  };
  return body.data.services.find((s) => s.slug === slug)?.plans[0]?.list[0]?.price;
}

for (const width of WIDTHS) {
  test(`at ${width} px a price of $0.01 asks first: Cancel keeps the old price live, Save anyway makes it live`, async ({
    page,
    ownStore,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    const slug = width === 390 ? 'instagram-likes' : 'youtube-views';
    await storeToken(page, await ownStore.adminToken(E2E_ADMINS.catalogue, 'owner'));
    const before = await livePrice(page, slug);
    expect(before).toBeGreaterThan(0.25);

    await gotoHydrated(page, `/admin/catalogue/services/${slug}`);
    await expect(page.getByTestId('service-form')).toBeVisible();
    const price = page.locator('input[name="plans.0.tiers.0.price"]');
    await price.fill('0.01');
    await page.getByRole('button', { name: 'Save service' }).click();

    const dialog = page.getByRole('dialog', { name: 'Check this price' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByTestId('risky-prices')).toContainText(
      `$${before!.toFixed(2)} → $0.01 (below your floor of $0.25; less than half the current price)`,
    );
    await expectNoSeriousAxeViolations(page, `/admin/catalogue/services/${slug} asking about a price`);
    // The safe answer has the focus: Enter right away must not save.
    await expect(dialog.getByRole('button', { name: 'Cancel', exact: true })).toBeFocused();

    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect(dialog).toHaveCount(0);
    await expect(price).toHaveValue('0.01');
    expect(await livePrice(page, slug)).toBe(before);

    await page.getByRole('button', { name: 'Save service' }).click();
    await dialog.getByRole('button', { name: 'Save anyway' }).click();
    await expect(page.getByTestId('service-form-message')).toContainText('Service saved');
    expect(await livePrice(page, slug)).toBe(0.01);

    // The owner's floor sits on the catalogue page.
    await gotoHydrated(page, '/admin/catalogue');
    const floor = page.getByTestId('price-floor');
    await expect(floor.getByLabel('Lowest price without asking ($)')).toHaveValue('0.25');
    await expect(floor).toContainText('Not set yet: $0.25 applies.');
  });

  test(`at ${width} px Reorder asks first and its Cancel sends nothing; then the owner follows the customer and notes the order`, async ({
    page,
    ownStore,
  }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width, height: 900 });
    const email = `asks.${width}.${uniqueSuffix()}@example.com`.toLowerCase();
    const orderId = await paidFollowersOrder(page.request, email);
    await paidFollowersOrder(page.request, email);
    await storeToken(page, await ownStore.adminToken(E2E_ADMINS.console, 'owner'));

    // Whatever the simulated supplier has done by now, the page offers Reorder (as it does for an
    // order in delivery), so the dialog is what is tested.
    await page.route(`**/api/order/detail/${orderId}`, async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { data: { order: Record<string, unknown> } };
      Object.assign(body.data.order, { canReorder: true, canApplyService: false, pendingAction: null });
      return route.fulfill({ response, json: body });
    });
    let reorders = 0;
    await page.route('**/api/order/reorder', (route) => {
      reorders += 1;
      return route.fulfill({ status: 409, json: { isSuccessful: false, message: 'Refused for the test' } });
    });

    await gotoHydrated(page, `/admin/orders/${orderId}`);
    await page.getByRole('button', { name: `Reorder order ${orderId}` }).click();
    const question = page.getByRole('dialog', { name: 'Reorder at the supplier?' });
    await expect(question).toContainText('cancelled first');
    await expect(question).toContainText('charges to your balance again');
    await expectNoSeriousAxeViolations(page, '/admin/orders/:id asking before a reorder');
    await question.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect(question).toHaveCount(0);
    expect(reorders).toBe(0);
    await page.getByRole('button', { name: `Reorder order ${orderId}` }).click();
    await question.getByRole('button', { name: 'Cancel and send again' }).click();
    await expect.poll(() => reorders).toBe(1);
    await page.unroute(`**/api/order/detail/${orderId}`);

    // An internal note, kept as text across a reload.
    const note = `Phoned on Monday <b>${width}</b>: wants the rest by Friday.`;
    const box = page.getByTestId('order-note-text');
    await box.fill(note);
    await page.getByTestId('order-note-save').click();
    await expect(page.getByRole('status').filter({ hasText: 'Note saved' })).toBeVisible();
    await page.reload();
    await expect(page.getByTestId('order-note-text')).toHaveValue(note);
    await expect(page.getByTestId('order-note')).not.toContainText('Loading');

    // All orders of this customer, with the totals, and back to the order.
    await page.getByTestId('customer-orders-link').click();
    await expect(page).toHaveURL(
      new RegExp(`/admin/all-orders\\?email=${encodeURIComponent(email).replace('.', '\\.')}`),
    );
    const totals = page.getByTestId('customer-totals');
    await expect(totals.getByRole('heading', { name: `Orders of ${email}` })).toBeVisible();
    await expect(totals.getByTestId('customer-orders')).toHaveText('2');
    await expect(totals.getByTestId('customer-paid')).toHaveText(/^\$\d+\.\d{2}$/);
    await expect(totals.getByTestId('customer-refunded')).toHaveText('$0.00');
    await expect(page.getByTestId('orders-count')).toContainText('2');
    await expectNoSeriousAxeViolations(page, '/admin/all-orders?email=');
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth).toBeLessThanOrEqual(width);

    const customerUrl = page.url();
    // Back with the browser, and with the list's own link to the order it was opened from.
    await page.goBack();
    await expect(page).toHaveURL(new RegExp(`/admin/orders/${orderId}$`));
    await page.getByTestId('customer-orders-link').click();
    await page.getByTestId('back-to-order').click();
    await expect(page).toHaveURL(new RegExp(`/admin/orders/${orderId}$`));
    await expect(page.getByTestId('order-note-text')).toHaveValue(note);

    // Shareable: the address alone opens the same list with the same totals.
    await gotoHydrated(page, customerUrl);
    await expect(page.getByTestId('customer-orders')).toHaveText('2');
  });
}
