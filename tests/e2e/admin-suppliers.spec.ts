import { expect, test } from '@playwright/test';
import { type FakeSmmPanel, startFakeSmmPanel } from '../fakes/smm-panel.ts';
import { draftServiceInput } from '../support/catalogue-input.ts';
import { E2E_ADMINS, adminToken, storeToken } from './support/admin.ts';
import { expectNoSeriousAxeViolations } from './support/axe.ts';
import { uniqueSuffix } from './support/order.ts';
import { gotoHydrated } from './support/page.ts';

/**
 * Supplier panels (decision 045): the owner opens Suppliers from the admin navigation, sees the
 * built-in simulated panel with its balance, adds a second panel that points at a fake vendor
 * started by this test (SMM panel API v2 over HTTP; a wrong key is refused with the panel's own
 * words first), imports its services, sees a draft service's tier mapped to a service the panel
 * never listed named on the panel (on a fresh visit, not only in the import's reply) and follows
 * its link to the service's editor, filters the imported list by search and category, and removes
 * the panel again once the tier is mapped back. The key is never shown back. Axe finds nothing
 * serious.
 */

test.use({ bypassCSP: true });

const VENDOR_KEY = 'e2e-vendor-secret-key-0123456789';

let vendor: FakeSmmPanel;
test.beforeAll(async () => {
  vendor = await startFakeSmmPanel({ key: VENDOR_KEY, balance: '75.25', currency: 'EUR' });
});
test.afterAll(async () => {
  await vendor?.close();
});

test('add a supplier panel, import its services, browse them, remove it', async ({ page, request }) => {
  const name = `Vendor ${uniqueSuffix()}`;
  const token = await adminToken(request, E2E_ADMINS.suppliers);
  const auth = { authorization: `Bearer ${token}` };
  await storeToken(page, token);
  await page.setViewportSize({ width: 1366, height: 900 });
  await gotoHydrated(page, '/admin/dashboard');
  await page.getByRole('navigation', { name: /admin/i }).getByRole('link', { name: 'Suppliers' }).click();
  await expect(page).toHaveURL(/\/admin\/suppliers$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Suppliers' })).toBeVisible();

  const main = page.getByTestId('panel-1');
  await expect(main).toContainText('Built-in simulated panel');
  await expect(main.getByTestId('panel-balance')).not.toHaveText('—');
  await expectNoSeriousAxeViolations(page, '/admin/suppliers');

  // A wrong key: refused with what the panel said, nothing saved.
  const form = page.getByTestId('panel-add-form');
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('API URL').fill(vendor.url);
  await form.getByLabel('API key').fill('not-the-key');
  await form.getByLabel('Low-balance alert below').fill('20');
  await form.getByRole('button', { name: 'Check and add panel' }).click();
  await expect(form.getByTestId('panel-form-error')).toContainText('Invalid API key');

  await form.getByLabel('API key').fill(VENDOR_KEY);
  await form.getByRole('button', { name: 'Check and add panel' }).click();
  const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name }) });
  await expect(card).toBeVisible();
  await expect(card).toContainText('Key saved');
  await expect(card).toContainText(vendor.url);
  await expect(card.getByTestId('panel-balance')).toHaveText('75.25 EUR');
  await expect(card).toContainText('20.00 EUR');
  expect(await page.content()).not.toContain(VENDOR_KEY);

  await card.getByRole('button', { name: `Import services of ${name}` }).click();
  await expect(card.getByTestId('import-result')).toContainText(`${vendor.services.length} services imported`);
  const servicesLink = card.getByRole('link', { name: new RegExp(`${vendor.services.length} offered`) });
  await expect(servicesLink).toBeVisible();
  await expectNoSeriousAxeViolations(page, '/admin/suppliers with a stored panel');
  await expect(card.getByTestId('mapping-warnings')).toHaveCount(0);

  // A draft service (hidden from the store) with its tier on this panel and a service id the
  // panel never listed: the panel names it on every visit, with a link to the service's editor.
  const panels = (await (await request.get('/api/admin/suppliers', { headers: auth })).json()) as {
    data: { panels: { id: number; name: string }[] };
  };
  const panelId = panels.data.panels.find((p) => p.name === name)?.id;
  expect(panelId).toBeDefined();
  const slug = `vendor-draft-${uniqueSuffix()}`.toLowerCase().replace(/[^a-z0-9-]/g, '');
  const draft = draftServiceInput(slug, `Vendor draft ${slug.slice(-6)}`);
  const draftTier = { ...draft.plans[0].tiers[0], supplierPanelId: panelId!, supplierServiceId: 'e2e-never-listed' };
  const created = await request.post('/api/admin/catalogue/groups/tiktok/services', {
    headers: auth,
    data: { ...draft, plans: [{ ...draft.plans[0], tiers: [draftTier] }] },
  });
  expect(created.status(), await created.text()).toBe(201);
  await gotoHydrated(page, '/admin/suppliers');
  const warnings = card.getByTestId('mapping-warnings');
  await expect(warnings).toContainText('1 price tier is mapped to a service');
  await expect(warnings.getByTestId('mapping-warning')).toHaveText(
    `${draft.name} (edit the service), Standard, 100: service e2e-never-listed was never listed`,
  );
  await expectNoSeriousAxeViolations(page, '/admin/suppliers with a mapping warning');
  await warnings.getByRole('link', { name: new RegExp(draft.name) }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/catalogue/services/${slug}$`));

  // Mapped back to the main panel (so this panel can be removed below): the warning is gone.
  const opened = (await (await request.get(`/api/admin/catalogue/services/${slug}`, { headers: auth })).json()) as {
    data: typeof draft & { revision: number };
  };
  const remapped = await request.patch(`/api/admin/catalogue/services/${slug}`, {
    headers: auth,
    data: {
      ...opened.data,
      plans: opened.data.plans.map((plan) => ({
        ...plan,
        tiers: plan.tiers.map((tier) => ({ ...tier, supplierPanelId: 1 })),
      })),
    },
  });
  expect(remapped.status(), await remapped.text()).toBe(200);
  await gotoHydrated(page, '/admin/suppliers');
  await expect(card).toBeVisible();
  await expect(card.getByTestId('mapping-warnings')).toHaveCount(0);

  await servicesLink.click();
  await expect(page.getByRole('heading', { level: 1, name: 'Supplier services' })).toBeVisible();
  const table = page.getByTestId('services-table');
  await expect(table.getByRole('row')).toHaveCount(vendor.services.length + 1);
  const first = vendor.services[0];
  await page.getByLabel('Search by name or id').fill(first.name);
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page).toHaveURL(/q=/);
  await expect(table).toContainText(first.name);
  await page.getByLabel('Search by name or id').fill('');
  await page.getByLabel('Category').selectOption(first.category);
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page).toHaveURL(/category=/);
  for (const category of await table.locator('tbody tr td:nth-child(2)').allTextContents())
    expect(category).toBe(first.category);
  await expectNoSeriousAxeViolations(page, '/admin/suppliers/:id/services');

  // Narrow screens: rows become cards, nothing wider than the screen.
  await page.setViewportSize({ width: 360, height: 800 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  await page.setViewportSize({ width: 1366, height: 900 });
  await page.getByRole('link', { name: 'Back to suppliers' }).click();
  page.once('dialog', (dialog) => void dialog.accept());
  await card.getByRole('button', { name: `Remove ${name}` }).click();
  await expect(card).toHaveCount(0);
});
