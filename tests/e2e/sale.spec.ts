/**
 * A configured sale in the browser (decisions 031 and 038), on a store of its own:
 * this spec starts the production build with SALE_* set (20 % off Instagram Followers, running
 * now) on a free port and a fresh data directory, next to the suite's shared server (which has
 * no sale). It checks what a buyer sees: the banner with a countdown that ticks, struck-through
 * list prices on home, the service page and the order page (cards and quantity dropdown), the
 * sandbox payment window charging the sale price beside the struck list price, and no banner on
 * a service of another group.
 */
import { type Page, expect, test } from '@playwright/test';
import {
  continueButton,
  enterTarget,
  openOrderForm,
  orderUrl,
  uniqueSuffix,
  verificationIcon,
} from './support/order.ts';
import { type OwnStore, startOwnStore } from './support/own-store.ts';
import { gotoHydrated } from './support/page.ts';

const HOUR = 3_600_000;
const IG_USERNAME = 'Instagram Username';
/** instagram-followers, Standard, 100: $2.99 before the sale, 20 % off rounded down to cents. */
const LIST = '$2.99';
const SALE = '$2.39';

let store: OwnStore | undefined;
let base = '';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const now = Date.now();
  store = await startOwnStore('sale', {
    SALE_PERCENT: '20',
    SALE_STARTS_AT: new Date(now - HOUR).toISOString(),
    SALE_ENDS_AT: new Date(now + 50 * HOUR).toISOString(),
    SALE_SERVICES: 'instagram-followers',
  });
  base = store.base;
});

test.afterAll(async () => {
  await store?.stop();
});

/** A list price struck through, then the sale price, inside `scope`. */
async function expectStruckPrice(scope: ReturnType<Page['locator']>, list: string, sale: string) {
  await expect(scope.getByTestId('list-price').first()).toContainText(list);
  await expect(scope.getByTestId('sale-price').first()).toContainText(sale);
  // <del> is struck through by the browser's own style: check it is not undone.
  const decoration = await scope
    .getByTestId('list-price')
    .first()
    .evaluate((element) => getComputedStyle(element).textDecorationLine);
  expect(decoration).toContain('line-through');
}

test('the banner names the sale and its countdown ticks; home shows struck list prices', async ({ page }) => {
  await gotoHydrated(page, `${base}/`);
  const banner = page.getByTestId('top-bar');
  await expect(banner).toBeVisible();
  await expect(page.getByTestId('sale-text')).toHaveText('Flash sale: 20% OFF on Instagram Followers');
  const countdown = page.getByTestId('countdown');
  // About 49 hours left (started an hour before the store, ends 50 hours after).
  await expect(countdown).toHaveText(/^(4[89]|50) hr \d\d min \d\d sec$/);
  const first = await countdown.textContent();
  await expect(countdown).not.toHaveText(first ?? '', { timeout: 5_000 });
  // The first package card of Instagram Followers (the home page's first service).
  await expectStruckPrice(page.locator('main'), LIST, SALE);
});

test('the service page and the order page show the list price struck through', async ({ page }) => {
  await gotoHydrated(page, `${base}/service/instagram-followers`);
  await expect(page.getByTestId('top-bar')).toBeVisible();
  await expect(page.getByText('Price before the sale').first()).toBeVisible();

  await gotoHydrated(page, `${base}${orderUrl('instagram-followers', 100, 'Standard')}`);
  await expectStruckPrice(page.locator('main'), LIST, SALE);
  // The quantity dropdown: the chosen package and every option.
  const dropdown = page.getByTestId('quantity-dropdown');
  await expectStruckPrice(dropdown, LIST, SALE);
  await dropdown.click();
  const options = page.getByTestId('quantity-option');
  await expect(options.first()).toBeVisible();
  const count = await options.count();
  expect(count).toBeGreaterThan(1);
  for (let i = 0; i < count; i += 1) {
    await expect(options.nth(i).getByTestId('list-price')).toHaveCount(1);
    await expect(options.nth(i).getByTestId('sale-price')).toHaveCount(1);
  }
});

test('the sandbox payment window charges the sale price beside the struck list price', async ({ page }) => {
  const suffix = uniqueSuffix();
  await openOrderForm(page, `${base}${orderUrl('instagram-followers', 100, 'Standard')}`, IG_USERNAME);
  await enterTarget(page, IG_USERNAME, `e2e.sale.${suffix}`.slice(0, 30));
  await expect(verificationIcon(page)).toHaveAttribute('data-state', 'success');
  await page.getByLabel('Email', { exact: true }).fill(`sale-${suffix}@example.com`);
  await expect(continueButton(page)).toBeEnabled();
  await continueButton(page).click();

  const dialog = page.getByRole('dialog', { name: 'Sandbox checkout' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('sandbox-list-price')).toContainText(LIST);
  await expect(dialog.getByTestId('sandbox-package-price')).toContainText(SALE);
  await expect(dialog.getByTestId('sandbox-amount')).toHaveText(SALE);
  await expect(dialog.getByRole('button', { name: `Pay ${SALE}` })).toBeVisible();
  await dialog.getByRole('button', { name: `Pay ${SALE}` }).click();
  await expect(page).toHaveURL(/\/order-confirm\/[A-Za-z0-9]+$/);
  await expect(page.getByTestId('order-amount')).toHaveText(SALE);
});

test('no banner and no struck prices on a service the sale does not cover', async ({ page }) => {
  await gotoHydrated(page, `${base}/service/tiktok-followers`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByTestId('top-bar')).toHaveCount(0);
  await expect(page.getByTestId('list-price')).toHaveCount(0);
});
