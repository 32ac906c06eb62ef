import { type Page, expect, test } from '@playwright/test';
import { expectNoSeriousAxeViolations } from './support/axe.ts';
import { gotoHydrated } from './support/page.ts';

/**
 * The mock-up pages (docs/decisions/028-mock-up-pages.md): /free-followers validates and answers a
 * valid submit with the honest preview notice; /payment goes from the method (step 1) to the
 * billing form (step 2), shows its validation messages with focus on the first invalid field,
 * searches country codes, reveals the second address, links the terms and privacy pages, and
 * sends a valid form to the sample confirmation, one path by keyboard only; axe on all three.
 */

// The pages send a CSP with script nonces, which would block the injected axe script.
test.use({ bypassCSP: true });

async function fillValidBilling(page: Page) {
  await page.getByLabel('Country', { exact: true }).selectOption('GB');
  await page.getByLabel('Full name').fill('Ann Example');
  await page.getByLabel('Address', { exact: true }).fill('1 High Street, London');
  await page.getByLabel('Email').fill('ann@example.com');
  await page.getByLabel('Zip code').fill('SW1A 1AA');
  await page.getByLabel('Phone number').fill('020 7946 0958');
  await page.getByLabel(/I agree to the/).check();
  await page.getByLabel(/I have read the/).check();
}

test.describe('free followers preview', () => {
  test('validates, fills the quantity from a package, and answers honestly', async ({ page }) => {
    await gotoHydrated(page, '/free-followers');
    await expect(page.getByRole('heading', { level: 1, name: 'Free Instagram Followers' })).toBeVisible();
    await expect(page.getByTestId('preview-banner')).toContainText('free trials are not offered yet');
    await expect(page.getByRole('button', { name: 'Get Free Followers' })).toHaveCount(3);
    await expect(page.getByLabel('Followers Quantity')).toHaveAttribute('placeholder', '10-350000');

    await page.getByTestId('get-free-followers-top').click();
    await expect(page.getByTestId('username-error')).toHaveText('Username is required');
    await expect(page.getByTestId('quantity-error')).toHaveText('Followers quantity is required');
    await expect(page.getByLabel('Username')).toBeFocused();
    await expect(page.getByTestId('free-followers-errors')).toHaveText('Check the 2 highlighted fields.');

    await page.getByLabel('Username').fill('bad..name');
    await page.getByLabel('Followers Quantity').fill('9');
    await page.getByTestId('get-free-followers-form').click();
    await expect(page.getByTestId('username-error')).toContainText('Enter an Instagram username');
    await expect(page.getByTestId('quantity-error')).toHaveText('Enter between 10 and 350,000 followers');
    await page.getByLabel('Followers Quantity').fill('12.5');
    await expect(page.getByTestId('quantity-error')).toHaveText(
      'Enter the number of followers as a whole number, e.g. 500',
    );

    await page.getByRole('button', { name: /^2,500 Followers/ }).click();
    await expect(page.getByLabel('Followers Quantity')).toHaveValue('2500');
    await expect(page.getByRole('button', { name: /^2,500 Followers/ })).toHaveAttribute('aria-pressed', 'true');
    // The package's quantity is checked again at once: its message goes without typing.
    await expect(page.getByTestId('quantity-error')).toBeHidden();
    await expect(page.getByTestId('username-error')).toContainText('Enter an Instagram username');
    await page.getByLabel('Username').fill('@good.name');
    await page.getByTestId('get-free-followers-packages').click();

    const notice = page.getByTestId('free-followers-notice');
    await expect(notice).toContainText('Free trials are not offered yet.');
    await expect(notice).toContainText('@good.name will not receive 2,500 free followers');
    await expect(notice).toBeFocused();
    await expect(page.getByTestId('free-followers-real-service')).toHaveAttribute(
      'href',
      '/service/instagram-followers',
    );
    await expectNoSeriousAxeViolations(page, '/free-followers (notice shown)');
  });
});

test.describe('payment preview', () => {
  test('step 1 shows the sample maths; step 2 validates, searches codes, toggles, and ends on the sample', async ({
    page,
  }) => {
    await gotoHydrated(page, '/payment');
    await expect(page.getByTestId('preview-banner')).toContainText('takes no payment');
    await expect(page.getByTestId('method-cryptomus-total')).toHaveText(
      'Sample order: $12.99 − $0.65 (5% discount) = $12.34',
    );
    await expect(page.getByTestId('method-razorpay-total')).toHaveText('Sample order: $12.99');
    await expect(page.getByTestId('method-card-3ds-total')).toHaveText(
      'Sample order: $12.99 + $0.65 (5% surcharge) = $13.64',
    );
    await expectNoSeriousAxeViolations(page, '/payment step 1');

    await page.getByLabel('Cryptomus').check();
    await page.getByRole('button', { name: 'Continue to billing details' }).click();
    await expect(page).toHaveURL(/\/payment\?step=billing&method=cryptomus$/);
    await expect(page.getByRole('heading', { name: 'Step 2 of 2: Billing details' })).toBeFocused();
    const pay = page.getByRole('button', { name: 'Pay by Cryptomus' });

    // Everything missing: every message, focus on the first invalid field, the summary announced.
    await pay.click();
    await expect(page.getByTestId('country-error')).toHaveText('Country is required');
    await expect(page.getByTestId('fullName-error')).toHaveText('Full name is required');
    await expect(page.getByTestId('address-error')).toHaveText('Address is required');
    await expect(page.getByTestId('email-error')).toHaveText('Email is required');
    await expect(page.getByTestId('zip-error')).toHaveText('Zip code is required');
    await expect(page.getByTestId('phoneCountry-error')).toHaveText('Choose the country code of your phone number');
    await expect(page.getByTestId('phone-error')).toHaveText('Phone number is required');
    await expect(page.getByTestId('acceptTerms-error')).toHaveText('Accept the Terms of Service to continue');
    await expect(page.getByTestId('acceptPrivacy-error')).toHaveText('Accept the Privacy Policy to continue');
    await expect(page.getByTestId('billing-errors')).toHaveText('Check the 9 highlighted fields.');
    await expect(page.getByLabel('Country', { exact: true })).toBeFocused();
    await expect(page.getByLabel('Country', { exact: true })).toHaveAttribute('aria-invalid', 'true');

    // The terms and privacy links go to the real pages, in a new tab.
    await expect(page.getByTestId('billing-form').getByRole('link', { name: 'Terms of Service' })).toHaveAttribute(
      'href',
      '/terms-condition',
    );
    await expect(page.getByTestId('billing-form').getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute(
      'href',
      '/privacy-policy',
    );
    await expect(page.getByTestId('billing-form').getByRole('link', { name: 'Terms of Service' })).toHaveAttribute(
      'target',
      '_blank',
    );

    // Corporate asks the company name.
    await page.getByLabel('Corporate').check();
    await pay.click();
    await expect(page.getByTestId('companyName-error')).toHaveText('Company name is required');
    await page.getByLabel('Company name').fill('Acme Ltd');

    await fillValidBilling(page);
    // The phone code followed the billing country; the number shows formatted.
    await expect(page.getByLabel('Country code', { exact: true })).toHaveValue('GB');
    await expect(page.getByTestId('phone-formatted')).toHaveText('Formatted: +44 20 7946 0958');

    // Country-code search by +code and by name.
    const search = page.getByLabel('Search country codes');
    await search.fill('+91');
    await expect(page.getByTestId('phone-country-matches')).toHaveText('1 country matches');
    await page.getByLabel('Country code', { exact: true }).selectOption('IN');
    await search.fill('ivory');
    await expect(page.getByTestId('phone-country-matches')).toHaveText('1 country matches');
    await expect(page.getByLabel('Country code', { exact: true }).locator('option')).toHaveText([
      'Choose a country code',
      'India (+91)',
      "Cote d'Ivoire (+225)",
    ]);
    // A number with another country's code is refused for the chosen one.
    await page.getByLabel('Phone number').fill('+44 20 7946 0958');
    await expect(page.getByTestId('phone-formatted')).toHaveText('');
    await pay.click();
    await expect(page.getByTestId('phone-error')).toContainText("another country's code");
    await expect(page.getByLabel('Phone number')).toBeFocused();
    await page.getByLabel('Phone number').fill('98765 43210');
    await expect(page.getByTestId('phone-error')).toHaveCount(0);
    await expect(page.getByTestId('phone-formatted')).toHaveText('Formatted: +91 98765 43210');

    // The different-billing toggle reveals the second address, which is then required.
    await expect(page.getByTestId('billing-address')).toHaveCount(0);
    await page.getByLabel('Use different billing information').check();
    await expect(page.getByTestId('billing-address')).toBeVisible();
    await pay.click();
    await expect(page.getByTestId('billingName-error')).toHaveText('Full name is required');
    await expect(page.getByLabel('Name on the bill')).toBeFocused();
    await expectNoSeriousAxeViolations(page, '/payment step 2 with errors');
    await page.getByLabel('Use different billing information').uncheck();
    await expect(page.getByTestId('billing-address')).toHaveCount(0);

    await pay.click();
    await expect(page).toHaveURL(/\/payment\/sample-confirmation\?method=cryptomus$/);
    await expect(page.getByTestId('sample-no-order')).toHaveText('No order was placed.');
    await expect(page.getByTestId('sample-amount')).toContainText('$12.34');
    await expect(page.getByTestId('preview-banner')).toContainText('no order was placed and nothing was charged');
    await expectNoSeriousAxeViolations(page, '/payment/sample-confirmation');
  });

  test('keyboard only: choose the 3-D Secure card, fill the form, reach the sample confirmation', async ({ page }) => {
    await gotoHydrated(page, '/payment');
    // Tab to the method radios: the checked one (Cryptomus) takes focus; arrows move within the group.
    await page.getByLabel('Cryptomus').focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect(page.getByLabel('Card with 3-D Secure')).toBeChecked();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Continue to billing details' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/method=card-3ds/);
    await expect(page.getByRole('heading', { name: 'Step 2 of 2: Billing details' })).toBeFocused();

    const typeInto = async (label: string | RegExp, text: string) => {
      await page.keyboard.press('Tab');
      await expect(page.getByLabel(label, { exact: typeof label === 'string' })).toBeFocused();
      if (text) await page.keyboard.type(text);
    };
    // Heading → "Change method" link → bill type radios → country …
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Change method' })).toBeFocused();
    await typeInto('Individual', '');
    await typeInto('Country', 'United States of America');
    await typeInto('Full name', 'Sam Keyboard');
    await typeInto('Address', '5 Main Street, Springfield');
    await typeInto('Email', 'sam@example.com');
    await typeInto('Zip code', '94103');
    await typeInto('Search country codes', '');
    await typeInto('Country code', '');
    await expect(page.getByLabel('Country code', { exact: true })).toHaveValue('US');
    await typeInto('Phone number', '(201) 555-0123');
    await typeInto('Use different billing information', '');
    await typeInto(/I agree to the/, '');
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab'); // the Terms link
    await typeInto(/I have read the/, '');
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab'); // the Privacy link
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Pay by Card with 3-D Secure' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/payment\/sample-confirmation\?method=card-3ds$/);
    await expect(page.getByTestId('sample-method')).toHaveText('Card with 3-D Secure (5% surcharge)');
    await expect(page.getByTestId('sample-amount')).toContainText('$13.64');
  });
});
