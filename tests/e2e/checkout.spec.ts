import { type Page, expect, test } from '@playwright/test';
import { expectNoSeriousAxeViolations } from './support/axe.ts';
import { homePrice, plan } from './support/catalogue.ts';
import { waitForMail } from './support/mail.ts';
import {
  continueButton,
  enterTarget,
  maskedEmailPattern,
  openOrderForm,
  orderUrl,
  targetMessage,
  uniqueSuffix,
  verificationIcon,
} from './support/order.ts';
import { gotoHydrated } from './support/page.ts';

const FOLLOWERS = orderUrl('instagram-followers', 100, 'Standard');
const IG_USERNAME = 'Instagram Username';
const followersStandard = plan('instagram-followers', 'Standard');

/**
 * Fills a verified target and an e-mail on a followers order page, then presses Continue.
 * `url` null: the page is already open.
 */
async function placeFollowersOrder(page: Page, url: string | null = FOLLOWERS) {
  const suffix = uniqueSuffix();
  const email = `buyer-${suffix}@example.com`;
  const username = `e2e.buyer.${suffix}`.slice(0, 30);
  if (url) await openOrderForm(page, url, IG_USERNAME);
  else await expect(page.getByLabel(IG_USERNAME, { exact: true })).toBeVisible();
  await enterTarget(page, IG_USERNAME, username);
  await expect(verificationIcon(page)).toHaveAttribute('data-state', 'success');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await expect(continueButton(page)).toBeEnabled();
  await continueButton(page).click();
  return { email, username };
}

test.describe('checkout with the sandbox payment window', () => {
  test('full purchase: home → order form → sandbox Pay → confirmation → receipt e-mail', async ({ page }) => {
    await gotoHydrated(page, '/');
    await page.getByRole('link', { name: 'Buy Now' }).click();
    await expect(page).toHaveURL(/\/order\/instagram-followersGOI100\?type=Standard$/);
    await expect(page).toHaveTitle('Order | Boostly');

    const { email, username } = await placeFollowersOrder(page, null);

    const dialog = page.getByRole('dialog', { name: 'Sandbox checkout' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toHaveAttribute('aria-modal', 'true');
    await expect(dialog.getByTestId('sandbox-amount')).toHaveText('$2.99');
    await expect(dialog.getByTestId('sandbox-email')).toHaveText(email);
    await expect(dialog).toContainText('Test mode: no money moves');
    await expect(dialog.getByTestId('sandbox-method')).toHaveText('Card');
    await expect(dialog.getByRole('button', { name: 'Simulate a failed payment' })).toBeVisible();
    // No fee above 1: the window shows the amount alone.
    await expect(dialog.getByTestId('sandbox-fee')).toHaveCount(0);

    await dialog.getByRole('button', { name: 'Pay $2.99' }).click();

    await expect(page).toHaveURL(/\/order-confirm\/[A-Za-z0-9]+$/);
    const orderId = new URL(page.url()).pathname.split('/').pop()!;
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Thank you');
    await expect(page.getByTestId('order-number')).toHaveText(orderId);
    await expect(page.getByTestId('order-service')).toHaveText('Instagram Followers');
    await expect(page.getByTestId('order-quantity')).toHaveText('100');
    await expect(page.getByTestId('order-target')).toHaveText(username);
    await expect(page.getByTestId('order-amount')).toHaveText('$2.99');
    await expect(page.getByTestId('order-email')).toHaveText(maskedEmailPattern(email));
    await expect(page.getByTestId('order-email')).not.toHaveText(email);
    await expect(page.getByTestId('order-status')).toHaveText(/^[a-z]+(?:-[a-z]+)*$/);
    await expect(page.getByTestId('receipt-note')).toContainText('receipt has been e-mailed');
    await expect(page.getByRole('link', { name: 'View all orders' })).toHaveAttribute('href', '/client');

    const mail = await waitForMail(
      (m) => m.to.toLowerCase().includes(email) && (m.subject.includes(orderId) || m.text.includes(orderId)),
      20_000,
    );
    expect(mail.subject).toContain(orderId);
    expect(mail.text).toContain('Instagram Followers');

    // Paid: the next order starts with an empty form.
    await openOrderForm(page, FOLLOWERS, IG_USERNAME);
    await expect(page.getByLabel(IG_USERNAME, { exact: true })).toHaveValue('');
    await expect(page.getByLabel('Email', { exact: true })).toHaveValue('');
  });

  test('failure path: "Simulate a failed payment" ends on "Order not fulfill"; Try again returns to the package with the form kept', async ({
    page,
  }) => {
    const { email, username } = await placeFollowersOrder(page, orderUrl('instagram-followers', 250, 'Standard'));
    const dialog = page.getByRole('dialog', { name: 'Sandbox checkout' });
    await expect(dialog.getByTestId('sandbox-amount')).toHaveText('$5.49');
    await dialog.getByRole('button', { name: 'Simulate a failed payment' }).click();

    await expect(page).toHaveURL(/\/order-confirm\/[A-Za-z0-9]+$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Order not fulfill');
    await expect(page.getByRole('link', { name: 'Try again' })).toHaveAttribute(
      'href',
      '/order/instagram-followersGOI250?type=Standard',
    );
    await expect(page.getByRole('link', { name: 'View all orders' })).toHaveAttribute('href', '/client');

    await page.getByRole('link', { name: 'Try again' }).click();
    await expect(page).toHaveURL(/\/order\/instagram-followersGOI250\?type=Standard$/);
    await expect(page.getByLabel(IG_USERNAME, { exact: true })).toHaveValue(username);
    await expect(page.getByLabel('Email', { exact: true })).toHaveValue(email);
    // The kept target is checked again, so the buyer can continue at once.
    await expect(verificationIcon(page)).toHaveAttribute('data-state', 'success');
    await expect(continueButton(page)).toBeEnabled();
  });

  test('closing the sandbox window keeps the buyer on the order page with a notice and the form as typed', async ({
    page,
  }) => {
    const { email, username } = await placeFollowersOrder(page);
    const dialog = page.getByRole('dialog', { name: 'Sandbox checkout' });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page).toHaveURL(/\/order\/instagram-followersGOI100/);
    await expect(page.getByRole('status').filter({ hasText: 'payment window was closed' })).toBeVisible();
    await expect(page.getByLabel(IG_USERNAME, { exact: true })).toHaveValue(username);
    await expect(page.getByLabel('Email', { exact: true })).toHaveValue(email);
    await expect(continueButton(page)).toBeEnabled();
  });

  test('a price of 1 or less shows a named "Processing fee $1.00" on the page and in the payment window', async ({
    page,
  }) => {
    // Instagram Likes, Standard, 50 costs 0.99 in the seed: the buyer is charged 1.99.
    await openOrderForm(page, orderUrl('instagram-likes', 50, 'Standard'), 'Instagram Post URL');
    await expect(page.getByTestId('order-package-price')).toHaveText('$0.99');
    await expect(page.getByTestId('order-fee')).toHaveText('$1.00');
    await expect(page.getByTestId('order-charges')).toContainText('Processing fee');
    await expect(page.getByTestId('order-total')).toHaveText('$1.99');

    await enterTarget(page, 'Instagram Post URL', 'https://www.instagram.com/p/CxYz123AbC/');
    await expect(verificationIcon(page)).toHaveAttribute('data-state', 'success');
    await page.getByLabel('Email', { exact: true }).fill(`fee-${uniqueSuffix()}@example.com`);
    await continueButton(page).click();
    const dialog = page.getByRole('dialog', { name: 'Sandbox checkout' });
    await expect(dialog.getByTestId('sandbox-package-price')).toHaveText('$0.99');
    await expect(dialog.getByTestId('sandbox-fee')).toHaveText('$1.00');
    await expect(dialog).toContainText('Processing fee');
    await expect(dialog.getByTestId('sandbox-amount')).toHaveText('$1.99');
    await dialog.getByRole('button', { name: 'Pay $1.99' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Thank you');
    await expect(page.getByTestId('order-fee')).toHaveText('$1.00');
    await expect(page.getByTestId('order-amount')).toHaveText('$1.99');
  });
});

test.describe('order form validation (spec section 5)', () => {
  test("an empty target says 'Name is required'", async ({ page }) => {
    await openOrderForm(page, FOLLOWERS, IG_USERNAME);
    const target = page.getByLabel(IG_USERNAME, { exact: true });
    await target.focus();
    await target.press('Tab');
    await expect(targetMessage(page)).toHaveText('Name is required');
    await expect(target).toHaveAttribute('aria-invalid', 'true');
    await expect(target).toHaveAccessibleDescription('Name is required');
    await expect(continueButton(page)).toBeDisabled();
  });

  test("an empty YouTube target says 'YouTube URL is required'", async ({ page }) => {
    await openOrderForm(page, orderUrl('youtube-views', 500, 'Standard'), 'YouTube Video URL');
    const target = page.getByLabel('YouTube Video URL', { exact: true });
    await target.focus();
    await target.press('Tab');
    await expect(targetMessage(page)).toHaveText('YouTube URL is required');
    await expect(target).toHaveAttribute('aria-invalid', 'true');
  });

  test("e-mail: 'Email is required', then 'Invalid email format'; an invalid form is not sent", async ({ page }) => {
    const orderCalls: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/order')
        orderCalls.push(request.url());
    });
    await openOrderForm(page, FOLLOWERS, IG_USERNAME);
    await enterTarget(page, IG_USERNAME, 'valid.user');
    await expect(verificationIcon(page)).toHaveAttribute('data-state', 'success');

    const email = page.getByLabel('Email', { exact: true });
    await continueButton(page).click();
    await expect(email).toHaveAttribute('aria-invalid', 'true');
    await expect(email).toHaveAccessibleDescription('Email is required');
    await expect(page.getByText('Email is required', { exact: true })).toBeVisible();
    await expect(email).toBeFocused();

    await email.fill('not-an-email');
    await continueButton(page).click();
    await expect(page.getByText('Invalid email format', { exact: true })).toBeVisible();
    await expect(email).toHaveAccessibleDescription('Invalid email format');

    await email.fill('fixed@example.com');
    await expect(page.getByText('Invalid email format', { exact: true })).toHaveCount(0);
    await expect(email).toHaveAttribute('aria-invalid', 'false');
    expect(orderCalls).toEqual([]);
  });

  test("comments: a 7-row box on a service with comments, 'Comments is required'", async ({ page }) => {
    await openOrderForm(page, orderUrl('instagram-custom-comments', 5, 'Standard'), 'Instagram Post URL');
    const comments = page.getByLabel('Comments', { exact: true });
    await expect(comments).toHaveAttribute('rows', '7');
    await enterTarget(page, 'Instagram Post URL', 'https://www.instagram.com/p/CxYz123AbC/');
    await expect(verificationIcon(page)).toHaveAttribute('data-state', 'success');
    await page.getByLabel('Email', { exact: true }).fill('comments@example.com');
    await continueButton(page).click();
    await expect(page.getByText('Comments is required', { exact: true })).toBeVisible();
    await expect(comments).toHaveAttribute('aria-invalid', 'true');
    await expect(comments).toHaveAccessibleDescription('Comments is required');
    await expect(comments).toBeFocused();
  });

  test('a service without comments has no comment box', async ({ page }) => {
    await openOrderForm(page, FOLLOWERS, IG_USERNAME);
    await expect(page.getByLabel('Comments', { exact: true })).toHaveCount(0);
  });
});

test.describe('order page errors (spec section 8)', () => {
  for (const url of [
    '/order/instagram-followers?type=Standard',
    '/order/instagram-followersGOI100',
    '/order/instagram-followersGOI100?type=',
    '/order/GOI100?type=Standard',
  ]) {
    test(`'Invalid URL parameters!' without calling the API: ${url}`, async ({ page }) => {
      const lookups: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('/api/order/form-detail')) lookups.push(request.url());
      });
      await gotoHydrated(page, url);
      await expect(page.getByRole('alert')).toContainText('Invalid URL parameters!');
      await expect(continueButton(page)).toHaveCount(0);
      expect(lookups).toEqual([]);
    });
  }

  test("an unknown service or plan type: 'Package details not available'", async ({ page }) => {
    await gotoHydrated(page, orderUrl('no-such-service', 100, 'Standard'));
    await expect(page.getByTestId('order-error')).toContainText('Package details not available');
    await gotoHydrated(page, orderUrl('instagram-followers', 100, 'Platinum'));
    await expect(page.getByTestId('order-error')).toContainText('Package details not available');
  });

  test("a quantity that is not a listed package: 'Selected package not found'", async ({ page }) => {
    await gotoHydrated(page, orderUrl('instagram-followers', 123, 'Standard'));
    await expect(page.getByTestId('order-error')).toContainText('Selected package not found');
    await expect(continueButton(page)).toHaveCount(0);
  });
});

test.describe('target verification (spec section 4)', () => {
  test('Continue stays disabled until the target is verified; changing the text resets the state', async ({ page }) => {
    // Hold the verification answer so the loading state can be seen.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/services/verify-insta-url', async (route) => {
      await held;
      await route.continue();
    });

    await openOrderForm(page, FOLLOWERS, IG_USERNAME);
    const target = page.getByLabel(IG_USERNAME, { exact: true });
    await expect(continueButton(page)).toBeDisabled();
    await expect(verificationIcon(page)).toHaveAttribute('data-state', 'idle');

    await enterTarget(page, IG_USERNAME, 'bad user!');
    await expect(verificationIcon(page)).toHaveAttribute('data-state', 'loading');
    await expect(page.getByTestId('target-message')).toHaveText('Checking…');
    await expect(continueButton(page)).toBeDisabled();
    release();
    await expect(verificationIcon(page)).toHaveAttribute('data-state', 'error');
    await expect(targetMessage(page)).toContainText('Invalid Instagram input');
    await expect(targetMessage(page)).toContainText('Invalid URL');
    await expect(target).toHaveAttribute('aria-invalid', 'true');
    await expect(continueButton(page)).toBeDisabled();

    // Any change of the text goes back to idle.
    await target.fill('good.user');
    await expect(verificationIcon(page)).toHaveAttribute('data-state', 'idle');
    await expect(targetMessage(page)).toHaveText('');
    await expect(continueButton(page)).toBeDisabled();

    await target.press('Tab');
    await expect(verificationIcon(page)).toHaveAttribute('data-state', 'success');
    await expect(targetMessage(page)).toHaveText('Verified');
    await expect(target).toHaveAttribute('aria-invalid', 'false');
    await expect(continueButton(page)).toBeEnabled();

    await target.press('End');
    await target.press('x');
    await expect(verificationIcon(page)).toHaveAttribute('data-state', 'idle');
    await expect(continueButton(page)).toBeDisabled();
  });

  test('a YouTube service: without internet the check answers "unchecked", which also enables Continue', async ({
    page,
  }) => {
    await openOrderForm(page, orderUrl('youtube-views', 500, 'Standard'), 'YouTube Video URL');
    const target = page.getByLabel('YouTube Video URL', { exact: true });
    await expect(target).toHaveAttribute('placeholder', /youtube\.com/);
    await enterTarget(page, 'YouTube Video URL', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ');
    // Verified when YouTube answered, unchecked when it could not be reached: both are a success.
    await expect(verificationIcon(page)).toHaveAttribute('data-state', 'success', { timeout: 15_000 });
    await expect(continueButton(page)).toBeEnabled();
  });

  test('a malformed YouTube URL is rejected with the spec messages', async ({ page }) => {
    await openOrderForm(page, orderUrl('youtube-views', 500, 'Standard'), 'YouTube Video URL');
    await enterTarget(page, 'YouTube Video URL', 'https://example.com/watch?v=nope');
    await expect(verificationIcon(page)).toHaveAttribute('data-state', 'error');
    await expect(targetMessage(page)).toContainText('Invalid YouTube URL');
    await expect(targetMessage(page)).toContainText('Invalid URL');
    await expect(continueButton(page)).toBeDisabled();
  });
});

test.describe('order page layout (spec "Order page")', () => {
  test('header links, report-issue tooltip, the paid-orders count, Get Started, no press quote', async ({ page }) => {
    await openOrderForm(page, FOLLOWERS, IG_USERNAME);
    await expect(page.getByTestId('top-bar')).toHaveCount(0);

    await expect(page.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
    await expect(page.getByRole('link', { name: 'Boostly home' })).toHaveAttribute('href', '/');
    await expect(page.getByRole('link', { name: 'My orders' })).toHaveAttribute('href', '/client');

    const report = page.getByTestId('report-issue');
    await expect(report).toHaveAttribute('href', '/contact');
    await expect(report).toHaveAttribute('title', 'Having issues? Report to us!');
    await expect(report).toHaveAccessibleDescription('Having issues? Report to us!');
    const tooltip = page.getByRole('tooltip');
    await expect(tooltip).toBeHidden();
    await report.hover();
    await expect(tooltip).toBeVisible();
    await expect(tooltip).toHaveText('Having issues? Report to us!');

    // Decision 031: a real count of orders paid (none shown when there were none), no press quote.
    const live = page.getByTestId('live-users');
    if ((await live.count()) > 0) await expect(live).toHaveText(/^[\d,]+ orders? paid in the last 24 hours$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Get Started' })).toBeVisible();
    await expect(page.locator('blockquote')).toHaveCount(0);

    await page.getByRole('link', { name: 'Back to home' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('the target field takes its title, placeholder and icon from the service lookup', async ({ page }) => {
    await openOrderForm(page, FOLLOWERS, IG_USERNAME);
    const target = page.getByLabel(IG_USERNAME, { exact: true });
    await expect(target).toHaveAttribute('placeholder', 'yourusername (without @)');
    await expect(page.locator('img[src="/images/groups/instagram.svg"]')).toHaveCount(1);
    await expect(page.getByLabel('Email', { exact: true })).toHaveAttribute('type', 'email');
  });

  test('the quantity dropdown lists the plan packages as order links with $ prices', async ({ page }) => {
    await openOrderForm(page, FOLLOWERS, IG_USERNAME);
    const toggle = page.getByTestId('quantity-dropdown');
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    const options = page.getByTestId('quantity-option');
    await expect(options.first()).toBeHidden();

    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(options).toHaveCount(followersStandard.tiers.length);
    for (const [i, tier] of followersStandard.tiers.entries()) {
      await expect(options.nth(i)).toHaveAttribute('href', `/order/instagram-followersGOI${tier.qty}?type=Standard`);
      await expect(options.nth(i)).toContainText(tier.text);
      await expect(options.nth(i)).toContainText(homePrice(tier));
    }
    await expect(options.nth(0)).toHaveAttribute('aria-current', 'true');

    // Keep what was typed while switching packages.
    await page.keyboard.press('Escape');
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await page.getByLabel(IG_USERNAME, { exact: true }).fill('keeps.me');
    await toggle.click();
    const tier = followersStandard.tiers[2];
    await options.nth(2).click();
    await expect(page).toHaveURL(new RegExp(`/order/instagram-followersGOI${tier.qty}\\?type=Standard$`));
    await expect(page.getByTestId('order-total')).toHaveText(homePrice(tier));
    await expect(options.nth(2)).toHaveAttribute('aria-current', 'true');
    await expect(toggle).toContainText(tier.text);
    await expect(page.getByLabel(IG_USERNAME, { exact: true })).toHaveValue('keeps.me');
  });

  test('one package chooser: the quantity dropdown, no second grid of the same packages', async ({ page }) => {
    await openOrderForm(page, FOLLOWERS, IG_USERNAME);
    await expect(page.getByTestId('quantity-dropdown')).toHaveCount(1);
    await expect(page.getByTestId('package-option')).toHaveCount(0);
    await expect(page.getByTestId('secure-checkout')).toContainText('Test mode');
    await expect(page.getByRole('img', { name: 'Visa' })).toBeVisible();
    await expect(page.getByRole('img', { name: 'Mastercard' })).toBeVisible();
  });
});

test.describe('order confirmation', () => {
  /** An order paid through the API, as the sandbox window would. */
  async function paidOrder(page: Page): Promise<string> {
    const suffix = uniqueSuffix();
    const api = page.request;
    const created = await api.post('/api/order', {
      data: {
        type: 'Standard',
        slug: 'instagram-followers',
        qty: 100,
        name: `paid.${suffix}`.slice(0, 30),
        email: `paid-${suffix}@example.com`,
        amount: 2.99,
        currency: 'USD',
        order_id: String(Math.floor(Math.random() * 1e6)).padStart(6, '0'),
      },
    });
    expect(created.status()).toBe(200);
    const { data: order } = await created.json();
    const paid = await api.post('/api/sandbox/pay', { data: { razorpay_order_id: order.razorpay_order_id } });
    const { data: result } = await paid.json();
    const verified = await api.post('/api/order/verify-payment', { data: result });
    const { data } = await verified.json();
    return data.orderId as string;
  }

  test('"View all orders" goes to /client', async ({ page }) => {
    const orderId = await paidOrder(page);
    await gotoHydrated(page, `/order-confirm/${orderId}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Thank you');
    await page.getByRole('link', { name: 'View all orders' }).click();
    await expect(page).toHaveURL(/\/client$/);
  });

  test("a lookup failure shows 'Error: ' and the message", async ({ page }) => {
    await gotoHydrated(page, '/order-confirm/doesNotExist123');
    await expect(page.getByRole('alert')).toContainText('Error: Order not found');
  });

  test('the misspelt /order-confrim routes redirect', async ({ page }) => {
    const withId = await page.request.get('/order-confrim/abc123', { maxRedirects: 0 });
    expect(withId.status()).toBe(301);
    expect(withId.headers().location).toBe('/order-confirm/abc123');
    const without = await page.request.get('/order-confrim', { maxRedirects: 0 });
    expect(without.status()).toBe(301);
    expect(without.headers().location).toBe('/client');
  });

  test('order pages are never cached', async ({ page }) => {
    for (const url of [FOLLOWERS, '/order-confirm/abc123']) {
      const response = await page.request.get(url);
      expect(response.headers()['cache-control'], url).toBe('private, no-store');
    }
  });
});

test.describe('Razorpay checkout window (browser side)', () => {
  // The store runs with the sandbox here; the order reply is rewritten to ask for Razorpay, and
  // a stand-in checkout.js answers the way Razorpay's window does. The page's CSP allows
  // Razorpay's host only when Razorpay is configured, so it is bypassed for this stand-in.
  test.use({ bypassCSP: true });

  async function withFakeRazorpay(page: Page, outcome: 'success' | 'fail' | 'dismiss') {
    const loads: string[] = [];
    await page.route('https://checkout.razorpay.com/v1/checkout.js', async (route) => {
      loads.push(route.request().url());
      await route.fulfill({
        contentType: 'application/javascript',
        body: `
          window.Razorpay = function (options) {
            const listeners = {};
            window.__rzpOptions = JSON.parse(JSON.stringify(options));
            this.on = (event, listener) => { listeners[event] = listener; };
            this.close = () => {};
            this.open = () => setTimeout(() => {
              const outcome = ${JSON.stringify(outcome)};
              if (outcome === 'fail') listeners['payment.failed']({ error: { description: 'Card declined (stand-in)', metadata: { order_id: options.order_id, payment_id: 'pay_standin1' } } });
              else if (outcome === 'dismiss') options.modal.ondismiss();
              else options.handler({ razorpay_order_id: options.order_id, razorpay_payment_id: 'pay_standin1', razorpay_signature: 'not-a-valid-signature' });
            }, 50);
          };`,
      });
    });
    await page.route('**/api/order', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      const response = await route.fetch();
      const body = await response.json();
      if (body.isSuccessful) {
        const { checkout } = body.data;
        body.data.checkout = {
          provider: 'razorpay',
          key: 'rzp_test_standin',
          order_id: checkout.order_id,
          amount: checkout.amountCents,
          currency: checkout.currency,
          name: 'Boostly',
          description: body.data.serviceName,
          prefill: { email: body.data.email },
        };
      }
      await route.fulfill({ response, json: body });
    });
    return loads;
  }

  test('the handler result is verified; a failed verification shows the spec alert', async ({ page }) => {
    const loads = await withFakeRazorpay(page, 'success');
    const alert = new Promise<string>((resolve) => {
      page.once('dialog', async (dialog) => {
        resolve(dialog.message());
        await dialog.accept();
      });
    });
    const { email } = await placeFollowersOrder(page);
    expect(await alert).toBe('Payment verification failed: Invalid payment signature');
    expect(loads).toHaveLength(1);
    const options = await page.evaluate(
      () => (window as unknown as { __rzpOptions: Record<string, unknown> }).__rzpOptions,
    );
    expect(options).toMatchObject({ key: 'rzp_test_standin', amount: 299, currency: 'USD', prefill: { email } });
    // The window gets the payment attempt's reference: here the sandbox's, which the stand-in passes on.
    expect(String(options.order_id)).toMatch(/^sbx_/);
    await expect(page).toHaveURL(/\/order\/instagram-followersGOI100/);
    expect(await page.locator('script[src="https://checkout.razorpay.com/v1/checkout.js"]').count()).toBe(1);
  });

  test('payment.failed records the failure and shows "Order not fulfill"', async ({ page }) => {
    await withFakeRazorpay(page, 'fail');
    await placeFollowersOrder(page);
    await expect(page).toHaveURL(/\/order-confirm\/[A-Za-z0-9]+$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Order not fulfill');
  });

  test('closing the Razorpay window leaves a notice on the order page', async ({ page }) => {
    await withFakeRazorpay(page, 'dismiss');
    await placeFollowersOrder(page);
    await expect(page.getByRole('status').filter({ hasText: 'payment window was closed' })).toBeVisible();
    await expect(page).toHaveURL(/\/order\/instagram-followersGOI100/);
  });
});

test.describe('accessibility of the checkout pages', () => {
  // The pages send a CSP with script nonces, which would block the injected axe script.
  test.use({ bypassCSP: true });

  test('axe: the order page, with field errors, and with the sandbox dialog open', async ({ page }) => {
    await openOrderForm(page, FOLLOWERS, IG_USERNAME);
    await expectNoSeriousAxeViolations(page, 'the order page');

    await enterTarget(page, IG_USERNAME, 'bad user!');
    await expect(verificationIcon(page)).toHaveAttribute('data-state', 'error');
    await page.getByTestId('quantity-dropdown').click();
    await expectNoSeriousAxeViolations(page, 'the order page with an error and the dropdown open');
    await page.keyboard.press('Escape');

    await placeFollowersOrder(page);
    await expect(page.getByRole('dialog', { name: 'Sandbox checkout' })).toBeVisible();
    await expectNoSeriousAxeViolations(page, 'the sandbox dialog');
  });

  test('axe: the order page error banner and the confirmation page', async ({ page }) => {
    await gotoHydrated(page, orderUrl('instagram-followers', 123, 'Standard'));
    await expect(page.getByTestId('order-error')).toBeVisible();
    await expectNoSeriousAxeViolations(page, 'the order error banner');

    await placeFollowersOrder(page);
    await page.getByRole('dialog', { name: 'Sandbox checkout' }).getByRole('button', { name: /^Pay / }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Thank you');
    await expectNoSeriousAxeViolations(page, 'the confirmation page');
  });
});
