import { expect, test } from '@playwright/test';
import { E2E_ADMINS, adminToken, storeToken } from './support/admin.ts';
import { expectNoSeriousAxeViolations } from './support/axe.ts';
import { uniqueSuffix } from './support/order.ts';
import { gotoHydrated } from './support/page.ts';

/**
 * The catalogue editor (issue 14, decision 044), end to end: an owner edits a tier's price and
 * publishes a draft service, and the store's pages show both at once; a support admin has no
 * catalogue link and is refused the page. Both editor pages pass axe.
 */

test.use({ bypassCSP: true });

test('an owner edits a tier price and publishes a draft; the store shows both at once', async ({ page, request }) => {
  const token = await adminToken(request, E2E_ADMINS.catalogue);
  const slug = `tiktok-shares-${uniqueSuffix()}`.toLowerCase().replace(/[^a-z0-9-]/g, '');
  const created = await request.post('/api/admin/catalogue/groups/tiktok/services', {
    headers: { authorization: `Bearer ${token}` },
    data: {
      slug,
      name: `TikTok Shares ${slug.slice(-6)}`,
      titleHtml: 'Buy <strong>TikTok Shares</strong>',
      description: 'Shares for a TikTok video.',
      image: '',
      targetKind: 'tiktok_post_url',
      commentRequired: false,
      status: 'draft',
      plans: [
        {
          type: 'Standard',
          title: 'Standard Shares',
          icon: '/images/plans/standard.svg',
          currency: '$',
          options: ['Fast start'],
          tiers: [
            { qty: 100, text: '100 Shares', price: '1.87', discount: 0, supplierPanelId: 1, supplierServiceId: '7001' },
          ],
        },
      ],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  expect((await request.get(`/service/${slug}`)).status()).toBe(404);

  await storeToken(page, token);
  await gotoHydrated(page, '/admin/catalogue');
  await expect(page.getByRole('heading', { level: 1, name: 'Catalogue' })).toBeVisible();
  const draftRow = page.getByTestId(`catalogue-service-${slug}`);
  await expect(draftRow).toContainText('Draft');
  await expectNoSeriousAxeViolations(page, '/admin/catalogue');

  // A price: the first Standard tier of TikTok Views.
  await page.getByTestId('catalogue-service-tiktok-views').getByRole('link').click();
  await expect(page.getByTestId('service-form')).toBeVisible();
  const price = page.getByTestId('tier-Standard-0').getByLabel('Price', { exact: true });
  await price.fill('0.93');
  await page.getByRole('button', { name: 'Save service' }).click();
  await expect(page.getByTestId('service-form-message')).toContainText('Service saved');
  await expectNoSeriousAxeViolations(page, '/admin/catalogue/services/tiktok-views');
  const views = await request.get('/api/services/tiktok-views');
  const viewsBody = (await views.json()) as {
    data: { services: { slug: string; plans: { list: { price: number }[] }[] }[] };
  };
  expect(viewsBody.data.services.find((s) => s.slug === 'tiktok-views')?.plans[0]?.list[0]?.price).toBe(0.93);
  await gotoHydrated(page, '/service/tiktok-views');
  await expect(page.getByText('$0.93').first()).toBeVisible();

  // The draft, published.
  await gotoHydrated(page, `/admin/catalogue/services/${slug}`);
  await page.getByRole('radio', { name: 'Published' }).check();
  await page.getByRole('button', { name: 'Save service' }).click();
  await expect(page.getByTestId('service-form-message')).toContainText('Service saved');
  const shown = await gotoHydrated(page, `/service/${slug}`);
  expect(shown.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('TikTok Shares');
});

test('a support admin has no catalogue link and is refused the page', async ({ page, request }) => {
  await storeToken(page, await adminToken(request, E2E_ADMINS.catalogueSupport));
  await gotoHydrated(page, '/admin/all-orders');
  const nav = page.getByRole('navigation', { name: 'Admin' });
  await expect(nav.getByRole('link', { name: 'All orders' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Catalogue' })).toHaveCount(0);
  await gotoHydrated(page, '/admin/catalogue');
  await expect(page.getByTestId('owner-only')).toBeVisible();
});
