import { type Locator, type Page, expect, test } from '@playwright/test';
import { E2E_ADMINS, clientAddress, logIn, storedToken } from './support/admin.ts';
import { expectNoSeriousAxeViolations } from './support/axe.ts';
import { acceptMailTo, capturedMail, refuseMailTo, sentTo, waitForMail } from './support/mail.ts';
import { uniqueSuffix } from './support/order.ts';

/**
 * The Failed mail page (decision 015): an e-mail the mail server refuses for good (550) is listed
 * with its recipient, subject, attempts and error; the admin navigation counts it; every admin is
 * told by e-mail; "Send again" queues one more attempt (failing again while the server still
 * refuses, delivered once it takes the address). The e2e SMTP sink refuses only the address this
 * test names (support/serve.ts), so nobody else's mail fails; the list and the count are the
 * whole store's, so the checks compare with what was there before.
 */

// The pages send a CSP with script nonces, which would block the injected axe script.
test.use({ bypassCSP: true });

test.beforeEach(async ({ page }) => {
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': clientAddress() });
});

const RESEND_QUEUED = 'The e-mail will be sent again.';

const navLink = (page: Page) =>
  page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: /Failed mail/ });
const badge = (page: Page) => navLink(page).getByTestId('failed-mail-count');

async function failedCount(page: Page, token: string): Promise<number> {
  const reply = await page.request.get('/api/admin/mail/failed/count', {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(reply.status()).toBe(200);
  return ((await reply.json()) as { data: { count: number } }).data.count;
}

/** The navigation's count: the number, or no badge at all for none. */
async function expectBadge(page: Page, count: number): Promise<void> {
  if (count === 0) await expect(badge(page)).toHaveCount(0);
  else await expect(badge(page)).toHaveText(`${count} failed`);
}

/** Opens the page again from the navigation until `check` holds (the mail job runs in the background). */
async function reopenUntil(page: Page, check: () => Promise<void>): Promise<void> {
  await expect(async () => {
    await navLink(page).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Failed mail');
    await expect(page.locator('section[aria-labelledby="failed-mail-title"]')).toHaveAttribute('aria-busy', 'false');
    await check();
  }).toPass({ timeout: 30_000, intervals: [500, 1000, 2000] });
}

function cells(row: Locator) {
  return {
    recipient: row.getByRole('cell').nth(0),
    subject: row.getByRole('cell').nth(1),
    attempts: row.getByRole('cell').nth(2),
    lastError: row.getByRole('cell').nth(3),
    givenUp: row.getByRole('cell').nth(4),
  };
}

test.describe('admin failed mail', () => {
  test('a refused e-mail: listed, counted in the navigation, the admins alerted; Send again fails again, then delivers', async ({
    page,
  }) => {
    test.setTimeout(150_000);
    const address = `refused-${uniqueSuffix()}@example.com`;
    await logIn(page, E2E_ADMINS.mail);
    const token = (await storedToken(page))!;
    const before = await failedCount(page, token);

    await navLink(page).click();
    await expect(page).toHaveURL(/\/admin\/mail$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Failed mail');
    await expect(navLink(page)).toHaveAttribute('aria-current', 'page');
    await expectBadge(page, before);
    if (before === 0) {
      await expect(page.getByTestId('failed-mail-empty')).toContainText(
        'No failed e-mails: everything was delivered or is still being retried.',
      );
    }
    await expectNoSeriousAxeViolations(page, before === 0 ? '/admin/mail (empty)' : '/admin/mail');

    // A customer asks for an order-history code for an address the mail server refuses for good.
    await refuseMailTo(address);
    const asked = await page.request.post('/api/order/order-history/code', { data: { email: address } });
    expect(asked.status()).toBe(200);

    const row = page.getByTestId('failed-mail').getByRole('row').filter({ hasText: address });
    await reopenUntil(page, () => expect(row).toHaveCount(1, { timeout: 1000 }));
    const shown = cells(row);
    await expect(shown.recipient).toHaveText(address);
    await expect(shown.subject).toHaveText('Your Boostly code');
    await expect(shown.attempts).toHaveText('1');
    await expect(shown.lastError).toHaveText(/^PermanentJobError: mail rejected \(550\)/);
    const today = await page.evaluate(() => new Date().toLocaleDateString('en-GB'));
    await expect(shown.givenUp).toHaveText(new RegExp(`^${today.replace(/\//g, '\\/')}, \\d{2}:\\d{2}$`));
    await expect(page.getByRole('columnheader', { name: 'Recipient', exact: true })).toBeVisible();
    await expectBadge(page, before + 1);
    await expectNoSeriousAxeViolations(page, '/admin/mail (a failed e-mail)');

    // Every admin hears of it, this one too; the alert names the address and the subject.
    const alert = await waitForMail(
      (m) => sentTo(m, E2E_ADMINS.mail) && m.subject === `Boostly: an e-mail to ${address} could not be delivered`,
    );
    expect(alert.text).toContain('Your Boostly code');

    // Send again while the server still refuses: queued (the toast), then failed once more.
    const resend = page.getByRole('button', { name: `Send again the e-mail to ${address}` });
    const queued = page.getByTestId('toast').filter({ hasText: RESEND_QUEUED });
    await resend.click();
    await expect(queued).toBeVisible();
    await reopenUntil(page, () => expect(cells(row).attempts).toHaveText('2', { timeout: 1000 }));
    // Admin toasts stay 3 s: the next one is then the next Send again's.
    await expect(queued).toHaveCount(0, { timeout: 6000 });
    await expectBadge(page, before + 1);

    // The address takes mail again: Send again delivers it, and the list and the count let go of it.
    await acceptMailTo(address);
    const delivered = (await capturedMail()).filter((m) => m.to === address).length;
    expect(delivered).toBe(0);
    await resend.click();
    await expect(queued).toBeVisible();
    await expectNoSeriousAxeViolations(page, '/admin/mail (after Send again)');
    const mail = await waitForMail((m) => m.to === address);
    expect(mail.subject).toBe('Your Boostly code');
    expect(mail.text).toMatch(/^\s*\d{6}\s*$/m);
    await reopenUntil(page, () => expect(row).toHaveCount(0, { timeout: 1000 }));
    await expectBadge(page, before);
    expect(await failedCount(page, token)).toBe(before);
    // Exactly one delivery for the one Send again that could succeed.
    expect((await capturedMail()).filter((m) => m.to === address)).toHaveLength(1);
  });

  test('Send again for an e-mail that is no longer failed says so', async ({ page }) => {
    test.setTimeout(90_000);
    const address = `refused-${uniqueSuffix()}@example.com`;
    await logIn(page, E2E_ADMINS.mailResend);
    await refuseMailTo(address);
    const asked = await page.request.post('/api/order/order-history/code', { data: { email: address } });
    expect(asked.status()).toBe(200);
    const row = page.getByTestId('failed-mail').getByRole('row').filter({ hasText: address });
    await reopenUntil(page, () => expect(row).toHaveCount(1, { timeout: 1000 }));

    // Another admin (here the API) sends it again first; this page still shows it as failed.
    const token = (await storedToken(page))!;
    const failed = await page.request.get('/api/admin/mail/failed', { headers: { authorization: `Bearer ${token}` } });
    const id = ((await failed.json()) as { data: { id: number; to: string }[] }).data.find((m) => m.to === address)?.id;
    expect(id).toBeDefined();
    await acceptMailTo(address);
    const first = await page.request.post(`/api/admin/mail/${id}/resend`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(first.status()).toBe(202);
    await page.getByRole('button', { name: `Send again the e-mail to ${address}` }).click();
    const toast = page
      .getByTestId('toast')
      .filter({ hasText: 'This e-mail has not failed (it is queued or was sent).' });
    await expect(toast).toBeVisible();
    await expect(toast).toHaveAttribute('data-kind', 'error');
    await expectNoSeriousAxeViolations(page, '/admin/mail (a refused Send again)');
    // The page reloads the list; the one queued attempt delivers it, once.
    await waitForMail((m) => m.to === address);
    await reopenUntil(page, () => expect(row).toHaveCount(0, { timeout: 1000 }));
    expect((await capturedMail()).filter((m) => m.to === address)).toHaveLength(1);
  });
});
