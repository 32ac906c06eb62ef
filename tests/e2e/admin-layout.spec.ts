import { type Page, expect, test } from '@playwright/test';
import { E2E_ADMINS, adminToken, clientAddress, storeToken } from './support/admin.ts';
import { expectNoSeriousAxeViolations } from './support/axe.ts';
import { plan, service } from './support/catalogue.ts';
import { uniqueSuffix } from './support/order.ts';
import { gotoHydrated } from './support/page.ts';

/**
 * The admin shell (decision 034): no storefront top bar, header or footer inside
 * /admin; the left navigation with its counts, folded behind a menu button on phones; the orders
 * list that fits 1366 and 1920 px with Status and Action in view and never scrolls the page
 * sideways, and turns into cards on phones; a toast, in the live region at the top right, after
 * a confirmed destructive action.
 */

// The pages send a CSP with script nonces, which would block the injected axe script.
test.use({ bypassCSP: true });

const rows = (page: Page) => page.getByTestId('order-row');

/** An unpaid order of our own (its e-mail finds exactly it), made through the public API. */
async function placeOrder(page: Page): Promise<{ orderId: string; email: string }> {
  const suffix = uniqueSuffix();
  const email = `layout.${suffix}@example.com`;
  const followers = service('instagram-followers');
  const standard = plan(followers.slug, followers.plans[0]?.type ?? '');
  const created = await page.request.post('/api/order', {
    headers: { 'x-forwarded-for': clientAddress() },
    data: {
      type: standard.type,
      slug: followers.slug,
      qty: standard.tiers[0]?.qty,
      name: `layout.${suffix}`,
      email,
      order_id: String(Math.floor(100_000 + Math.random() * 899_999)),
    },
  });
  expect(created.status(), await created.text()).toBe(200);
  const providerId = ((await created.json()) as { data: { razorpay_order_id: string } }).data.razorpay_order_id;
  return { orderId: providerId.replace(/^order_/, ''), email };
}

/** The document is exactly as wide as the viewport: nothing scrolls the page sideways. */
async function expectNoSidewaysScroll(page: Page, label: string): Promise<void> {
  const widths = await page.evaluate(() => ({
    scroll: document.scrollingElement?.scrollWidth ?? -1,
    viewport: window.innerWidth,
  }));
  expect(widths.scroll, `${label}: document width`).toBe(widths.viewport);
}

/** The element lies wholly inside the viewport horizontally. */
async function expectInViewHorizontally(page: Page, selector: string, label: string): Promise<void> {
  const box = await page.locator(selector).first().boundingBox();
  expect(box, `${label}: ${selector} is rendered`).not.toBeNull();
  const viewport = page.viewportSize();
  expect(box!.x, `${label}: ${selector} left edge`).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, `${label}: ${selector} right edge`).toBeLessThanOrEqual(viewport!.width);
}

test('the admin shell: no storefront chrome, counts in the navigation, the orders list at five widths, a toast', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const order = await placeOrder(page);

  // A customer writes through the contact form: the navigation counts it as unread.
  const contact = await request.post('/api/contact', {
    headers: { 'x-forwarded-for': clientAddress() },
    data: { email: order.email, message: `A question about my order ${order.orderId}, please.` },
  });
  expect(contact.status(), await contact.text()).toBe(200);

  const token = await adminToken(request, E2E_ADMINS.layout);
  await storeToken(page, token);
  await page.setViewportSize({ width: 1366, height: 900 });
  await gotoHydrated(page, `/admin/all-orders?keyword=${encodeURIComponent(order.email)}`);
  await expect(page.getByRole('heading', { level: 1, name: 'All orders' })).toBeVisible();

  // No storefront top bar, header or footer: the admin shell is the whole page.
  for (const path of ['/admin/all-orders', '/admin/messages', '/admin/blog', '/admin/mail', '/admin/security']) {
    if (path !== '/admin/all-orders') await gotoHydrated(page, path);
    await expect(page.getByTestId('admin-shell')).toBeVisible();
    await expect(page.getByTestId('top-bar'), path).toHaveCount(0);
    await expect(page.getByRole('banner'), `${path}: the storefront header`).toHaveCount(0);
    await expect(page.getByRole('contentinfo'), `${path}: the storefront footer`).toHaveCount(0);
    await expect(page.getByTestId('admin-page-header')).toBeVisible();
  }

  // The navigation shows the unread messages, with words for screen readers.
  const nav = page.getByRole('navigation', { name: 'Admin' });
  const unread = nav.getByRole('link', { name: /^Messages\s*\d+ unread$/ });
  await expect(unread).toBeVisible();
  await expect(page.getByTestId('unread-messages-count')).toHaveText(/^[1-9]\d* unread$/);
  await expect(nav.getByTestId('unread-messages-count')).toHaveCount(1);

  // 1366 and 1920 px: the table, Status and Action in view, nothing scrolls sideways.
  for (const width of [1366, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await gotoHydrated(page, `/admin/all-orders?keyword=${encodeURIComponent(order.email)}`);
    const row = page.locator(`[data-testid="order-row"][data-order-id="${order.orderId}"]`);
    await expect(row).toHaveCount(1);
    await expect(rows(page)).toHaveCount(1);
    await expect(page.getByRole('columnheader', { name: 'Status', exact: true })).toBeVisible();
    await expect(page.getByRole('columnheader', { name: 'Action', exact: true })).toBeVisible();
    await expect(row.getByTestId('row-status')).toHaveText('not-paid');
    await expect(row.getByTestId('row-unavailable')).toHaveText('Not paid');
    const label = `${width} px`;
    await expectInViewHorizontally(page, '[data-testid="orders-table"] thead th:last-child', label);
    await expectInViewHorizontally(page, '[data-testid="order-row"] [data-testid="row-status"]', label);
    await expectInViewHorizontally(page, '[data-testid="order-row"] [data-testid="row-action"]', label);
    await expectNoSidewaysScroll(page, label);
    // The table fits its box too: no scrollbar inside the page either.
    const inner = await page
      .getByRole('region', { name: 'Orders table' })
      .evaluate((region) => ({ scroll: region.scrollWidth, client: region.clientWidth }));
    expect(inner.scroll, `${label}: the table's box`).toBeLessThanOrEqual(inner.client);
    expect(await row.evaluate((element) => getComputedStyle(element).display)).toBe('table-row');
    // The navigation sits at the left, open.
    await expect(nav).toBeVisible();
    await expect(page.getByTestId('admin-menu-button')).toBeHidden();
  }
  await expectNoSeriousAxeViolations(page, '/admin/all-orders at 1920 px');

  // Phones and tablets: cards, and the navigation behind the menu button.
  for (const width of [360, 390, 768]) {
    await page.setViewportSize({ width, height: 800 });
    await gotoHydrated(page, `/admin/all-orders?keyword=${encodeURIComponent(order.email)}`);
    const row = page.locator(`[data-testid="order-row"][data-order-id="${order.orderId}"]`);
    await expect(row).toBeVisible();
    const label = `${width} px`;
    expect(await row.evaluate((element) => getComputedStyle(element).display), `${label}: a card`).toBe('grid');
    await expect(page.getByRole('columnheader', { name: 'Status', exact: true })).toBeHidden();
    await expect(row.getByTestId('row-status')).toBeVisible();
    await expectInViewHorizontally(page, '[data-testid="order-row"]', label);
    await expectInViewHorizontally(page, '[data-testid="order-row"] [data-testid="row-action"]', label);
    await expectNoSidewaysScroll(page, label);

    const menu = page.getByTestId('admin-menu-button');
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await expect(nav).toBeHidden();
    await menu.click();
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    await expect(nav).toBeVisible();
    await expect(unread).toBeVisible();
    await expectNoSidewaysScroll(page, `${label}, menu open`);
  }
  await expectNoSeriousAxeViolations(page, '/admin/all-orders at 768 px, menu open');
  // A link closes the menu on its way.
  await nav.getByRole('link', { name: /^Blog/ }).click();
  await expect(page).toHaveURL(/\/admin\/blog$/);
  await expect(page.getByTestId('admin-menu-button')).toHaveAttribute('aria-expanded', 'false');

  // A destructive action asks first, and its success is a toast at the top right, in the live region.
  await page.setViewportSize({ width: 1366, height: 900 });
  const title = `Layout toast ${uniqueSuffix()}`;
  const created = await request.post('/api/blog', {
    headers: { authorization: `Bearer ${token}` },
    multipart: { title, category: '', description: '<p>A post to delete.</p>' },
  });
  expect(created.status(), await created.text()).toBe(201);
  await gotoHydrated(page, `/admin/blog?keyword=${encodeURIComponent(title)}`);
  await page.getByRole('button', { name: `Delete “${title}”` }).click();
  const dialog = page.getByTestId('delete-dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  const region = page.getByTestId('toast-region');
  await expect(region).toHaveAttribute('aria-live', 'polite');
  const toast = region.getByTestId('toast').filter({ hasText: 'Deleted!' });
  await expect(toast).toBeVisible();
  await expect(toast).toHaveAttribute('data-kind', 'success');
  const box = await toast.boundingBox();
  expect(box!.y, 'the toast is at the top').toBeLessThan(100);
  expect(box!.x + box!.width, 'the toast is at the right').toBeGreaterThan(1366 - 100);
});
