import { type Page, expect, test } from '@playwright/test';
import { gotoHydrated } from './support/page.ts';

async function expectNotFoundScreen(page: Page) {
  const main = page.locator('main');
  await expect(main.getByRole('heading', { level: 1 })).toHaveText('Error');
  await expect(main.getByText('The page you are looking for could not be found', { exact: true })).toBeVisible();
  const back = main.getByRole('link', { name: 'Back to home' });
  await expect(back).toHaveAttribute('href', '/');
}

for (const url of ['/no-such-page', '/service/no-such-service']) {
  test(`${url} answers 404 with the not-found screen`, async ({ page, request }) => {
    const response = await gotoHydrated(page, url);
    expect(response.status()).toBe(404);
    await expectNotFoundScreen(page);

    // The server render is already the not-found screen, not a client-side afterthought.
    const raw = await request.get(url);
    expect(raw.status()).toBe(404);
    const html = await raw.text();
    expect(html).toContain('The page you are looking for could not be found');
    expect(html).toMatch(/<h1[^>]*>Error<\/h1>/);

    // The link really leads home.
    await page.locator('main').getByRole('link', { name: 'Back to home' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId('price-block')).toHaveText('$2.99');
  });
}
