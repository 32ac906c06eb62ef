import { expect } from '@playwright/test';
import sharp from 'sharp';
import { E2E_ADMINS, storeToken } from './support/admin.ts';
import { expectNoSeriousAxeViolations } from './support/axe.ts';
import { uniqueSuffix } from './support/order.ts';
import { testOnOwnStore } from './support/own-store.ts';
import { gotoHydrated } from './support/page.ts';
import { draftServiceInput } from '../support/catalogue-input.ts';

/**
 * The catalogue editor (decision 044), end to end: an owner edits a tier's price and
 * publishes a draft service, and the store's pages show both at once; the title editor keeps a
 * seeded title as it is and makes a word bold; a new group stays hidden from the store, moves and
 * is deleted; a service becomes automatic likes, then daily followers, with its terms; a support
 * admin has no catalogue link and is refused the page. Both editor pages pass axe.
 */

// Its edits (a price, a published service, a new group) would change what the other specs see on
// the shared store, so this spec has a store of its own.
const test = testOnOwnStore('catalogue');

test.use({ bypassCSP: true });

test('an owner edits a tier price and publishes a draft; the store shows both at once', async ({
  page,
  request,
  ownStore,
}) => {
  const token = await ownStore.adminToken(E2E_ADMINS.catalogue, 'owner');
  const slug = `tiktok-shares-${uniqueSuffix()}`.toLowerCase().replace(/[^a-z0-9-]/g, '');
  const created = await request.post('/api/admin/catalogue/groups/tiktok/services', {
    headers: { authorization: `Bearer ${token}` },
    data: draftServiceInput(slug, `TikTok Shares ${slug.slice(-6)}`),
  });
  expect(created.status(), await created.text()).toBe(201);
  expect((await request.get(`/service/${slug}`)).status()).toBe(404);

  await storeToken(page, token);
  await gotoHydrated(page, '/admin/catalogue');
  await expect(page.getByRole('heading', { level: 1, name: 'Catalogue' })).toBeVisible();
  const draftRow = page.getByTestId(`catalogue-service-${slug}`);
  await expect(draftRow).toContainText('Draft');
  await expectNoSeriousAxeViolations(page, '/admin/catalogue');

  // A price: the first Standard tier of TikTok Views. Its seeded title goes through the title
  // editor (a change and its undo make the editor hand the form its HTML) and comes back unchanged.
  await page.getByTestId('catalogue-service-tiktok-views').getByRole('link').click();
  await expect(page.getByTestId('service-form')).toBeVisible();
  const title = page.getByRole('textbox', { name: 'Title', exact: true });
  await expect(title).toContainText('TikTok Views');
  await title.click();
  await page.keyboard.press('End');
  await page.keyboard.type('!');
  await page.keyboard.press('Backspace');
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
  const stored = await request.get('/api/admin/catalogue/services/tiktok-views', {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(((await stored.json()) as { data: { titleHtml: string } }).data.titleHtml).toBe(
    'Buy <strong>TikTok Views</strong> at the best price',
  );
  await gotoHydrated(page, '/service/tiktok-views');
  await expect(page.getByText('$0.93').first()).toBeVisible();

  // The draft, published, with "Shares" in its title made bold by the title editor (one line:
  // Enter adds nothing).
  await gotoHydrated(page, `/admin/catalogue/services/${slug}`);
  const draftTitle = page.getByRole('textbox', { name: 'Title', exact: true });
  await draftTitle.click();
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.type(' now');
  await expect(draftTitle.locator('p')).toHaveCount(1);
  for (let i = 0; i < ' now'.length; i++) await page.keyboard.press('Backspace');
  await page.keyboard.press('Home');
  await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.press('Shift+ArrowRight');
  await page.getByRole('button', { name: 'Bold', exact: true }).click();
  await expect(draftTitle.locator('strong').first()).toHaveText('Buy');
  await page.getByRole('radio', { name: 'Published' }).check();
  await page.getByRole('button', { name: 'Save service' }).click();
  await expect(page.getByTestId('service-form-message')).toContainText('Service saved');
  const shown = await gotoHydrated(page, `/service/${slug}`);
  expect(shown.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('TikTok Shares');
  // The title is shown under the h1 (the service's name), with its marks.
  const shownTitle = page.locator('article header p.rich-text');
  await expect(shownTitle.locator('strong', { hasText: /^Buy$/ })).toBeVisible();
  await expect(shownTitle).toHaveText('Buy TikTok Shares');
});

test('an owner makes a draft automatic likes with its terms, then daily followers; the editor reads them back', async ({
  page,
  request,
  ownStore,
}) => {
  const token = await ownStore.adminToken(E2E_ADMINS.catalogue, 'owner');
  const slug = `tiktok-auto-${uniqueSuffix()}`.toLowerCase().replace(/[^a-z0-9-]/g, '');
  const created = await request.post('/api/admin/catalogue/groups/tiktok/services', {
    headers: { authorization: `Bearer ${token}` },
    data: draftServiceInput(slug, `TikTok Auto ${slug.slice(-6)}`),
  });
  expect(created.status(), await created.text()).toBe(201);
  await storeToken(page, token);
  await gotoHydrated(page, `/admin/catalogue/services/${slug}`);
  const form = page.getByTestId('service-form');
  const kind = form.getByRole('combobox', { name: 'What it sells' });
  await expect(kind).toHaveValue('package');
  await expect(form.getByTestId('tier-Standard-0').getByLabel('Quantity', { exact: true })).toBeVisible();

  await kind.selectOption({ label: 'Automatic likes (on each new post)' });
  await expect(form.getByTestId('kind-hint')).toContainText('likes on each new post');
  // A subscription is bought for a username: the link the draft asked for moves to the username.
  await expect(form.getByRole('combobox', { name: 'The buyer enters' })).toHaveValue('tiktok_username');
  await expect(form.getByTestId('tier-Standard-0').getByLabel('Likes on each new post')).toHaveValue('100');
  const period = form.getByRole('textbox', { name: 'Period (days)' });
  await expect(period).toHaveValue('30');
  await expect(form.getByRole('textbox', { name: 'Posts per period' })).toHaveValue('30');
  const delay = form.getByRole('combobox', { name: 'Delay after each post' });
  await expect(delay.locator('option').first()).toHaveText('No delay');
  await expect(delay.locator('option').last()).toHaveText('10 hours');
  await period.fill('0');
  await page.getByRole('button', { name: 'Save service' }).click();
  await expect(form.getByText('The period is 1 to 365 days.')).toBeVisible();
  await expect(period).toBeFocused();
  await period.fill('28');
  await form.getByRole('textbox', { name: 'Posts per period' }).fill('20');
  await delay.selectOption({ label: '1 hour 30 minutes' });
  await page.getByRole('button', { name: 'Save service' }).click();
  await expect(page.getByTestId('service-form-message')).toContainText('Service saved');
  await expectNoSeriousAxeViolations(page, `/admin/catalogue/services/${slug} (automatic likes)`);
  const read = async () => {
    const stored = await request.get(`/api/admin/catalogue/services/${slug}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    return ((await stored.json()) as { data: { kind: string; targetKind: string; terms?: object } }).data;
  };
  expect(await read()).toMatchObject({
    kind: 'automatic_likes',
    targetKind: 'tiktok_username',
    terms: { periodDays: 28, posts: 20, delayMinutes: 90 },
  });

  // Opened again, the editor shows what was saved; daily followers keep the period only.
  await gotoHydrated(page, `/admin/catalogue/services/${slug}`);
  await expect(kind).toHaveValue('automatic_likes');
  await expect(form.getByRole('textbox', { name: 'Posts per period' })).toHaveValue('20');
  await expect(delay).toHaveValue('90');
  await kind.selectOption({ label: 'Daily followers (delivered every day)' });
  await expect(form.getByTestId('kind-hint')).toContainText('followers delivered each day');
  await expect(form.getByRole('textbox', { name: 'Posts per period' })).toHaveCount(0);
  await expect(form.getByTestId('tier-Standard-0').getByLabel('Followers a day')).toBeVisible();
  await page.getByRole('button', { name: 'Save service' }).click();
  await expect(page.getByTestId('service-form-message')).toContainText('Service saved');
  expect(await read()).toMatchObject({ kind: 'daily_followers', terms: { periodDays: 28 } });
  await gotoHydrated(page, '/admin/catalogue');
  await expect(page.getByTestId(`catalogue-service-${slug}`)).toContainText('Daily followers (delivered every day)');
});

test('an owner adds a group, hidden from the store without a published service, moves it and deletes it', async ({
  page,
  request,
  ownStore,
}) => {
  const token = await ownStore.adminToken(E2E_ADMINS.catalogue, 'owner');
  const slug = `snap-${uniqueSuffix()}`.toLowerCase().replace(/[^a-z0-9-]/g, '');
  const title = `Snap ${slug.slice(-6)}`;
  const image = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#7c3aed' } })
    .png()
    .toBuffer();
  await storeToken(page, token);
  await gotoHydrated(page, '/admin/catalogue');
  // A seeded group has services: no delete button.
  await expect(page.getByTestId('catalogue-group-instagram').getByRole('button', { name: /Delete group/ })).toHaveCount(
    0,
  );

  const form = page.getByTestId('new-group');
  await form.getByLabel('Title', { exact: true }).fill(title);
  await form.getByLabel('Slug', { exact: true }).fill(slug);
  await form
    .getByLabel('Upload new group image')
    .setInputFiles({ name: 'group.png', mimeType: 'image/png', buffer: image });
  await expect(form.locator('img')).toBeVisible();
  await form.getByRole('button', { name: 'Add group' }).click();
  const group = page.getByTestId(`catalogue-group-${slug}`);
  await expect(group).toContainText('Hidden from the store until a service is published');
  expect((await request.get(`/service/${slug}`)).status()).toBe(404);

  // Added last; one place up.
  const order = () =>
    page
      .getByTestId('catalogue-groups')
      .locator(':scope > section')
      .evaluateAll((sections) => sections.map((section) => section.getAttribute('data-testid')));
  await expect.poll(order).toContain(`catalogue-group-${slug}`);
  expect((await order()).at(-1)).toBe(`catalogue-group-${slug}`);
  await group.getByRole('button', { name: new RegExp(`move the group ${title} up$`) }).click();
  await expect.poll(async () => (await order()).at(-2)).toBe(`catalogue-group-${slug}`);

  page.once('dialog', (dialog) => void dialog.accept());
  await group.getByRole('button', { name: new RegExp(`^Delete group\\s+${title}$`) }).click();
  await expect(group).toHaveCount(0);
});

test("the service form checks with the API's schema and puts the server's field errors under their fields", async ({
  page,
  ownStore,
}) => {
  await storeToken(page, await ownStore.adminToken(E2E_ADMINS.catalogue, 'owner'));
  await gotoHydrated(page, '/admin/catalogue/services/tiktok-views');
  const tier = page.getByTestId('tier-Standard-0');
  // By name: the label wraps the message too, so the accessible name changes while one is shown.
  const price = tier.locator('input[name="plans.0.tiers.0.price"]');
  await expect(page.getByTestId('service-form')).toBeVisible();

  // The browser's check: the schema's message, under the field, and nothing sent.
  let saves = 0;
  await page.route('**/api/admin/catalogue/services/tiktok-views', async (route) => {
    if (route.request().method() !== 'PATCH') return route.continue();
    saves += 1;
    return route.fulfill({
      status: 400,
      contentType: 'application/json',
      body: JSON.stringify({
        isSuccessful: false,
        message: 'plans.0.tiers.0.text: Tier text is taken by another tier.',
        errors: [{ field: 'plans.0.tiers.0.text', message: 'Tier text is taken by another tier.' }],
      }),
    });
  });
  await price.fill('0');
  await page.getByRole('button', { name: 'Save service' }).click();
  await expect(tier.getByText('Price must be more than 0.')).toBeVisible();
  await expect(price).toHaveAttribute('aria-invalid', 'true');
  await expect(price).toBeFocused();
  expect(saves).toBe(0);

  // The server's refusal: under the field it names, with the same attributes.
  await price.fill('0.93');
  await expect(tier.getByText('Price must be more than 0.')).toHaveCount(0);
  await page.getByRole('button', { name: 'Save service' }).click();
  const text = tier.locator('input[name="plans.0.tiers.0.text"]');
  await expect(tier.getByText('Tier text is taken by another tier.')).toBeVisible();
  await expect(text).toHaveAttribute('aria-invalid', 'true');
  const describedBy = await text.getAttribute('aria-describedby');
  expect(await tier.getByText('Tier text is taken by another tier.').getAttribute('id')).toBe(describedBy);
  expect(saves).toBe(1);
});

test('a support admin has no catalogue link and is refused the page', async ({ page, ownStore }) => {
  await storeToken(page, await ownStore.adminToken(E2E_ADMINS.catalogueSupport, 'support'));
  await gotoHydrated(page, '/admin/all-orders');
  const nav = page.getByRole('navigation', { name: 'Admin' });
  await expect(nav.getByRole('link', { name: 'All orders' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Catalogue' })).toHaveCount(0);
  await gotoHydrated(page, '/admin/catalogue');
  await expect(page.getByTestId('owner-only')).toBeVisible();
});
