import { expect, test } from '@playwright/test';
import { E2E_ADMINS, adminToken, clientAddress, storeToken } from './support/admin.ts';
import { expectNoSeriousAxeViolations } from './support/axe.ts';
import { plan, service } from './support/catalogue.ts';
import { uniqueSuffix } from './support/order.ts';
import { gotoHydrated } from './support/page.ts';

/**
 * The owner's dashboard (decision 042): reached from the admin navigation, it shows what needs
 * attention (the simulated panel's balance included), the period's tiles and two charts that
 * uPlot draws after the page loads, with the same numbers in a table; the period switches
 * between 7, 30 and 90 days. Axe finds nothing serious.
 */

// The pages send a CSP with script nonces, which would block the injected axe script.
test.use({ bypassCSP: true });

test('the owner dashboard: attention items, tiles, charts drawn, the numbers, the period', async ({
  page,
  request,
}) => {
  // A checkout of today, so the period has at least one day with activity.
  const suffix = uniqueSuffix();
  const followers = service('instagram-followers');
  const standard = plan(followers.slug, followers.plans[0]?.type ?? '');
  const created = await request.post('/api/order', {
    headers: { 'x-forwarded-for': clientAddress() },
    data: {
      type: standard.type,
      slug: followers.slug,
      qty: standard.tiers[0]?.qty,
      name: `dash.${suffix}`,
      email: `dash.${suffix}@example.com`,
      order_id: String(Math.floor(100_000 + Math.random() * 899_999)),
    },
  });
  expect(created.status(), await created.text()).toBe(200);

  await storeToken(page, await adminToken(request, E2E_ADMINS.dashboard));
  await page.setViewportSize({ width: 1366, height: 900 });
  await gotoHydrated(page, '/admin/all-orders');
  await page.getByRole('navigation', { name: /admin/i }).getByRole('link', { name: 'Dashboard' }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();

  const attention = page.getByTestId('dashboard-attention');
  await expect(attention.getByText('Orders flagged for review')).toBeVisible();
  await expect(attention.getByText('Failed mail')).toBeVisible();
  // The simulated panel answers its balance like a real one.
  await expect(attention.getByText('Supplier balance')).toBeVisible();
  await expect(attention).not.toContainText('Unavailable');

  await expect(page.getByRole('link', { name: '30 days' })).toHaveAttribute('aria-current', 'page');
  const series = page.getByTestId('dashboard-series').first();
  await expect(series.getByTestId('tile-revenue')).toContainText('$');
  await expect(series.getByTestId('tile-checkouts')).toContainText('not paid');
  for (const chart of ['chart-revenue', 'chart-checkouts']) {
    await expect(series.getByTestId(chart).locator('[data-drawn="true"] canvas')).toBeVisible();
  }
  // The numbers behind the checkouts chart: today's row counts our checkout.
  const checkouts = series.getByTestId('chart-checkouts');
  await checkouts.getByText('Show the numbers').click();
  const today = new Date().toISOString().slice(0, 10);
  const todayRow = checkouts.getByRole('row', { name: new RegExp(`^${today}`) });
  await expect(todayRow).toBeVisible();
  const notPaidToday = Number((await todayRow.getByRole('cell').nth(1).textContent())?.replaceAll(',', ''));
  expect(notPaidToday).toBeGreaterThanOrEqual(1);
  await expect(page.getByTestId('dashboard-statuses')).toContainText('Pending');
  // Money by payment provider, and the chargebacks and second payments among what needs attention.
  await expect(page.getByRole('heading', { name: 'Money by payment provider, last 30 days' })).toBeVisible();
  await expect(attention.getByText('Chargebacks in this period')).toBeVisible();
  await expect(attention.getByText('Second payments to refund')).toBeVisible();
  await expectNoSeriousAxeViolations(page, '/admin/dashboard, numbers open');

  await page.getByRole('link', { name: '7 days' }).click();
  await expect(page).toHaveURL(/days=7/);
  await expect(page.getByRole('link', { name: '7 days' })).toHaveAttribute('aria-current', 'page');
  await expect(series.getByText('Last 7 days')).toBeVisible();
  // The numbers stay open across the switch (the same chart, new data): 7 days and the header row.
  await expect(checkouts.locator('details')).toHaveAttribute('open', '');
  await expect(checkouts.getByRole('row')).toHaveCount(8);
});
