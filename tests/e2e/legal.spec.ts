import { expect, test } from '@playwright/test';
import { gotoHydrated } from './support/page.ts';

const HELP_AND_LEGAL = {
  FAQ: '/faq',
  Contact: '/contact',
  'My orders': '/client',
  'Privacy Policy': '/privacy-policy',
  'Terms of Service': '/terms-condition',
  Disclaimer: '/disclaimer',
  'Refund Policy': '/refund-policy',
} as const;

test.describe('FAQ and legal pages', () => {
  test('the FAQ accordion keeps one question open at a time, and clicking the open one closes it', async ({ page }) => {
    await gotoHydrated(page, '/faq');
    // Native disclosures (<details name>, the page has no framework JavaScript): the questions are their summaries.
    const accordion = page.getByTestId('faq-accordion');
    const questions = accordion.locator('summary');
    await expect(questions).toHaveCount(20);
    const expanded = accordion.locator('details[open]');
    const shownAnswers = accordion.locator('details > summary + div:visible');
    await expect(expanded).toHaveCount(1);
    await expect(accordion.locator('details').nth(0)).toHaveJSProperty('open', true);
    await expect(shownAnswers).toHaveCount(1);

    await questions.nth(4).click();
    await expect(accordion.locator('details').nth(4)).toHaveJSProperty('open', true);
    await expect(accordion.locator('details').nth(0)).toHaveJSProperty('open', false);
    await expect(expanded).toHaveCount(1);
    await expect(accordion.locator('details').nth(4).locator('summary + div')).toBeVisible();

    await questions.nth(4).click();
    await expect(expanded).toHaveCount(0);
    await expect(shownAnswers).toHaveCount(0);

    await questions.nth(16).click();
    await expect(accordion.locator('details').nth(16)).toHaveJSProperty('open', true);
    await expect(expanded).toHaveCount(1);
  });

  test('the footer links reach every help and legal page, each answering 200', async ({ page }) => {
    await gotoHydrated(page, '/');
    const footer = page.getByTestId('site-footer');
    for (const [label, path] of Object.entries(HELP_AND_LEGAL)) {
      const link = footer.getByRole('link', { name: label, exact: true });
      await expect(link).toHaveAttribute('href', path);
      const response = await page.request.get(path);
      expect(response.status(), path).toBe(200);
    }
    // A client-side click from the footer lands on the page, with its heading.
    for (const [label, heading] of [
      ['Refund Policy', 'Refund Policy'],
      ['Privacy Policy', 'Privacy Policy'],
      ['Terms of Service', 'Terms of Service'],
      ['Disclaimer', 'Disclaimer'],
      ['FAQ', 'Frequently asked questions'],
    ] as const) {
      await page.getByTestId('site-footer').getByRole('link', { name: label, exact: true }).click();
      await expect(page).toHaveURL(HELP_AND_LEGAL[label]);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    }
  });

  test('the header links to the FAQ, contact and My orders', async ({ page }) => {
    await gotoHydrated(page, '/privacy-policy');
    const header = page.getByRole('navigation', { name: 'Main' });
    await header.getByRole('link', { name: 'My orders', exact: true }).click();
    await expect(page).toHaveURL('/client');
    await expect(header.getByRole('link', { name: 'FAQ', exact: true })).toHaveAttribute('href', '/faq');
    await expect(header.getByRole('link', { name: 'Contact', exact: true })).toHaveAttribute('href', '/contact');
  });

  test('the service page’s terms notice links to the Terms of Service and Privacy Policy', async ({ page }) => {
    await gotoHydrated(page, '/service/instagram-followers');
    await page.getByRole('link', { name: 'Terms of Service', exact: true }).first().click();
    await expect(page).toHaveURL('/terms-condition');
    await expect(page.getByText('Last updated: August 2024')).toBeVisible();
  });
});
