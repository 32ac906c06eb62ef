import { type Page, expect, test } from '@playwright/test';
import { type SeedPlan, type SeedTier, detailPrice, escapeRegExp, group, plan, service } from './support/catalogue.ts';
import { gotoHydrated } from './support/page.ts';

const likes = service('instagram-likes');

function tierCard(page: Page, qty: number) {
  return page.locator(`[data-testid="price-card"][data-qty="${qty}"]`);
}

/** The price panel matches the spec's rules for this tier, computed from the seed. */
async function expectPricePanel(page: Page, tier: SeedTier, currency: string) {
  const expected = detailPrice(tier, currency);
  const label = `${tier.text} at ${tier.price} with ${tier.discount}% discount`;
  await expect(page.getByTestId('detail-price'), label).toHaveText(expected.price);
  if (expected.badge === null) {
    await expect(page.getByTestId('discount-badge'), label).toHaveCount(0);
    await expect(page.getByTestId('original-price'), label).toHaveCount(0);
    await expect(page.getByTestId('you-save'), label).toHaveCount(0);
  } else {
    await expect(page.getByTestId('discount-badge'), label).toHaveText(expected.badge);
    await expect(page.getByTestId('original-price'), label).toHaveText(expected.original!);
    await expect(page.getByTestId('you-save'), label).toHaveText(expected.youSave!);
  }
}

async function choose(page: Page, chosenPlan: SeedPlan, tier: SeedTier) {
  await page.getByTestId('plan-tab').filter({ hasText: chosenPlan.title }).click();
  await expect(page.getByTestId('plan-tab').filter({ hasText: chosenPlan.title })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await tierCard(page, tier.qty).click();
  await expect(tierCard(page, tier.qty)).toHaveAttribute('aria-pressed', 'true');
}

test.describe('service detail page', () => {
  test('shows the name, the HTML title, the plan type labels and the first plan selected', async ({ page }) => {
    const response = await gotoHydrated(page, `/service/${likes.slug}`);
    expect(response.status()).toBe(200);

    await expect(page.getByRole('heading', { level: 1 })).toHaveText(likes.name);
    // The title is rendered as HTML: its <strong> is an element, not escaped text.
    const title = page.locator('h1 + p');
    await expect(title.locator('strong')).toHaveText('Instagram Likes');
    await expect(title).toHaveText(likes.titleHtml.replace(/<[^>]+>/g, ''));
    await expect(title).not.toContainText('<strong>');

    const tabs = page.getByTestId('plan-tab');
    await expect(tabs).toHaveCount(likes.plans.length);
    for (const [i, p] of likes.plans.entries()) {
      await expect(tabs.nth(i)).toContainText(p.type);
      await expect(tabs.nth(i)).toContainText(p.title);
      await expect(tabs.nth(i)).toHaveAttribute('aria-pressed', i === 0 ? 'true' : 'false');
    }
    expect(likes.plans.map((p) => p.type)).toEqual(['Standard', 'Popular', 'Exclusive']);

    // The service tab row lists every service of the group, the current one marked.
    const nav = page.getByRole('navigation', { name: 'Services' });
    await expect(nav.getByRole('link')).toHaveText(group('instagram').services.map((s) => s.name));
    await expect(nav.getByRole('link', { name: likes.name })).toHaveAttribute('aria-current', 'page');

    const first = likes.plans[0];
    await expect(page.getByTestId('price-card')).toHaveCount(first.tiers.length);
    await expect(tierCard(page, first.tiers[0].qty)).toHaveAttribute('aria-pressed', 'true');
    await expectPricePanel(page, first.tiers[0], first.currency);
  });

  test('a discounted tier shows price (4 decimals), original, you save and the badge', async ({ page }) => {
    await gotoHydrated(page, `/service/${likes.slug}`);

    // Popular, 50 likes: price 1.4999 with 10% off, which exercises the 4-decimal display.
    const popular = plan(likes.slug, 'Popular');
    const tier = popular.tiers.find((t) => t.price === '1.4999');
    expect(tier?.discount).toBe(10);
    await choose(page, popular, tier!);
    await expect(page.getByTestId('detail-price')).toHaveText(/^\$\d+\.\d{4}$/);
    await expectPricePanel(page, tier!, popular.currency);
    // Spelled out once, so a bug in the expectation helper cannot hide a bug in the page.
    await expect(page.getByTestId('detail-price')).toHaveText('$1.4999');
    await expect(page.getByTestId('original-price')).toHaveText('$1.67');
    await expect(page.getByTestId('you-save')).toHaveText('$0.17');
    await expect(page.getByTestId('discount-badge')).toHaveText('10% off');

    // Standard, a 2-decimal price with a discount.
    const standard = plan(likes.slug, 'Standard');
    const discounted = standard.tiers.find((t, i) => i > 0 && t.discount > 0)!;
    await choose(page, standard, discounted);
    await expectPricePanel(page, discounted, standard.currency);
  });

  test('a tier without discount shows no badge, no original price and no saving', async ({ page }) => {
    await gotoHydrated(page, `/service/${likes.slug}`);
    const standard = plan(likes.slug, 'Standard');
    const discounted = standard.tiers.find((t) => t.discount > 0)!;
    const full = standard.tiers.find((t) => t.discount === 0)!;

    // Go to a discounted tier first so the panel has something to remove.
    await choose(page, standard, discounted);
    await expect(page.getByTestId('discount-badge')).toBeVisible();
    await choose(page, standard, full);
    await expectPricePanel(page, full, standard.currency);
    await expect(page.getByTestId('detail-price')).toHaveText(`$${full.price}00`);
  });

  test('every tier of every plan shows the spec price panel', async ({ page }) => {
    await gotoHydrated(page, `/service/${likes.slug}`);
    for (const p of likes.plans) {
      for (const tier of p.tiers) {
        await choose(page, p, tier);
        await expectPricePanel(page, tier, p.currency);
        await expect(page.getByRole('link', { name: 'Buy Now' })).toHaveAttribute(
          'href',
          `/order/${likes.slug}GOI${tier.qty}?type=${p.type}`,
        );
      }
    }
  });

  test('the server HTML already contains the detail price', async ({ request }) => {
    const followers = service('instagram-followers');
    const expected = detailPrice(followers.plans[0].tiers[0], followers.plans[0].currency);
    expect(expected.price).toBe('$2.9900');
    const response = await request.get(`/service/${followers.slug}`);
    expect(response.status()).toBe(200);
    const html = await response.text();
    expect(html).toMatch(new RegExp(`data-testid="detail-price"[^>]*>${escapeRegExp(expected.price)}<`));
    expect(html).toContain('Buy <strong>Instagram Followers</strong>');
  });

  test('a group slug redirects to its first service', async ({ page, request }) => {
    const response = await request.get('/service/instagram', { maxRedirects: 0 });
    expect([301, 302, 303, 307, 308]).toContain(response.status());
    expect(new URL(response.headers()['location'], 'http://x').pathname).toBe('/service/instagram-followers');

    await gotoHydrated(page, '/service/instagram');
    await expect(page).toHaveURL(/\/service\/instagram-followers$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Instagram Followers');
  });
});
