/**
 * Purchases through the hosted payment pages, in Chromium: a store process of its own (its own
 * data directory, SQLite) configured for Cryptomus and Solidgate, both pointing at local fakes
 * that speak each vendor's protocol and sign both ways. The buyer chooses the method on the order
 * page, is sent to the provider's page, pays there, the provider's signed webhook reaches the
 * store, and the buyer lands on the confirmation page, which shows the order paid. The time from
 * Continue to the paid confirmation is printed for the closing note.
 */
import { type Page, expect, test } from '@playwright/test';
import { type FakeCryptomus, startFakeCryptomus } from '../fakes/cryptomus.ts';
import { type FakeSolidgate, startFakeSolidgate } from '../fakes/solidgate.ts';
import { CRYPTOMUS_TEST_KEYS, SOLIDGATE_TEST_KEYS, cryptomusEnv, solidgateEnv } from '../support/provider-env.ts';
import { plan } from './support/catalogue.ts';
import { type OwnStore, startOwnStore } from './support/own-store.ts';
import {
  continueButton,
  enterTarget,
  openOrderForm,
  orderUrl,
  uniqueSuffix,
  verificationIcon,
} from './support/order.ts';

const IG_USERNAME = 'Instagram Username';
const FOLLOWERS = orderUrl('instagram-followers', 100, 'Standard');
const baseCents = Math.round(Number(plan('instagram-followers', 'Standard').tiers[0].price) * 100);
const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

test.describe.configure({ mode: 'serial' });

test.describe('purchases through the providers’ hosted pages', () => {
  let cryptomus: FakeCryptomus;
  let solidgate: FakeSolidgate;
  let server: OwnStore;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    cryptomus = await startFakeCryptomus(CRYPTOMUS_TEST_KEYS);
    solidgate = await startFakeSolidgate(SOLIDGATE_TEST_KEYS);
    // Cryptomus sends the buyer back to, and its webhook to, the store's own address.
    server = await startOwnStore('hosted-payments', (base) => ({
      PUBLIC_URL: base,
      ...cryptomusEnv(cryptomus.url),
      ...solidgateEnv(solidgate.url),
    }));
    solidgate.setWebhookUrl(`${server.base}/api/payments/solidgate/webhook`);
  });
  test.afterAll(async () => {
    await server?.stop();
    await cryptomus?.close();
    await solidgate?.close();
  });

  /** Fills the followers form on this store, chooses the method, and presses Continue; returns when. */
  async function orderWith(page: Page, method: 'crypto' | 'card-3ds') {
    const suffix = uniqueSuffix();
    await openOrderForm(page, `${server.base}${FOLLOWERS}`, IG_USERNAME);
    await enterTarget(page, IG_USERNAME, `e2e.hosted.${suffix}`.slice(0, 30));
    await expect(verificationIcon(page)).toHaveAttribute('data-state', 'success');
    await page.getByLabel('Email', { exact: true }).fill(`hosted-${suffix}@example.com`);
    await page.locator(`label[for="payment-method-${method}"]`).click();
    await expect(page.locator(`#payment-method-${method}`)).toBeChecked();
    await expect(continueButton(page)).toBeEnabled();
    const started = Date.now();
    await continueButton(page).click();
    return started;
  }

  test('crypto: Cryptomus invoice page → pay → webhook → paid confirmation', async ({ page }) => {
    const started = await orderWith(page, 'crypto');
    await expect(page).toHaveURL(new RegExp(`^${cryptomus.url}/pay/`));
    const cryptoCents = Math.round(baseCents * 0.95);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Pay ${(cryptoCents / 100).toFixed(2)} USD`);
    await page.getByRole('button', { name: 'Pay', exact: true }).click();

    await expect(page).toHaveURL(new RegExp(`^${server.base}/order-confirm/[A-Za-z0-9]+$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Thank you');
    await expect(page.getByTestId('order-amount')).toHaveText(dollars(cryptoCents));
    await expect(page.getByTestId('order-payment')).toHaveText(/paid/i);
    console.log(`hosted purchase, crypto (Cryptomus fake): Continue → paid confirmation in ${Date.now() - started} ms`);
    expect(cryptomus.webhooks.filter((w) => w.responseStatus === 200)).toHaveLength(1);
  });

  test('3-D Secure card: Solidgate payment page → pay → webhook → paid confirmation', async ({ page }) => {
    const started = await orderWith(page, 'card-3ds');
    await expect(page).toHaveURL(new RegExp(`^${solidgate.url}/payment-page/`));
    const cardCents = Math.round(baseCents * 1.05);
    await expect(page.locator('body')).toContainText(`${(cardCents / 100).toFixed(2)} USD`);
    await page.getByRole('button', { name: 'Pay', exact: true }).click();

    await expect(page).toHaveURL(new RegExp(`^${server.base}/order-confirm/[A-Za-z0-9]+$`));
    await expect(page.getByTestId('order-amount')).toHaveText(dollars(cardCents));
    await expect(page.getByTestId('order-payment')).toHaveText(/paid/i);
    console.log(
      `hosted purchase, 3-D Secure card (Solidgate fake): Continue → paid confirmation in ${Date.now() - started} ms`,
    );
  });
});
