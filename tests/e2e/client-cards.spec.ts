import { type Locator, type Page, expect, test } from '@playwright/test';
import { clientAddress } from './support/admin.ts';
import { codeFor, sentTo, waitForMail } from './support/mail.ts';
import { paidFollowersOrder, uniqueSuffix } from './support/order.ts';
import { gotoHydrated } from './support/page.ts';

/**
 * /client's orders on a phone and on a desktop: below the `md` breakpoint each order is one card
 * whose first thing is its status tag, with nothing off-screen sideways and its action a full-size
 * tap target that never breaks mid-word; on a desktop the same rows are a table with its header.
 */

test.beforeEach(async ({ page }) => {
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': clientAddress() });
});

/**
 * A completed order (so "Request refill" is offered) per width, each with its own e-mail: a second
 * code for one address within the resend interval would be refused.
 */
const customers = new Map<number, { email: string; orderId: string }>();

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  await Promise.all(
    [390, 1366].map(async (width) => {
      const email = `cards-${width}-${uniqueSuffix()}@example.com`;
      const orderId = await paidFollowersOrder(request, email);
      await waitForMail(
        (m) => sentTo(m, email) && m.subject.includes(orderId) && /is complete/.test(m.subject),
        60_000,
      );
      customers.set(width, { email, orderId });
    }),
  );
});

async function showOrders(page: Page, email: string): Promise<Locator> {
  await gotoHydrated(page, '/client');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Send code', exact: true }).click();
  await page.getByLabel('6-digit code', { exact: true }).fill(await codeFor(email));
  await page.getByRole('button', { name: 'Show my orders', exact: true }).click();
  const row = page.getByTestId('order-row');
  await expect(row).toHaveCount(1);
  return row;
}

test('390 px: one card per order, the status first, the action a whole tap target, no sideways scroll', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 390, height: 844 });
  const customer = customers.get(390)!;
  const row = await showOrders(page, customer.email);
  await expect(row.getByTestId('row-order-id')).toHaveText(customer.orderId);

  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(
    0,
  );
  // No column headers on a phone: each fact carries its own label in the card.
  await expect(page.getByRole('columnheader', { name: 'Status' })).toBeHidden();

  // The status tag is the first thing read in the card: nothing sits above it, and nothing on its
  // line comes before it.
  const placement = await row.evaluate((card) => {
    const status = card.querySelector('[data-testid="row-status"]');
    if (!status) return { ok: false, why: 'no status tag' };
    const s = status.getBoundingClientRect();
    const card_ = card.getBoundingClientRect();
    const before = Array.from(card.querySelectorAll('[data-testid]'))
      .filter((el) => !el.contains(status) && !status.contains(el))
      .map((el) => ({ id: el.getAttribute('data-testid'), r: el.getBoundingClientRect() }))
      .filter(({ r }) => r.width > 0 && r.height > 0)
      .filter(({ r }) => r.bottom <= s.top + 1 || (r.top < s.bottom - 1 && r.right <= s.left + 1));
    return {
      ok: before.length === 0 && s.left >= card_.left && s.right <= card_.right,
      why: before.map((b) => b.id).join(', '),
    };
  });
  expect(placement.ok, `before the status tag: ${placement.why}`).toBe(true);
  const viewportWidth = 390;
  for (const id of [
    'row-status',
    'row-service',
    'row-quantity',
    'row-target',
    'row-price',
    'row-payment',
    'row-date',
  ]) {
    const box = await row.getByTestId(id).boundingBox();
    expect(box, id).not.toBeNull();
    expect(box!.x, id).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width, id).toBeLessThanOrEqual(viewportWidth);
  }

  const refill = row.getByRole('button', { name: 'Request refill' });
  await expect(refill).toBeVisible();
  const box = (await refill.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(viewportWidth);
  expect(box.height).toBeGreaterThanOrEqual(44);
  // Its words on one line: the text's boxes share one top.
  const lines = await refill.evaluate((button) => {
    const range = document.createRange();
    range.selectNodeContents(button);
    return new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top))).size;
  });
  expect(lines).toBe(1);

  // The narrowest and widest common phones too: nothing sideways, the action whole and in view.
  for (const width of [360, 430]) {
    await page.setViewportSize({ width, height: 844 });
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
      `${width} px`,
    ).toBe(0);
    const at = (await refill.boundingBox())!;
    expect(at.x + at.width, `${width} px`).toBeLessThanOrEqual(width);
    expect(at.height, `${width} px`).toBeGreaterThanOrEqual(44);
  }
});

test('1366 px: the orders are a table with its column headers', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1366, height: 900 });
  const customer = customers.get(1366)!;
  const row = await showOrders(page, customer.email);
  await expect(row.getByTestId('row-order-id')).toHaveText(customer.orderId);
  const table = page.getByTestId('orders-table');
  await expect(table).toBeVisible();
  for (const name of ['Order ID', 'Service', 'Target', 'Quantity', 'Price', 'Status', 'Payment', 'Date']) {
    await expect(table.getByRole('columnheader', { name, exact: true })).toBeVisible();
  }
  expect(await row.evaluate((el) => getComputedStyle(el).display)).toBe('table-row');
  // The status and the action sit in the row, on one line with the order id.
  const idBox = (await row.getByTestId('row-order-id').boundingBox())!;
  const statusBox = (await row.getByTestId('row-status').boundingBox())!;
  expect(statusBox.x).toBeGreaterThan(idBox.x);
  expect(Math.abs(statusBox.y - idBox.y)).toBeLessThan(24);
  const refill = row.getByRole('button', { name: 'Request refill' });
  await expect(refill).toBeVisible();
  // Every column in view: the table needs no sideways scrolling of its own at this width.
  const region = page.getByRole('region', { name: /^Orders for / });
  expect(await region.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  const regionBox = (await region.boundingBox())!;
  const refillBox = (await refill.boundingBox())!;
  expect(refillBox.x + refillBox.width).toBeLessThanOrEqual(regionBox.x + regionBox.width);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(
    0,
  );
});
