import { type Locator, type Page, expect, test } from '@playwright/test';
import { escapeRegExp, group, groups, homePrice, service } from './support/catalogue.ts';
import { gotoHydrated } from './support/page.ts';

function picker(page: Page) {
  return {
    categories: page.getByTestId('category-tab'),
    services: page.getByRole('radiogroup', { name: 'Services' }).getByRole('radio'),
    plans: page.getByTestId('plan-tab'),
    tiers: page.getByTestId('price-card'),
    price: page.getByTestId('price-block'),
    spinner: page.getByRole('status').filter({ hasText: 'Loading services' }),
    buyNow: page.getByRole('link', { name: 'Buy Now' }),
  };
}

/** Exactly the `index`-th choice is checked, every other one is not. */
async function expectOnlyChecked(list: Locator, index: number, count: number) {
  await expect(list).toHaveCount(count);
  for (let i = 0; i < count; i += 1) {
    await expect(list.nth(i)).toHaveAttribute('aria-checked', i === index ? 'true' : 'false');
  }
}

const instagram = groups[0];
const firstService = service(instagram.services[0].slug);
const firstPlan = firstService.plans[0];
const firstTier = firstPlan.tiers[0];

test.describe('store home page', () => {
  test('on load the first category, service, plan and tier are selected', async ({ page }) => {
    await gotoHydrated(page, '/');
    const ui = picker(page);

    await expect(ui.categories).toHaveText(groups.map((g) => g.title));
    await expectOnlyChecked(ui.categories, 0, groups.length);

    await expect(ui.services).toHaveText(instagram.services.map((s) => s.name));
    await expectOnlyChecked(ui.services, 0, instagram.services.length);

    await expect(ui.plans).toHaveText(firstService.plans.map((p) => p.title));
    await expectOnlyChecked(ui.plans, 0, firstService.plans.length);

    await expect(ui.tiers).toHaveCount(firstPlan.tiers.length);
    for (const [i, tier] of firstPlan.tiers.entries()) {
      await expect(ui.tiers.nth(i)).toHaveAttribute('data-qty', String(tier.qty));
      await expect(ui.tiers.nth(i)).toContainText(tier.text);
      await expect(ui.tiers.nth(i)).toContainText(homePrice(tier));
    }
    await expectOnlyChecked(ui.tiers, 0, firstPlan.tiers.length);

    expect(homePrice(firstTier)).toBe('$2.99');
    await expect(ui.price).toHaveText(homePrice(firstTier));
    await expect(ui.buyNow).toHaveAttribute(
      'href',
      `/order/${firstService.slug}GOI${firstTier.qty}?type=${firstPlan.type}`,
    );
  });

  test('TikTok category → non-first plan → non-first tier → Buy Now opens the order page', async ({ page }) => {
    const tiktok = group('tiktok');
    const tiktokIndex = groups.indexOf(tiktok);
    const svc = service(tiktok.services[0].slug);
    const planIndex = 1;
    const chosenPlan = svc.plans[planIndex];
    const tierIndex = 3;
    const chosenTier = chosenPlan.tiers[tierIndex];

    await gotoHydrated(page, '/');
    const ui = picker(page);

    // The category's services load after a 300 ms pause behind a spinner. The spinner may be
    // gone again before a polling assertion looks, so a MutationObserver records that it showed.
    await page.evaluate(() => {
      const w = window as unknown as { spinnerSeen: boolean };
      w.spinnerSeen = false;
      const seen = () =>
        Array.from(document.querySelectorAll('[role="status"]')).some((el) =>
          el.textContent?.includes('Loading services'),
        );
      new MutationObserver(() => {
        if (seen()) w.spinnerSeen = true;
      }).observe(document.body, { childList: true, subtree: true });
    });
    await ui.categories.filter({ hasText: tiktok.title }).click();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { spinnerSeen: boolean }).spinnerSeen))
      .toBe(true);
    await expect(ui.spinner).toBeHidden();
    await expectOnlyChecked(ui.categories, tiktokIndex, groups.length);

    await expect(ui.services).toHaveText(tiktok.services.map((s) => s.name));
    await expectOnlyChecked(ui.services, 0, tiktok.services.length);
    await expect(ui.plans).toHaveText(svc.plans.map((p) => p.title));
    await expectOnlyChecked(ui.plans, 0, svc.plans.length);
    await expect(ui.price).toHaveText(homePrice(svc.plans[0].tiers[0]));

    await ui.plans.nth(planIndex).click();
    await expectOnlyChecked(ui.plans, planIndex, svc.plans.length);
    await expectOnlyChecked(ui.tiers, 0, chosenPlan.tiers.length);
    await expect(ui.price).toHaveText(homePrice(chosenPlan.tiers[0]));

    await ui.tiers.nth(tierIndex).click();
    await expectOnlyChecked(ui.tiers, tierIndex, chosenPlan.tiers.length);
    await expect(ui.price).toHaveText(/^\$\d+\.\d{2}$/);
    await expect(ui.price).toHaveText(homePrice(chosenTier));

    await ui.buyNow.click();
    await expect(page).toHaveURL(
      new RegExp(`/order/${escapeRegExp(`${svc.slug}GOI${chosenTier.qty}`)}\\?type=${chosenPlan.type}$`),
    );
    const url = new URL(page.url());
    expect(url.pathname).toBe(`/order/tiktok-followersGOI${chosenTier.qty}`);
    expect(url.searchParams.get('type')).toBe(chosenPlan.type);
    expect([...url.searchParams.keys()]).toEqual(['type']);
  });

  test('selecting a plan selects its first tier', async ({ page }) => {
    await gotoHydrated(page, '/');
    const ui = picker(page);
    const plans = firstService.plans;

    await ui.tiers.nth(2).click();
    await expectOnlyChecked(ui.tiers, 2, plans[0].tiers.length);
    await expect(ui.price).toHaveText(homePrice(plans[0].tiers[2]));

    const last = plans.length - 1;
    await ui.plans.nth(last).click();
    await expectOnlyChecked(ui.plans, last, plans.length);
    await expectOnlyChecked(ui.tiers, 0, plans[last].tiers.length);
    await expect(ui.price).toHaveText(homePrice(plans[last].tiers[0]));

    // Going back to the first plan does not remember the earlier tier.
    await ui.plans.nth(0).click();
    await expectOnlyChecked(ui.plans, 0, plans.length);
    await expectOnlyChecked(ui.tiers, 0, plans[0].tiers.length);
    await expect(ui.price).toHaveText(homePrice(plans[0].tiers[0]));
  });

  test('selecting a service tab selects its first plan and first tier', async ({ page }) => {
    await gotoHydrated(page, '/');
    const ui = picker(page);
    const other = service(instagram.services[1].slug);

    await ui.plans.nth(1).click();
    await ui.tiers.nth(2).click();
    await expect(ui.price).toHaveText(homePrice(firstService.plans[1].tiers[2]));

    await ui.services.filter({ hasText: new RegExp(`^${other.name}$`) }).click();
    await expectOnlyChecked(ui.services, 1, instagram.services.length);
    await expect(ui.plans).toHaveText(other.plans.map((p) => p.title));
    await expectOnlyChecked(ui.plans, 0, other.plans.length);
    await expectOnlyChecked(ui.tiers, 0, other.plans[0].tiers.length);
    await expect(ui.price).toHaveText(homePrice(other.plans[0].tiers[0]));
    await expect(ui.buyNow).toHaveAttribute(
      'href',
      `/order/${other.slug}GOI${other.plans[0].tiers[0].qty}?type=${other.plans[0].type}`,
    );

    await ui.services.filter({ hasText: new RegExp(`^${firstService.name}$`) }).click();
    await expectOnlyChecked(ui.services, 0, instagram.services.length);
    await expectOnlyChecked(ui.plans, 0, firstService.plans.length);
    await expectOnlyChecked(ui.tiers, 0, firstPlan.tiers.length);
    await expect(ui.price).toHaveText(homePrice(firstTier));
  });

  test('the server HTML already shows the first service and its first price', async ({ request, browser, baseURL }) => {
    const response = await request.get('/');
    expect(response.status()).toBe(200);
    const html = await response.text();
    expect(html).toContain(firstService.name);
    expect(html).toContain('Instagram Followers');
    expect(html).toMatch(/data-testid="price-block"[^>]*>\$2\.99</);

    // A fresh context does not inherit the project's baseURL; playwright.config.ts always sets it.
    if (!baseURL) throw new Error('playwright.config.ts sets no baseURL');
    const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto('/');
      await expect(page.getByTestId('price-block')).toHaveText('$2.99');
      await expect(page.getByRole('radiogroup', { name: 'Services' }).getByRole('radio').first()).toHaveText(
        firstService.name,
      );
    } finally {
      await context.close();
    }
  });
});

test.describe('store home page on a 390 px phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the category buttons fit, unclipped, and the package cards are all one height', async ({ page }) => {
    await gotoHydrated(page, '/');
    const ui = picker(page);

    await expect(ui.categories).toHaveCount(groups.length);
    for (let i = 0; i < groups.length; i += 1) {
      const button = ui.categories.nth(i);
      const box = (await button.boundingBox())!;
      expect(box.x, groups[i].title).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, groups[i].title).toBeLessThanOrEqual(390);
      // Nothing inside the button is cut off: its content fits its own box.
      const clipped = await button.evaluate(
        (el) => el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight,
      );
      expect(clipped, `${groups[i].title} is clipped`).toBe(false);
    }

    // Every plan of the first service, so quantities of different lengths are compared.
    for (let p = 0; p < firstService.plans.length; p += 1) {
      await ui.plans.nth(p).click();
      await expect(ui.tiers).toHaveCount(firstService.plans[p].tiers.length);
      const heights = await ui.tiers.evaluateAll((cards) => cards.map((card) => card.getBoundingClientRect().height));
      expect(new Set(heights.map((h) => Math.round(h))).size, `heights ${heights.join(', ')}`).toBe(1);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});

test.describe('guarantee badges on the home page', () => {
  test('each promise links to the policy that states it, and those pages exist', async ({ page, request }) => {
    await gotoHydrated(page, '/');
    const badges = page.getByRole('list', { name: 'Our guarantees' }).getByRole('link');
    await expect(badges).toHaveCount(3);
    // REFUND_WINDOW_HOURS defaults to 48 (decision 025); the refill guarantee is 30 days (decision 004).
    await expect(badges.filter({ hasText: '48-hour refund' })).toHaveAttribute('href', '/refund-policy');
    await expect(badges.filter({ hasText: '30-day refill' })).toHaveAttribute('href', '/refund-policy');
    await expect(badges.filter({ hasText: 'No password' })).toHaveAttribute('href', '/privacy-policy');
    for (const href of await badges.evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''))) {
      expect((await request.get(href)).status(), href).toBe(200);
    }
    // The policy really says what the badges promise.
    const policy = await (await request.get('/refund-policy')).text();
    expect(policy).toContain('48 hours');
    expect(policy).toContain('30-day refill guarantee');
  });
});
