/**
 * The confirmation page keeps still: its header and footer are there from the first frame it shows,
 * on a full load (server HTML kept through hydration) and after paying on the order page (a page
 * without them, so their chunk may not have been fetched yet), and the card never moves. An expired
 * order says so, offers the same package again at today's price, and tells what happened to money
 * that still arrived for it.
 */
import path from 'node:path';
import { type APIRequestContext, type Page, expect, test } from '@playwright/test';
import { expireOrder } from '../../core/orders/transitions/index.ts';
import { LATE_PAYMENT_MESSAGES } from '../../core/orders/late-payment.ts';
import { openDatabase } from '../../db/database.ts';
import { clientAddress } from './support/admin.ts';
import { expectNoSeriousAxeViolations } from './support/axe.ts';
import { homePrice, plan } from './support/catalogue.ts';
import {
  continueButton,
  enterTarget,
  openOrderForm,
  orderUrl,
  paidFollowersOrder,
  uniqueSuffix,
  verificationIcon,
} from './support/order.ts';
import { gotoHydrated } from './support/page.ts';

const IG_USERNAME = 'Instagram Username';

/** Sums every layout shift from the first paint on (buffered), as Lighthouse counts CLS. */
async function countLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const store = window as unknown as { __shift: number };
    store.__shift = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (!entry.hadRecentInput) store.__shift += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1366, height: 900 },
]) {
  test.describe(`the confirmation page at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('a full load shows the header and footer from the first paint and nothing shifts through hydration', async ({
      page,
    }) => {
      const orderId = await paidFollowersOrder(page.request, `confirm-${uniqueSuffix()}@example.com`);
      await countLayoutShifts(page);
      await gotoHydrated(page, `/order-confirm/${orderId}`);
      await page.waitForLoadState('networkidle');
      await page.evaluate(() => document.fonts.ready.then(() => undefined));
      await expect(page.getByTestId('site-header')).toBeVisible();
      await expect(page.getByTestId('site-footer')).toBeAttached();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Thank you');
      const shift = await page.evaluate(() => (window as unknown as { __shift: number }).__shift);
      expect(shift).toBeLessThan(0.02);
    });

    test('after paying on the order page, the card never shows without the header and footer, and does not move', async ({
      page,
    }) => {
      const suffix = uniqueSuffix();
      await openOrderForm(page, orderUrl('instagram-followers', 100, 'Standard'), IG_USERNAME);
      await enterTarget(page, IG_USERNAME, `e2e.confirm.${suffix}`.slice(0, 30));
      await expect(verificationIcon(page)).toHaveAttribute('data-state', 'success');
      await page.getByLabel('Email', { exact: true }).fill(`confirm-${suffix}@example.com`);
      await continueButton(page).click();
      const dialog = page.getByRole('dialog', { name: 'Sandbox checkout' });
      await expect(dialog).toBeVisible();

      // Watches every DOM change from here on: each time the card is in the document, the header
      // and the footer must be too, and the card's top must stay where it first appeared.
      await page.evaluate(() => {
        const record = window as unknown as { __cardAlone: number; __cardTops: number[] };
        record.__cardAlone = 0;
        record.__cardTops = [];
        const check = () => {
          const card = document.querySelector('[data-testid="order-summary"]');
          if (!card) return;
          if (
            !document.querySelector('[data-testid="site-header"]') ||
            !document.querySelector('[data-testid="site-footer"]')
          )
            record.__cardAlone += 1;
          const top = Math.round(card.getBoundingClientRect().top + window.scrollY);
          if (record.__cardTops.at(-1) !== top) record.__cardTops.push(top);
        };
        new MutationObserver(check).observe(document.documentElement, { childList: true, subtree: true });
        const everyFrame = () => {
          check();
          requestAnimationFrame(everyFrame);
        };
        requestAnimationFrame(everyFrame);
      });

      await dialog.getByRole('button', { name: /^Pay / }).click();
      await expect(page).toHaveURL(/\/order-confirm\/[A-Za-z0-9]+$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Thank you');
      await expect(page.getByTestId('site-header')).toBeVisible();
      await page.waitForLoadState('networkidle');
      await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 500)));
      const seen = await page.evaluate(() => {
        const record = window as unknown as { __cardAlone: number; __cardTops: number[] };
        return { alone: record.__cardAlone, tops: record.__cardTops };
      });
      expect(seen.alone).toBe(0);
      expect(seen.tops).toHaveLength(1);
    });
  });
}

const followersStandard = plan('instagram-followers', 'Standard');

/** An unpaid order of 100 Instagram Followers for `username`; its provider order id and public id. */
async function unpaidOrder(request: APIRequestContext, username: string) {
  const headers = { 'x-forwarded-for': clientAddress() };
  const created = await request.post('/api/order', {
    headers,
    data: {
      type: 'Standard',
      slug: 'instagram-followers',
      qty: 100,
      name: username,
      email: `${username.replace(/[^a-z0-9]/g, '')}@example.com`,
      order_id: String(Math.floor(100_000 + Math.random() * 899_999)),
    },
  });
  expect(created.status(), await created.text()).toBe(200);
  const providerOrderId = ((await created.json()) as { data: { razorpay_order_id: string } }).data.razorpay_order_id;
  return { providerOrderId, orderId: providerOrderId.replace(/^order_/, ''), headers };
}

/** Expires the order as the reconciler does after its lifetime (the suite cannot wait a day). */
async function expire(providerOrderId: string): Promise<void> {
  const handle = openDatabase({ sqlitePath: path.join(process.env.BOOSTLY_E2E_DATA_DIR!, 'store.db') });
  try {
    const order = await handle.db
      .selectFrom('orders')
      .select('id')
      .where('provider_order_id', '=', providerOrderId)
      .executeTakeFirstOrThrow();
    // The transaction writes first: a transaction that read first holds a snapshot, and if the
    // store (another process on the same file) writes before its update, SQLite refuses that update
    // at once ("database is locked") instead of waiting for the lock.
    await handle.db.transaction().execute(async (trx) => {
      expect(await expireOrder(trx, order.id)).toBe(true);
    });
  } finally {
    await handle.close();
  }
}

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1366, height: 900 },
]) {
  test.describe(`an expired order's confirmation page at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("says it expired and places it again at today's price, with the account filled in", async ({ page }) => {
      const username = `e2e.expired.${uniqueSuffix()}`.slice(0, 30);
      const { providerOrderId, orderId } = await unpaidOrder(page.request, username);
      await expire(providerOrderId);

      await gotoHydrated(page, `/order-confirm/${orderId}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('This order has expired');
      await expect(page.getByTestId('expired-note')).toContainText('nothing was charged');
      await expect(page.getByText('Thank you')).toHaveCount(0);
      const again = page.getByRole('link', { name: 'Place it again at today’s price' });
      await expect(again).toHaveAttribute(
        'href',
        `/order/instagram-followersGOI100?type=Standard&target=${encodeURIComponent(username)}`,
      );
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);

      await again.click();
      await expect(page).toHaveURL(/\/order\/instagram-followersGOI100\?type=Standard&target=/);
      await expect(page.getByLabel(IG_USERNAME, { exact: true })).toHaveValue(username);
      await expect(verificationIcon(page)).toHaveAttribute('data-state', 'success');
      await page.getByLabel('Email', { exact: true }).fill(`again-${uniqueSuffix()}@example.com`);
      await continueButton(page).click();
      // Today's catalogue price, charged as a new order.
      const dialog = page.getByRole('dialog', { name: 'Sandbox checkout' });
      await expect(dialog.getByTestId('sandbox-amount')).toHaveText(homePrice(followersStandard.tiers[0]));
    });

    test('money that still arrived for it is refunded, and the page says so', async ({ page }) => {
      const username = `e2e.late.${uniqueSuffix()}`.slice(0, 30);
      const { providerOrderId, orderId, headers } = await unpaidOrder(page.request, username);
      await expire(providerOrderId);
      // The buyer paid in a window left open past the order's lifetime.
      const paid = await page.request.post('/api/sandbox/pay', {
        headers,
        data: { razorpay_order_id: providerOrderId },
      });
      expect(paid.status(), await paid.text()).toBe(200);
      await page.request.post('/api/order/verify-payment', {
        headers,
        data: ((await paid.json()) as { data: Record<string, string> }).data,
      });

      await gotoHydrated(page, `/order-confirm/${orderId}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('This order has expired');
      const late = page.getByTestId('late-payment');
      // The refund job runs in the store's worker: being refunded, then refunded.
      await expect(async () => {
        await page.reload();
        await expect(late).toContainText(LATE_PAYMENT_MESSAGES.refunded, { timeout: 1_000 });
      }).toPass({ timeout: 20_000 });
      await expect(late).toContainText('We have not started this order.');
      await expect(page.getByRole('link', { name: 'Place it again at today’s price' })).toBeVisible();
    });
  });
}

test.describe('accessibility of the expired order page', () => {
  // axe is injected as a script, which the pages' CSP (script nonces) would block.
  test.use({ bypassCSP: true });

  test('axe: an expired order with a late payment', async ({ page }) => {
    const { providerOrderId, orderId, headers } = await unpaidOrder(
      page.request,
      `e2e.axe.${uniqueSuffix()}`.slice(0, 30),
    );
    await expire(providerOrderId);
    const paid = await page.request.post('/api/sandbox/pay', { headers, data: { razorpay_order_id: providerOrderId } });
    await page.request.post('/api/order/verify-payment', {
      headers,
      data: ((await paid.json()) as { data: Record<string, string> }).data,
    });
    await gotoHydrated(page, `/order-confirm/${orderId}`);
    await expect(page.getByTestId('late-payment')).toBeVisible();
    await expectNoSeriousAxeViolations(page, '/order-confirm/{expired id}');
  });
});
