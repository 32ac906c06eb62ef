import { type Page, expect, test } from '@playwright/test';
import {
  type SeedPlan,
  type SeedTier,
  detailPrice,
  escapeRegExp,
  group,
  groups,
  plan,
  service,
} from './support/catalogue.ts';
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
    'aria-checked',
    'true',
  );
  await tierCard(page, tier.qty).click();
  await expect(tierCard(page, tier.qty)).toHaveAttribute('aria-checked', 'true');
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
      await expect(tabs.nth(i)).toHaveAttribute('aria-checked', i === 0 ? 'true' : 'false');
    }
    expect(likes.plans.map((p) => p.type)).toEqual(['Standard', 'Popular', 'Exclusive']);

    // The service tab row lists every service of the group, the current one marked.
    const nav = page.getByRole('navigation', { name: 'Services' });
    await expect(nav.getByRole('link')).toHaveText(group('instagram').services.map((s) => s.name));
    await expect(nav.getByRole('link', { name: likes.name, exact: true })).toHaveAttribute('aria-current', 'page');

    const first = likes.plans[0];
    await expect(page.getByTestId('price-card')).toHaveCount(first.tiers.length);
    await expect(tierCard(page, first.tiers[0].qty)).toHaveAttribute('aria-checked', 'true');
    await expectPricePanel(page, first.tiers[0], first.currency);
  });

  test('a discounted tier shows price (4 decimals), original, you save and the badge', async ({ page }) => {
    await gotoHydrated(page, `/service/${likes.slug}`);

    // Popular, 50 likes: price 1.4999, the smallest tier (so no bulk saving), in 4 decimals.
    const popular = plan(likes.slug, 'Popular');
    const smallest = popular.tiers.find((t) => t.price === '1.4999');
    expect(smallest?.discount).toBe(0);
    await choose(page, popular, smallest!);
    await expect(page.getByTestId('detail-price')).toHaveText('$1.4999');
    // 100 likes: 2.29 with a 23% bulk saving against the 50-like price per unit (decision 031).
    const tier = popular.tiers.find((t) => t.price === '2.29');
    expect(tier?.discount).toBe(23);
    await choose(page, popular, tier!);
    await expect(page.getByTestId('detail-price')).toHaveText(/^\$\d+\.\d{4}$/);
    await expectPricePanel(page, tier!, popular.currency);
    // Spelled out once, so a bug in the expectation helper cannot hide a bug in the page.
    await expect(page.getByTestId('detail-price')).toHaveText('$2.2900');
    await expect(page.getByTestId('original-price')).toHaveText('$2.97');
    await expect(page.getByTestId('you-save')).toHaveText('$0.68');
    await expect(page.getByTestId('discount-badge')).toHaveText('23% off');

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

/** Visible text of a server-rendered fragment: tags and React's <!-- --> text separators removed. */
function textOf(html: string): string {
  return html
    .replace(/<!--.*?-->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/** "100 Followers Followers" → "followers"; null when no word directly repeats itself. */
function doubledWord(text: string): string | null {
  const match = /\b(\p{L}+)\s+\1\b/iu.exec(text);
  return match ? match[1].toLowerCase() : null;
}

test.describe('service page copy and imagery', () => {
  test('no heading or package summary repeats a word ("100 Followers Followers"), on every service', async ({
    request,
  }) => {
    expect(doubledWord('100 Followers Followers')).toBe('followers');
    for (const s of groups.flatMap((g) => g.services)) {
      const html = await (await request.get(`/service/${s.slug}`)).text();
      const fragments = [
        ...html.matchAll(/<h[1-3][^>]*>(.*?)<\/h[1-3]>/gs),
        ...html.matchAll(/data-testid="package-summary"[^>]*>(.*?)<\/p>/gs),
      ].map((m) => textOf(m[1]));
      expect(fragments.length, s.slug).toBeGreaterThan(3);
      for (const text of fragments) expect(doubledWord(text), `${s.slug}: "${text}"`).toBeNull();
    }
    // The summary names the tier once and the service once.
    const html = await (await request.get('/service/instagram-followers')).text();
    const summary = /data-testid="package-summary"[^>]*>(.*?)<\/p>/s.exec(html);
    expect(textOf(summary![1])).toBe('100 Followers · Instagram Followers');
  });

  test('the service image from the catalogue shows, with its size reserved', async ({ page }) => {
    await gotoHydrated(page, `/service/${likes.slug}`);
    const image = page.getByTestId('service-image');
    await expect(image).toBeVisible();
    await expect(image).toHaveAttribute('src', likes.image);
    await expect(image).toHaveAttribute('width', '400');
    await expect(image).toHaveAttribute('height', '240');
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
    // Rendered at the image's own 5:3 proportion.
    const box = (await image.boundingBox())!;
    expect(Math.abs(box.width / box.height - 400 / 240)).toBeLessThan(0.02);
  });

  test('the guarantee badges beside the price link to existing policy pages', async ({ page, request }) => {
    await gotoHydrated(page, `/service/${likes.slug}`);
    const badges = page
      .getByRole('complementary', { name: 'Your package' })
      .getByRole('list', { name: 'Our guarantees' })
      .getByRole('link');
    await expect(badges).toHaveCount(3);
    await expect(badges.filter({ hasText: '48-hour refund' })).toHaveAttribute('href', '/refund-policy');
    await expect(badges.filter({ hasText: '30-day refill' })).toHaveAttribute('href', '/refund-policy');
    for (const href of await badges.evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''))) {
      expect((await request.get(href)).status(), href).toBe(200);
    }
  });
});
