import { type Page, expect, test } from '@playwright/test';
import { expectNoSeriousAxeViolations } from './support/axe.ts';
import { sentTo, waitForMail } from './support/mail.ts';
import { uniqueSuffix } from './support/order.ts';
import { gotoHydrated } from './support/page.ts';

/**
 * The contact page (spec "Contact page", sections 4, 5 and 8): the spec's validation on submit,
 * typing clears that field's error, the button spinner, the green banner that clears the three
 * fields, the red banner with the server's (or the thrown error's) message, the Quick Answers
 * accordion (one open at a time), `?order=` prefilling the order ID, and axe.
 */

// The pages send a CSP with script nonces, which would block the injected axe script.
test.use({ bypassCSP: true });

// Every test calls from its own client address, so the per-client rate limit never sees another test.
test.beforeEach(async ({ page }) => {
  const octet = () => 1 + Math.floor(Math.random() * 254);
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': `10.${octet()}.${octet()}.${octet()}` });
});

const emailField = (page: Page) => page.getByLabel('Email', { exact: true });
const orderIdField = (page: Page) => page.getByLabel('Order ID (optional)', { exact: true });
const messageField = (page: Page) => page.getByLabel('Message', { exact: true });
const sendButton = (page: Page) => page.getByRole('button', { name: /^(Send message|Sending…)$/ });

test.describe('contact page', () => {
  test('shows the heading, the support address, the honest chat line and a 5-row message box', async ({ page }) => {
    const response = await gotoHydrated(page, '/contact');
    expect(response.status()).toBe(200);
    await expect(page).toHaveTitle('Contact Us | Boostly');
    await expect(page.getByRole('heading', { level: 1, name: 'Contact Us' })).toBeVisible();
    await expect(page.getByTestId('support-email')).toHaveAttribute('href', /^mailto:support@/);
    await expect(page.getByTestId('chat-note')).toContainText('We do not have a live chat');
    await expect(messageField(page)).toHaveAttribute('rows', '5');
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /\/contact$/);
    await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /support/);
  });

  test('validates on submit with the spec messages; typing clears only that field', async ({ page }) => {
    await gotoHydrated(page, '/contact');
    let posted = 0;
    await page.route('**/api/contact', async (route) => {
      posted += 1;
      await route.continue();
    });

    await sendButton(page).click();
    await expect(page.getByTestId('email-error')).toHaveText('Email is required');
    await expect(page.getByTestId('message-error')).toHaveText('Message is required');

    await emailField(page).fill('someone@example');
    await expect(page.getByTestId('email-error')).toHaveCount(0);
    await expect(page.getByTestId('message-error')).toHaveText('Message is required');

    await messageField(page).fill('   ');
    await sendButton(page).click();
    // 'Invalid Email ' keeps its trailing space (spec section 5); whitespace is no message.
    expect(await page.getByTestId('email-error').textContent()).toBe('Invalid Email ');
    await expect(page.getByTestId('message-error')).toHaveText('Message is required');
    await messageField(page).pressSequentially('x');
    await expect(page.getByTestId('message-error')).toHaveCount(0);
    await expect(page.getByTestId('email-error')).toBeVisible();
    // An invalid form is not sent.
    expect(posted).toBe(0);
  });

  test('sends: spinner while sending, green banner, the three fields cleared, both e-mails out', async ({ page }) => {
    const email = `contact-${uniqueSuffix()}@example.com`;
    await gotoHydrated(page, '/contact');
    // Hold the reply a moment so the submitting state can be seen.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/contact', async (route) => {
      await held;
      await route.continue();
    });

    await emailField(page).fill(email);
    await orderIdField(page).fill('NoSuchOrder42');
    await messageField(page).fill('Hello <b>support</b>, where is my order?');
    await sendButton(page).click();
    await expect(page.getByRole('button', { name: 'Sending…' })).toBeDisabled();
    release();

    await expect(page.getByTestId('contact-success')).toHaveText(
      'Thank you! Your message has been sent. We will reply to you by e-mail.',
    );
    await expect(emailField(page)).toHaveValue('');
    await expect(orderIdField(page)).toHaveValue('');
    await expect(messageField(page)).toHaveValue('');
    await expect(page.getByRole('button', { name: 'Send message' })).toBeEnabled();

    const ack = await waitForMail((mail) => sentTo(mail, email));
    expect(ack.subject).toBe('We have received your message');
    const toSupport = await waitForMail((mail) => mail.subject === `Contact message from ${email}`);
    expect(toSupport.text).toContain('Hello <b>support</b>, where is my order?');
  });

  test('shows the server message in a red banner, or the thrown error when the call fails', async ({ page }) => {
    await gotoHydrated(page, '/contact');
    await page.route('**/api/contact', (route) =>
      route.fulfill({
        status: 429,
        contentType: 'application/json',
        body: JSON.stringify({ isSuccessful: false, message: 'Too many requests. Please try again in 10 minutes.' }),
      }),
    );
    await emailField(page).fill('someone@example.com');
    await messageField(page).fill('Hello');
    await sendButton(page).click();
    await expect(page.getByTestId('contact-error')).toHaveText('Too many requests. Please try again in 10 minutes.');
    // Nothing was sent: the fields keep what was typed.
    await expect(messageField(page)).toHaveValue('Hello');

    await page.unroute('**/api/contact');
    await page.route('**/api/contact', (route) => route.abort('internetdisconnected'));
    await sendButton(page).click();
    await expect(page.getByTestId('contact-error')).toHaveText(
      'Could not reach the store. Please check your connection and try again.',
    );
  });

  test("puts the server's field errors under their fields, linked for assistive technology", async ({ page }) => {
    await gotoHydrated(page, '/contact');
    await page.route('**/api/contact', (route) =>
      route.fulfill({
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify({
          isSuccessful: false,
          message: 'message: Message contains characters that are not allowed',
          errors: [{ field: 'message', message: 'Message contains characters that are not allowed' }],
        }),
      }),
    );
    await emailField(page).fill('someone@example.com');
    await messageField(page).fill('Hello');
    await sendButton(page).click();
    await expect(page.getByTestId('message-error')).toHaveText('Message contains characters that are not allowed');
    await expect(messageField(page)).toHaveAttribute('aria-invalid', 'true');
    const describedBy = await messageField(page).getAttribute('aria-describedby');
    expect(await page.getByTestId('message-error').getAttribute('id')).toBe(describedBy);
    await expect(messageField(page)).toBeFocused();
    await expect(page.getByTestId('email-error')).toHaveCount(0);
    // Not a banner: the message is the field's.
    await expect(page.getByTestId('contact-error')).toHaveCount(0);
    // Typing in the field clears its error.
    await messageField(page).pressSequentially('!');
    await expect(page.getByTestId('message-error')).toHaveCount(0);
  });

  test('prefills the order ID from ?order= (the confirmation page link)', async ({ page }) => {
    await gotoHydrated(page, '/contact?order=Abc123XYZ');
    await expect(orderIdField(page)).toHaveValue('Abc123XYZ');
    await gotoHydrated(page, '/contact?order=%3Cscript%3E');
    await expect(orderIdField(page)).toHaveValue('');
  });

  test('Quick Answers: four questions, one open at a time, the open one closes on click', async ({ page }) => {
    await gotoHydrated(page, '/contact');
    const answers = page.getByTestId('quick-answers');
    // Native disclosures (<details name>): each question is its summary.
    const items = answers.locator('details');
    const buttons = answers.locator('summary');
    const shownAnswers = answers.locator('details > summary + div:visible');
    await expect(buttons).toHaveCount(4);
    await expect(items.nth(0)).toHaveJSProperty('open', true);
    await buttons.nth(2).click();
    await expect(items.nth(2)).toHaveJSProperty('open', true);
    await expect(items.nth(0)).toHaveJSProperty('open', false);
    await expect(shownAnswers).toHaveCount(1);
    await buttons.nth(2).click();
    await expect(items.nth(2)).toHaveJSProperty('open', false);
    await expect(shownAnswers).toHaveCount(0);
  });

  test('axe finds no serious or critical violations, with errors shown too', async ({ page }) => {
    await gotoHydrated(page, '/contact');
    await expectNoSeriousAxeViolations(page, '/contact');
    await sendButton(page).click();
    await expect(page.getByTestId('email-error')).toBeVisible();
    await expectNoSeriousAxeViolations(page, '/contact with errors');
  });
});
