import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { type Page, expect } from '@playwright/test';
import { createCatalogue } from '../../core/catalogue/catalogue.ts';
import { openDatabase } from '../../db/database.ts';
import { AUTOMATIC_LIKES, DAILY_FOLLOWERS, subscriptionCatalogue } from '../support/subscription-catalogue.ts';
import { continueButton, enterTarget, orderUrl, uniqueSuffix, verificationIcon } from './support/order.ts';
import { type OwnStore, testOnOwnStore } from './support/own-store.ts';
import { gotoHydrated } from './support/page.ts';

/**
 * Buying automatic likes and daily followers through the order page (decision 057), on a phone and
 * on a laptop: the period's terms before payment, the lane notice when the account already has a
 * live order of the kind, the sandbox payment, the confirmation page's coverage and progress, and
 * /client's rows with the subscription's buttons. The services are added to a store of its own
 * (the shared store keeps the seed); its e-mails are files in its data directory.
 */

const test = testOnOwnStore('subscriptions');
const IG_USERNAME = 'Instagram Username';

test.beforeEach(async ({ page }) => {
  const octet = () => 1 + Math.floor(Math.random() * 254);
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': `10.${octet()}.${octet()}.${octet()}` });
});

/** The store's catalogue with the two subscription services, written once per worker's store. */
const stocked = new WeakMap<OwnStore, Promise<void>>();
function stock(store: OwnStore, page: Page): Promise<void> {
  let done = stocked.get(store);
  if (!done) {
    done = (async () => {
      const handle = openDatabase({ sqlitePath: path.join(store.dataDir, 'store.db') });
      try {
        await createCatalogue(handle.db).replaceCatalogue(subscriptionCatalogue);
      } finally {
        await handle.close();
      }
      // The running store follows the catalogue's version within about a second.
      await expect
        .poll(async () => (await page.request.get(orderUrl(AUTOMATIC_LIKES.slug, 100, 'Standard'))).status(), {
          timeout: 15_000,
        })
        .toBe(200);
      await expect
        .poll(async () => (await page.request.get(orderUrl(AUTOMATIC_LIKES.slug, 100, 'Standard'))).text(), {
          timeout: 15_000,
        })
        .toContain('likes per post');
    })();
    stocked.set(store, done);
  }
  return done;
}

/** The newest one-time code the store e-mailed to `email` (its .eml files), other than `previous`. */
async function codeFor(store: OwnStore, email: string, previous: string | null = null): Promise<string> {
  const dir = path.join(store.dataDir, 'mail');
  let code: string | undefined;
  await expect
    .poll(
      async () => {
        const files = (await readdir(dir).catch(() => [] as string[])).filter((name) => name.includes(email)).sort();
        for (const name of files.reverse()) {
          const text = await readFile(path.join(dir, name), 'utf8');
          if (!/^Subject: .*code/im.test(text)) continue;
          const found = /^\s*(\d{6})\s*$/m.exec(text)?.[1];
          if (found && found !== previous) {
            code = found;
            return true;
          }
        }
        return false;
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  return code!;
}

/** The page is no wider than the viewport. */
async function expectNoHorizontalOverflow(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

/**
 * Buys the open order page's tier through the sandbox window, for an account with no live order of
 * the kind (no lane notice); returns the confirmation page's order id.
 */
async function buy(page: Page, username: string, email: string): Promise<string> {
  await enterTarget(page, IG_USERNAME, username);
  await expect(verificationIcon(page)).toHaveAttribute('data-state', 'success');
  await expect(page.getByTestId('lane-notice')).toHaveCount(0);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await continueButton(page).click();
  await page.getByRole('dialog', { name: 'Sandbox checkout' }).getByRole('button', { name: /^Pay / }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Thank you');
  expect(new URL(page.url()).pathname).toMatch(/^\/order-confirm\//);
  return new URL(page.url()).pathname.split('/').pop()!;
}

/**
 * Waits until the order's subscription runs at the (simulated) panel: only then can it be
 * cancelled, since cancelling asks the panel to stop it.
 */
async function waitUntilRunning(page: Page, orderId: string) {
  await expect
    .poll(
      async () => {
        const reply = await page.request.get(`/api/order/order-status?orderId=${orderId}`);
        const body = (await reply.json()) as { data?: { subscription?: { running?: boolean } } };
        return body.data?.subscription?.running ?? false;
      },
      { timeout: 20_000 },
    )
    .toBe(true);
}

/** /client: the e-mail, its code, the rows. */
async function lookUpOrders(page: Page, store: OwnStore, email: string) {
  await gotoHydrated(page, '/client');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Send code', exact: true }).click();
  const codeField = page.getByLabel('6-digit code', { exact: true });
  await expect(codeField).toBeVisible();
  await codeField.fill(await codeFor(store, email));
  await page.getByRole('button', { name: 'Show my orders', exact: true }).click();
  await expect(page.getByTestId('orders-table')).toBeVisible();
}

const LIKES_PROGRESS = /^(Starts when it reaches our supplier|\d+ of 30 posts, \d+ days? left)$/;
const FOLLOWERS_PROGRESS =
  /^(Starts when it reaches our supplier|Day \d+ of 30: [\d,]+ of 3,000 followers, \d+ days? left)$/;

for (const viewport of [
  { name: 'a phone', size: { width: 390, height: 844 }, mobile: true },
  { name: 'a laptop', size: { width: 1366, height: 900 }, mobile: false },
]) {
  test.describe(`subscriptions on ${viewport.name}`, () => {
    test.use({ viewport: viewport.size, isMobile: viewport.mobile, hasTouch: viewport.mobile });

    test('buy automatic likes and daily followers, see their terms, the lane notice, and their progress in /client', async ({
      page,
      ownStore,
    }) => {
      await stock(ownStore, page);
      const suffix = uniqueSuffix();
      const email = `subs-${suffix}@example.com`;
      const username = `e2e.subs.${suffix}`.slice(0, 30);

      // Automatic likes: what a period covers, before payment.
      await gotoHydrated(page, orderUrl(AUTOMATIC_LIKES.slug, 100, 'Standard'));
      await expect(page.getByTestId('subscription-coverage')).toHaveText(
        'up to 30 new posts, 100 likes each, for 30 days',
      );
      await expect(page.getByTestId('subscription-renewal')).toHaveText(
        'No automatic charge: 3 days before the end we e-mail you a link to renew.',
      );
      await expect(page.getByTestId('quantity-dropdown')).toContainText('100 likes per post');
      await expectNoHorizontalOverflow(page);
      const likesOrder = await buy(page, username, email);
      await expect(page.getByTestId('order-coverage')).toHaveText(
        /^up to 30 new posts, 100 likes each, (for 30 days|until \d{1,2} [A-Z][a-z]{2} \d{4})$/,
      );
      await expect(page.getByTestId('order-progress')).toHaveText(LIKES_PROGRESS);
      await expectNoHorizontalOverflow(page);

      // The same account again: the buyer hears before paying that theirs will wait.
      await gotoHydrated(page, orderUrl(AUTOMATIC_LIKES.slug, 50, 'Standard'));
      await enterTarget(page, IG_USERNAME, `@${username}`);
      await expect(page.getByTestId('lane-notice')).toHaveText(
        /^This account already has an order of this kind running\. Yours will start when it finishes, expected by \d{1,2} [A-Z][a-z]{2} \d{4}\.$/,
      );
      await expectNoHorizontalOverflow(page);

      // Daily followers (another lane: followers go to the link, likes to new posts).
      await gotoHydrated(page, orderUrl(DAILY_FOLLOWERS.slug, 100, 'Standard'));
      await expect(page.getByTestId('subscription-coverage')).toHaveText(
        '100 followers a day for 30 days (3,000 in all)',
      );
      const followersOrder = await buy(page, username, email);
      await expect(page.getByTestId('order-progress')).toHaveText(FOLLOWERS_PROGRESS);

      // /client: both rows with their coverage, progress and buttons.
      await waitUntilRunning(page, likesOrder);
      await waitUntilRunning(page, followersOrder);
      await lookUpOrders(page, ownStore, email);
      const likesRow = page.locator(`[data-testid="order-row"][data-order-id="${likesOrder}"]`);
      const followersRow = page.locator(`[data-testid="order-row"][data-order-id="${followersOrder}"]`);
      await expect(likesRow.getByTestId('row-coverage')).toHaveText(/^up to 30 new posts, 100 likes each, /);
      await expect(likesRow.getByTestId('row-progress')).toHaveText(LIKES_PROGRESS);
      await expect(followersRow.getByTestId('row-coverage')).toHaveText(
        /^100 followers a day for 30 days \(3,000 in all\)/,
      );
      await expect(followersRow.getByTestId('row-progress')).toHaveText(FOLLOWERS_PROGRESS);
      for (const row of [likesRow, followersRow]) {
        await expect(row.getByRole('button', { name: 'Cancel subscription' })).toBeVisible();
        await expect(row.getByRole('switch', { name: 'Renewal reminders' })).toHaveAttribute('aria-checked', 'true');
      }
      await expectNoHorizontalOverflow(page);
    });

    test("a renewal link's address prefills the account and sends its token with the order", async ({
      page,
      ownStore,
    }) => {
      await stock(ownStore, page);
      const username = `e2e.renew.${uniqueSuffix()}`.slice(0, 30);
      const query = new URLSearchParams({ target: username, renewal: 'renewal-token-from-the-mail' });
      await gotoHydrated(page, `${orderUrl(DAILY_FOLLOWERS.slug, 50, 'Standard')}&${query.toString()}`);
      await expect(page.getByLabel(IG_USERNAME, { exact: true })).toHaveValue(username);
      await expect(verificationIcon(page)).toHaveAttribute('data-state', 'success');
      await page.getByLabel('Email', { exact: true }).fill(`renew-${uniqueSuffix()}@example.com`);
      const created = page.waitForRequest(
        (request) => request.method() === 'POST' && new URL(request.url()).pathname === '/api/order',
      );
      await continueButton(page).click();
      expect((await created).postDataJSON()).toMatchObject({
        name: username,
        renewalToken: 'renewal-token-from-the-mail',
      });
      await expect(page.getByRole('dialog', { name: 'Sandbox checkout' })).toBeVisible();
    });

    // Needs POST /api/order/subscription/reminders (branch wip-sub-renewal) and
    // POST /api/order/subscription/cancel (branch wip-sub-fulfil).
    test('turn renewal reminders off and cancel a subscription from /client, after a question that names the refund', async ({
      page,
      ownStore,
    }) => {
      await stock(ownStore, page);
      const suffix = uniqueSuffix();
      const email = `subs-cancel-${suffix}@example.com`;
      const username = `e2e.cancel.${suffix}`.slice(0, 30);
      await gotoHydrated(page, orderUrl(AUTOMATIC_LIKES.slug, 50, 'Standard'));
      const orderId = await buy(page, username, email);
      await waitUntilRunning(page, orderId);

      await lookUpOrders(page, ownStore, email);
      const row = page.locator(`[data-testid="order-row"][data-order-id="${orderId}"]`);
      const reminders = row.getByRole('switch', { name: 'Renewal reminders' });
      await reminders.click();
      await expect(reminders).toHaveAttribute('aria-checked', 'false');
      await expect(row.getByTestId('row-subscription-result')).toHaveText(/^Renewal reminders are off/);

      await row.getByRole('button', { name: 'Cancel subscription' }).click();
      const dialog = page.getByRole('dialog', { name: 'Cancel this subscription?' });
      await expect(dialog).toBeVisible();
      await expect(dialog).toContainText(/We will refund \$\d+\.\d{2}/);
      await expectNoHorizontalOverflow(page);
      // "Keep it" changes nothing.
      await dialog.getByRole('button', { name: 'Keep it' }).click();
      await expect(dialog).toHaveCount(0);
      await row.getByRole('button', { name: 'Cancel subscription' }).click();
      await page
        .getByRole('dialog', { name: 'Cancel this subscription?' })
        .getByRole('button', { name: 'Cancel subscription' })
        .click();
      await expect(row.getByTestId('row-subscription-result')).toBeVisible();
      await expect(row.getByTestId('row-subscription-error')).toHaveCount(0);
      await expect(row.getByRole('button', { name: 'Cancel subscription' })).toHaveCount(0);
    });
  });
}
